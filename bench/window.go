package bench

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
)

// The defaults of WindowOptions' zero fields, and the largest window.
const (
	defaultWindow     = 8  // rollback's default prediction window
	defaultTickRate   = 60 // frames per second
	defaultPercentile = 99
	// maxWindow is the largest prediction window the engine accepts;
	// the max-W metric is capped at it.
	maxWindow = 64
)

// ErrInvalidOptions is matched (errors.Is) by the error MeasureWindow
// returns for a bad WindowOptions field or a nil argument; the message
// names the field and its value.
var ErrInvalidOptions = errors.New("bench: invalid options")

// ErrNoRollback is returned by MeasureWindow when the input generator
// gives a remote player the same value for every frame it was asked about,
// so no prediction can be wrong and the worst case cannot be forced.
var ErrNoRollback = errors.New("bench: inputs cannot force a rollback")

// WindowOptions configures FitsWindow and MeasureWindow. The zero value
// is valid: W = 8 at 60 Hz, two players, no reserve, the 99th percentile.
type WindowOptions struct {
	// Window is the prediction window W to check, in 1..64; 0 means 8,
	// rollback's default.
	Window int
	// TickRate is the simulation rate in frames per second, in 1..1000;
	// 0 means 60.
	TickRate int
	// Players is the number of players; player 0 is local and the others
	// are remote, in 2..core.MaxPlayers. 0 means 2.
	Players int
	// Reserve is the fraction of the frame, in [0, 1), kept for
	// everything but simulation: rendering, audio, input. 0.5 leaves the
	// simulation half a frame.
	Reserve float64
	// ReserveTime is a fixed time kept for the same purpose, in addition
	// to Reserve.
	ReserveTime time.Duration
	// Percentile of the per-frame times that is the worst frame, in
	// (0, 100]; 0 means 99. 100 is the maximum.
	Percentile float64
	// ChecksumInterval is core.Config.ChecksumInterval, not negative;
	// 0 means 1, like a session. The checksums are part of the library's
	// work.
	ChecksumInterval int
}

// withDefaults returns o with zero fields set to their defaults, or an
// error matching ErrInvalidOptions that names the bad field.
func (o WindowOptions) withDefaults() (WindowOptions, error) {
	if o.Window == 0 {
		o.Window = defaultWindow
	}
	if o.TickRate == 0 {
		o.TickRate = defaultTickRate
	}
	if o.Players == 0 {
		o.Players = 2
	}
	if o.Percentile == 0 {
		o.Percentile = defaultPercentile
	}
	if o.ChecksumInterval == 0 {
		o.ChecksumInterval = 1
	}
	bad := func(field, format string, args ...any) (WindowOptions, error) {
		return o, invalid(field, format, args...)
	}
	switch {
	case o.Window < 1 || o.Window > maxWindow:
		return bad("Window", "%d is outside 1..%d", o.Window, maxWindow)
	case o.TickRate < 1 || o.TickRate > 1000:
		return bad("TickRate", "%d is outside 1..1000", o.TickRate)
	case o.Players < 2 || o.Players > core.MaxPlayers:
		return bad("Players", "%d is outside 2..%d", o.Players, core.MaxPlayers)
	case !(o.Reserve >= 0 && o.Reserve < 1):
		return bad("Reserve", "%g is outside [0, 1)", o.Reserve)
	case o.ReserveTime < 0:
		return bad("ReserveTime", "%v is negative", o.ReserveTime)
	case !(o.Percentile > 0 && o.Percentile <= 100):
		return bad("Percentile", "%g is outside (0, 100]", o.Percentile)
	case o.ChecksumInterval < 0:
		return bad("ChecksumInterval", "%d is negative", o.ChecksumInterval)
	}
	if o.budget() <= 0 {
		return bad("ReserveTime", "the reserve (%g of %v plus %v) leaves no time to simulate",
			o.Reserve, o.frame(), o.ReserveTime)
	}
	return o, nil
}

// invalid returns an error matching ErrInvalidOptions that names the
// field at fault and what is wrong with it.
func invalid(field, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrInvalidOptions, field, fmt.Sprintf(format, args...))
}

func (o WindowOptions) frame() time.Duration { return time.Second / time.Duration(o.TickRate) }

// budget is the time left for a frame's simulation: the frame minus both
// reserves.
func (o WindowOptions) budget() time.Duration {
	f := o.frame()
	return f - time.Duration(float64(f)*o.Reserve) - o.ReserveTime
}

