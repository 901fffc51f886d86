package replay

import (
	"fmt"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/arena"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/state"
)

// Config says what a Recorder records.
type Config struct {
	// Game is the game version hash of the recording build (see
	// core.GameVersion). Players of another build are refused the replay.
	Game [16]byte
	// Players is the number of players, 1 to core.MaxPlayers: Add takes
	// one input per player.
	Players int
	// TickRate is the match's simulation rate in frames per second, 1 to
	// 65535; Header.Duration is computed from it.
	TickRate int
	// Seed is the match seed, stored for information.
	Seed uint64
	// ChecksumInterval is N, the number of frames between stored
	// checksums, at most 1<<25; 0 means 1.
	ChecksumInterval int
	// KeyframeInterval is K, the number of frames between keyframes, at
	// most 1<<25; 0 means 600 (10 seconds at 60 frames per second).
	// Seeking re-simulates at most K-1 frames; every keyframe costs the
	// compressed size of the state.
	KeyframeInterval int
}

// defaultKeyframeInterval is the keyframe interval a zero
// Config.KeyframeInterval means: 600 frames, 10 seconds at 60 frames per
// second.
const defaultKeyframeInterval = 600

// Log is the part of an input log a Recorder reads: *core.Engine and the
// session front ends that expose their engine's log implement it.
type Log[I comparable] interface {
	// LogRange returns the logged frames, start <= f < end; every frame
	// below end is confirmed.
	LogRange() (start, end core.Frame)
	// ReadLog appends frame f's inputs, one per player, to dst.
	ReadLog(f core.Frame, dst []core.Input[I]) ([]core.Input[I], error)
}

// Recorder records a match frame by frame. It steps its own copy of the
// game with the recorded inputs to compute the checksums and keyframes, so
// it costs one extra simulation of the match; nothing it is given is
// retained. A Recorder is not safe for concurrent use.
type Recorder[S any, I comparable] struct {
	b    body[I]
	game core.Game[S, I]
	cur  S
	base []byte // state.Encode of the initial state
	enc  []byte // scratch encoding
	in   []core.Input[I]
	fx   discard
	c    compressor
	// logNext is the next frame of a stepLog that AddLog reads (its frames
	// and the replay's differ when the match paused or stepped several
	// times a frame).
	logNext core.Frame
}

// stepLog is a Log that also gives the inputs of every call of the game's
// Step in a logged frame (ReadSteps: no group of one input per player for
// a paused frame, one per Step otherwise). *core.Engine and every session
// front end implement it; AddLog then records one replay frame per Step,
// so the replay reproduces a match that paused or ran several Steps a
// frame.
type stepLog[I comparable] interface {
	Log[I]
	ReadSteps(f core.Frame, dst []core.Input[I]) ([]core.Input[I], error)
}

// NewRecorder returns a Recorder at frame 0 of a match of game starting
// from *initial (copied). It returns an error starting "replay: invalid
// config" for a player count, tick rate or interval out of range or an
// input type larger than a match may send, and the
// *state.ValidationError when S or I is not arena-serializable.
func NewRecorder[S any, I comparable](cfg Config, game core.Game[S, I], initial *S) (*Recorder[S, I], error) {
	sl, err := arena.LayoutOf[S]()
	if err != nil {
		return nil, err
	}
	if _, err := arena.LayoutOf[I](); err != nil {
		return nil, err
	}
	n, k := cfg.ChecksumInterval, cfg.KeyframeInterval
	if n == 0 {
		n = 1
	}
	if k == 0 {
		k = defaultKeyframeInterval
	}
	switch {
	case n < 1 || n > maxFrames:
		return nil, fmt.Errorf("%s: checksum interval %d is outside 0..%d", invalidConfig, n, maxFrames)
	case k < 1 || k > maxFrames:
		return nil, fmt.Errorf("%s: keyframe interval %d is outside 0..%d", invalidConfig, k, maxFrames)
	case cfg.Players < 1 || cfg.Players > core.MaxPlayers:
		return nil, fmt.Errorf("%s: %d players, want 1..%d", invalidConfig, cfg.Players, core.MaxPlayers)
	case cfg.TickRate < 1 || cfg.TickRate > 0xffff:
		return nil, fmt.Errorf("%s: tick rate %d is outside 1..65535", invalidConfig, cfg.TickRate)
	case sl.Size() > maxSize/4:
		return nil, fmt.Errorf("%s: state size %d is over %d", invalidConfig, sl.Size(), maxSize/4)
	}
	// The header stores the wire handshake's digest of the match. Its
	// checksum interval, the session's desync check, is not the replay's
	// N and is never read back: it is written as 1, which keeps the bytes
	// the recorders of the example games and tests always wrote.
	d, err := wire.DigestOf[I](cfg.Players, cfg.TickRate, 1, cfg.Game)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", invalidConfig, err)
	}
	r := &Recorder[S, I]{game: game, cur: *initial, in: make([]core.Input[I], cfg.Players)}
	r.b.hdr = Header{
		Version: formatVersion, Game: cfg.Game, Seed: cfg.Seed,
		StateLayout: sl.Fingerprint(), StateSize: sl.Size(),
		ChecksumInterval: n, KeyframeInterval: k,
	}
	r.b.hdr.setDigest(d)
	r.base = state.Encode(nil, &r.cur)
	r.b.initial = r.c.store(r.base, nil)
	return r, nil
}

