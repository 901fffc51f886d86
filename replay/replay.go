package replay

import (
	"fmt"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/arena"
	"github.com/rollstep/rollstep/state"
)

// outOfRange starts the error of Replay.Inputs and Player.Seek for a frame
// outside the replay.
const outOfRange = "replay: frame out of range"

// Replay is an opened replay of a game with state S and input I: its
// header, initial state, inputs, checksums and keyframes. Play it with a
// Player; check it with VerifyData. Its methods are read-only except for
// internal decoding buffers, so a Replay must not be used from several
// goroutines at once; open one per goroutine.
type Replay[S any, I comparable] struct {
	b    body[I]
	init S        // the decoded initial state
	base []byte   // state.Encode of the initial state: the keyframes' XOR base
	enc  []byte   // scratch for one encoded snapshot
	x    expander // decompresses snapshots
}

// Header returns the replay's header.
func (rp *Replay[S, I]) Header() Header { return rp.b.hdr }

// Initial copies the initial state, before frame 0, into *s.
func (rp *Replay[S, I]) Initial(s *S) { *s = rp.init }

// Inputs appends the inputs of frame f, one per player in handle order, to
// dst and returns it. It returns an error ("replay: frame out of range")
// for a frame outside 0 to Header().Frames-1.
func (rp *Replay[S, I]) Inputs(f core.Frame, dst []core.Input[I]) ([]core.Input[I], error) {
	if f < 0 || f >= rp.b.hdr.Frames {
		return dst, fmt.Errorf("%s: frame %d, replay has %d", outOfRange, f, rp.b.hdr.Frames)
	}
	n := rp.b.hdr.Players
	k := rowAt(rp.b.ends, f)
	return append(dst, rp.b.rows[k*n:(k+1)*n]...), nil
}

// Checksum returns the stored checksum of the state after f steps; ok is
// false when the replay stores none for f (f is not a positive multiple
// of ChecksumInterval, or is beyond Frames).
func (rp *Replay[S, I]) Checksum(f core.Frame) (sum uint64, ok bool) {
	n := core.Frame(rp.b.hdr.ChecksumInterval)
	if f <= 0 || f%n != 0 || int(f/n) > len(rp.b.sums) {
		return 0, false
	}
	return rp.b.sums[f/n-1], true
}

// keyframe decodes the keyframe of frame (j+1)*K into *s.
func (rp *Replay[S, I]) keyframe(j int, s *S) {
	// Open decoded every keyframe already, so this cannot fail.
	if err := rp.loadInto(s, rp.base, rp.b.keys[j], 0); err != nil {
		panic("replay: keyframe failed after Open checked it: " + err.Error())
	}
}

// VerifyData opens data as a replay of the build version (Open), then
// re-simulates the whole replay with game and compares every stored
// checksum and keyframe, as a replay farm or a command-line tool does. It
// returns nil when all match, Open's errors (another build, a truncated
// or corrupt file), and otherwise a *DivergenceError for the first check
// that does not match, with the field diff taken at that frame's keyframe
// or at the next one.
func VerifyData[S any, I comparable](data []byte, version [16]byte, game core.Game[S, I]) error {
	rp, err := Open[S, I](data, version)
	if err != nil {
		return err
	}
	return rp.verify(game)
}

// verify re-simulates rp with game for VerifyData.
func (rp *Replay[S, I]) verify(game core.Game[S, I]) error {
	pl := NewPlayer(rp, game)
	h := &rp.b.hdr
	n, k := core.Frame(h.ChecksumInterval), core.Frame(h.KeyframeInterval)
	var stored S
	var div *DivergenceError
	for pl.Step() {
		f := pl.Frame()
		if div == nil && f%n == 0 {
			if want, got := rp.b.sums[f/n-1], state.Checksum(&pl.cur); want != got {
				div = &DivergenceError{Frame: f, Want: want, Got: got}
			}
		}
		if f%k != 0 {
			continue
		}
		rp.keyframe(int(f/k)-1, &stored)
		if div == nil {
			if want, got := state.Checksum(&stored), state.Checksum(&pl.cur); want != got {
				div = &DivergenceError{Frame: f, Keyframe: true, Want: want, Got: got}
			}
		}
		if div != nil {
			div.DiffFrame = f
			div.Diffs, div.More = arena.DiffLimit(&stored, &pl.cur, diffLimit)
			if len(div.Diffs) > 0 {
				return div
			}
		}
	}
	if div != nil {
		return div
	}
	return nil
}