// Fit is the verdict of a window measurement.
type Fit struct {
	Window int // the prediction window W measured
	Frames int // rollback frames measured
	// Percentile is the percentile of frame times that Worst is.
	Percentile float64
	Worst      time.Duration // the Percentile-th percentile of the frame times
	Max        time.Duration // the slowest frame (noisy: preemption, GC)
	Budget     time.Duration // the frame minus the reserves
	Headroom   float64       // Budget / Worst: above 1 the window fits
	// MaxWindow is the largest W whose worst frame fits the budget,
	// assuming the cost grows with the W+1 frames simulated: Budget ÷
	// (Worst ÷ (W+1)) − 1, capped at 64, the largest window the engine
	// accepts. The load and the fixed
	// per-frame work are counted per simulated frame, so it errs low.
	// −1 means not even one step per frame fits.
	MaxWindow int
}

// Fits reports whether the worst frame is within the budget.
func (f Fit) Fits() bool { return f.Worst <= f.Budget }

// String describes the verdict in one line, with the numbers.
func (f Fit) String() string {
	verdict := "fits"
	if !f.Fits() {
		verdict = "does not fit"
	}
	return fmt.Sprintf("W=%d %s: worst rollback frame %v (p%g of %d frames, max %v), budget %v, headroom %.2fx, largest W that fits %d",
		f.Window, verdict, f.Worst, f.Percentile, f.Frames, f.Max, f.Budget, f.Headroom, f.MaxWindow)
}

// InputFunc returns player p's input for frame f. It must be a pure
// function of its arguments and should vary from frame to frame the way a
// player's input does. It is called outside the timed section. The forced
// misprediction of a remote player's frame f is the zero value, or when
// that is the real input, the first differing input of frames f+1 to f+16;
// a generator that gives no remote player a differing value there cannot
// force a rollback (ErrNoRollback).
type InputFunc[I comparable] func(p core.PlayerHandle, f core.Frame) I

// window is a measurement in progress: r is warmed up so every frame it
// steps is a full-depth rollback, h holds the times of the frames recorded
// since, and st0 the engine's counters when recording began.
type window[S any, I comparable] struct {
	o   WindowOptions
	r   *rig[S, I]
	h   hist
	st0 engine.Stats
}

func newWindow[S any, I comparable](game core.Game[S, I], initial *S, inputs InputFunc[I], opts WindowOptions) (*window[S, I], error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if game == nil || initial == nil || inputs == nil {
		return nil, invalid("arguments", "game, initial state and inputs must not be nil")
	}
	r, err := newRig(game, initial, inputs, o.Players, o.Window, o.Window, o.TickRate, o.ChecksumInterval, false)
	if err != nil {
		return nil, err
	}
	// Warm up: fill the window and the saved-state ring, so every
	// measured frame is a full-depth rollback.
	for range 2*o.Window + 4 {
		r.step()
	}
	return &window[S, I]{o: o, r: r, st0: r.a.Stats()}, nil
}

// record times one rollback frame.
func (w *window[S, I]) record() { w.h.add(w.r.step()) }

// verdict checks that every measured frame rolled back W frames and
// returns the Fit.
func (w *window[S, I]) verdict() (Fit, error) {
	st := w.r.a.Stats()
	frames := st.Frames - w.st0.Frames
	if !w.r.differ || st.Rollbacks-w.st0.Rollbacks != frames ||
		st.ResimFrames-w.st0.ResimFrames != frames*uint64(w.o.Window) {
		return Fit{}, fmt.Errorf("%w: %d frames, %d rollbacks, %d frames re-simulated (want %d each of depth %d); "+
			"the input generator must give remote players values that change", ErrNoRollback,
			frames, st.Rollbacks-w.st0.Rollbacks, st.ResimFrames-w.st0.ResimFrames, frames, w.o.Window)
	}
	f := Fit{Window: w.o.Window, Frames: int(w.h.n), Percentile: w.o.Percentile, Worst: w.h.quantile(w.o.Percentile / 100), Max: w.h.max, Budget: w.o.budget()}
	worst := max(float64(f.Worst), 1)
	f.Headroom = float64(f.Budget) / worst
	perFrame := worst / float64(w.o.Window+1)
	f.MaxWindow = int(math.Min(math.Floor(float64(f.Budget)/perFrame)-1, maxWindow))
	return f, nil
}

// MeasureWindow runs frames forced rollback frames of game outside any
// benchmark and returns the verdict; see FitsWindow for what a frame is.
// It suits tests, tools and a settings screen choosing W at start-up.
// frames below 1 means 100.
func MeasureWindow[S any, I comparable](game core.Game[S, I], initial *S, inputs InputFunc[I], opts WindowOptions, frames int) (Fit, error) {
	w, err := newWindow(game, initial, inputs, opts)
	if err != nil {
		return Fit{}, err
	}
	if frames < 1 {
		frames = 100
	}
	for range frames {
		w.record()
	}
	return w.verdict()
}