// Frames returns the number of frames recorded so far.
func (r *Recorder[S, I]) Frames() core.Frame { return r.b.hdr.Frames }

// State returns the recorder's state after the frames recorded so far
// (read-only): a caller that makes inputs from the state, as a bot does,
// may read it.
func (r *Recorder[S, I]) State() *S { return &r.cur }

// Add records the next frame: inputs holds one input per player in handle
// order, each core.InputConfirmed, core.InputFilled or core.InputDisconnected (whose value
// is recorded as the zero value). It steps the recorder's game, and stores
// a checksum or keyframe when the new frame count is a multiple of the
// interval. It returns an error, recording nothing, for inputs it cannot
// record (the wrong number, or another status: "replay: invalid input")
// and when the replay already holds 1<<25 frames, about 155 hours at 60
// frames per second ("replay: too many frames").
func (r *Recorder[S, I]) Add(inputs []core.Input[I]) error {
	h := &r.b.hdr
	if len(inputs) != len(r.in) {
		return fmt.Errorf("%s: frame %d has %d inputs for %d players", invalidInput, h.Frames, len(inputs), len(r.in))
	}
	if h.Frames >= maxFrames {
		return errTooLong
	}
	for p, in := range inputs {
		switch in.Status {
		case core.InputConfirmed, core.InputFilled:
		case core.InputDisconnected:
			in.Value = *new(I)
		default:
			return fmt.Errorf("%s: frame %d player %d has status %v", invalidInput, h.Frames, p, in.Status)
		}
		r.in[p] = in
	}
	if n := len(r.b.ends); n > 0 && equal(r.in, r.b.rows[len(r.b.rows)-len(r.in):]) {
		r.b.ends[n-1]++
	} else {
		r.b.rows = append(r.b.rows, r.in...)
		r.b.ends = append(r.b.ends, h.Frames+1)
	}
	r.game.Step(&r.cur, r.in, r.fx)
	h.Frames++
	if h.Frames%core.Frame(h.ChecksumInterval) == 0 {
		r.b.sums = append(r.b.sums, state.Checksum(&r.cur))
	}
	if h.Frames%core.Frame(h.KeyframeInterval) == 0 {
		r.enc = state.Encode(r.enc[:0], &r.cur)
		r.b.keys = append(r.b.keys, r.c.store(r.enc, r.base))
	}
	return nil
}

// equal reports whether a and b hold the same inputs.
func equal[I comparable](a, b []core.Input[I]) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// AddLog records every frame of log from the next one to the log's end.
// A log that also has the method
//
//	ReadSteps(f core.Frame, dst []core.Input[I]) ([]core.Input[I], error)
//
// giving the inputs of every call of the game's Step in frame f (none for
// a paused frame), as *core.Engine and every session front end do, is
// read by Step: the next frame is the one after the last AddLog read (0
// at first), and each frame adds one replay frame per Step in it, so the
// replay reproduces the match whether or not it paused and however many
// Steps a frame ran. For another Log the next frame is Frames(), one
// replay frame per log frame (ReadLog). So record a log with ReadSteps
// with AddLog alone: frames given to Add are not in its count of the
// log's frames read. It returns an error starting "replay: frames
// missing from the input log" when the log no longer holds the next frame
// (raise the log's retention or record more often), and otherwise what
// ReadLog, ReadSteps or Add returns.
func (r *Recorder[S, I]) AddLog(log Log[I]) error {
	start, end := log.LogRange()
	steps, byStep := log.(stepLog[I])
	next := r.b.hdr.Frames
	if byStep {
		next = r.logNext
	}
	if next < start {
		return fmt.Errorf("replay: frames missing from the input log: next frame %d, log holds %d..%d", next, start, end)
	}
	var buf []core.Input[I]
	n := len(r.in)
	for f := next; f < end; f++ {
		var err error
		if byStep {
			buf, err = steps.ReadSteps(f, buf[:0])
		} else {
			buf, err = log.ReadLog(f, buf[:0])
		}
		if err != nil {
			return err
		}
		if byStep && len(buf)%n != 0 {
			return fmt.Errorf("%s: frame %d has %d inputs for %d players", invalidInput, f, len(buf), n)
		}
		if r.b.hdr.Frames+core.Frame(len(buf)/n) > maxFrames {
			return errTooLong // before any of the frame's Steps: a retry records none twice
		}
		for k := 0; k < len(buf) || (!byStep && k == 0); k += n {
			if err := r.Add(buf[k:min(k+n, len(buf))]); err != nil {
				return err
			}
		}
		r.logNext = f + 1
	}
	return nil
}

// Bytes returns the replay of the frames recorded so far: a complete file
// that Open accepts (write it with WriteFile). Recording may continue
// afterwards.
func (r *Recorder[S, I]) Bytes() []byte {
	b := r.b
	return b.encode()
}

// The messages that start the errors of NewRecorder and Add.
const (
	invalidConfig = "replay: invalid config"
	invalidInput  = "replay: invalid input"
)
