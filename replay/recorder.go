package replay

import (
	"fmt"
	"io"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/state"
)

// Config says what a Recorder records.
type Config struct {
	// Game is the game version hash of the recording build (see
	// core.GameVersion). Players of another build are refused the replay.
	Game [16]byte
	// Match is the match configuration digest, from core.DigestOf with
	// the game's input type. Its Players is the number of players.
	Match core.ConfigDigest
	// Seed is the match seed, stored for information.
	Seed uint64
	// ChecksumInterval is N, the number of frames between stored
	// checksums; 0 means 1.
	ChecksumInterval int
	// KeyframeInterval is K, the number of frames between keyframes; 0
	// means DefaultKeyframeInterval. Seeking re-simulates at most K-1
	// frames; every keyframe costs the compressed size of the state.
	KeyframeInterval int
}

// DefaultKeyframeInterval is the keyframe interval a zero
// Config.KeyframeInterval means: 10 seconds at 60 frames per second.
const DefaultKeyframeInterval = 600

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
	// logNext is the next frame of a StepLog that AddLog reads (its frames
	// and the replay's differ when the match paused or stepped several
	// times a frame).
	logNext core.Frame
}

// StepLog is a Log that also gives the inputs of every call of the game's
// Step in a logged frame (ReadSteps: no group of one input per player for
// a paused frame, one per Step otherwise). *core.Engine and every session
// front end implement it; AddLog then records one replay frame per Step,
// so the replay reproduces a match that paused or ran several Steps a
// frame.
type StepLog[I comparable] interface {
	Log[I]
	ReadSteps(f core.Frame, dst []core.Input[I]) ([]core.Input[I], error)
}

// NewRecorder returns a Recorder at frame 0 of a match of game starting
// from *initial (copied). It returns an error matching ErrInvalidConfig
// for an interval out of range or a digest that does not describe I, and
// the *state.ValidationError when S or I is not arena-serializable.
func NewRecorder[S any, I comparable](cfg Config, game core.Game[S, I], initial *S) (*Recorder[S, I], error) {
	sl, err := state.LayoutOf[S]()
	if err != nil {
		return nil, err
	}
	il, err := state.LayoutOf[I]()
	if err != nil {
		return nil, err
	}
	n, k := cfg.ChecksumInterval, cfg.KeyframeInterval
	if n == 0 {
		n = 1
	}
	if k == 0 {
		k = DefaultKeyframeInterval
	}
	d := &cfg.Match
	switch {
	case n < 1 || n > MaxFrames:
		return nil, fmt.Errorf("%w: checksum interval %d is outside 0..%d", ErrInvalidConfig, n, MaxFrames)
	case k < 1 || k > MaxFrames:
		return nil, fmt.Errorf("%w: keyframe interval %d is outside 0..%d", ErrInvalidConfig, k, MaxFrames)
	case d.Players < 1 || d.Players > core.MaxPlayers:
		return nil, fmt.Errorf("%w: digest has %d players, want 1..%d", ErrInvalidConfig, d.Players, core.MaxPlayers)
	case int(d.InputSize) != il.Size() || d.InputLayout != il.Fingerprint():
		return nil, fmt.Errorf("%w: digest input size %d layout %#x does not describe %s (size %d layout %#x)",
			ErrInvalidConfig, d.InputSize, d.InputLayout, il.TypeName(), il.Size(), il.Fingerprint())
	case d.ExtraSteps != 0:
		return nil, fmt.Errorf("%w: digest has %d steps per frame; a replay frame is one Step (record ReadSteps)", ErrInvalidConfig, int(d.ExtraSteps)+1)
	case sl.Size() > maxSize/4:
		return nil, fmt.Errorf("%w: state size %d is over %d", ErrInvalidConfig, sl.Size(), maxSize/4)
	}
	r := &Recorder[S, I]{game: game, cur: *initial, in: make([]core.Input[I], d.Players)}
	r.b.hdr = Header{
		Version: FormatVersion, Game: cfg.Game, Config: cfg.Match, Seed: cfg.Seed,
		StateLayout: sl.Fingerprint(), StateSize: sl.Size(),
		ChecksumInterval: n, KeyframeInterval: k,
	}
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
// interval. It returns an error matching ErrInvalidInput or ErrTooLong,
// recording nothing.
func (r *Recorder[S, I]) Add(inputs []core.Input[I]) error {
	h := &r.b.hdr
	if len(inputs) != len(r.in) {
		return fmt.Errorf("%w: frame %d has %d inputs for %d players", ErrInvalidInput, h.Frames, len(inputs), len(r.in))
	}
	if h.Frames >= MaxFrames {
		return ErrTooLong
	}
	for p, in := range inputs {
		switch in.Status {
		case core.InputConfirmed, core.InputFilled:
		case core.InputDisconnected:
			in.Value = *new(I)
		default:
			return fmt.Errorf("%w: frame %d player %d has status %v", ErrInvalidInput, h.Frames, p, in.Status)
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
// For a StepLog the next frame is the one after the last AddLog read (0
// at first), and each frame adds one replay frame per call of the game's
// Step in it (ReadSteps), so the replay reproduces the match whether or
// not it paused and however many Steps a frame ran; for another Log it is
// Frames(), one replay frame per log frame (ReadLog). So record a
// StepLog with AddLog alone: frames given to Add are not in its count of
// the log's frames read. It returns an error
// matching ErrLogGap when the log no longer holds the next frame, and
// otherwise what ReadLog, ReadSteps or Add returns.
func (r *Recorder[S, I]) AddLog(log Log[I]) error {
	start, end := log.LogRange()
	steps, byStep := log.(StepLog[I])
	next := r.b.hdr.Frames
	if byStep {
		next = r.logNext
	}
	if next < start {
		return fmt.Errorf("%w: next frame %d, log holds %d..%d", ErrLogGap, next, start, end)
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
			return fmt.Errorf("%w: frame %d has %d inputs for %d players", ErrInvalidInput, f, len(buf), n)
		}
		if r.b.hdr.Frames+core.Frame(len(buf)/n) > MaxFrames {
			return ErrTooLong // before any of the frame's Steps: a retry records none twice
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
// that Open accepts. Recording may continue afterwards.
func (r *Recorder[S, I]) Bytes() []byte {
	b := r.b
	return b.encode()
}

// WriteTo writes Bytes to w.
func (r *Recorder[S, I]) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(r.Bytes())
	return int64(n), err
}
