package lifecycle

import (
	"errors"

	"github.com/rollstep/rollstep/core"
)

// ErrPassed is returned by End.Set for a frame the engine has already
// simulated.
var ErrPassed = errors.New("end of match already simulated")

// Engine is what End needs of a core.Engine, whatever its state and input
// types.
type Engine interface {
	Frame() core.Frame
	ConfirmedFrame() (core.Frame, bool)
	Delivered() core.Frame
	SetEnd(f core.Frame) error
}

// End is the agreed end of a match: At, the first frame not played, once
// Set (or adopted from a peer); Ended once every frame before it is
// confirmed here and every peer holds this side's inputs for them, so
// that the first side to stop strands nobody. Its zero value has no end.
type End struct {
	At            core.Frame
	pending, done bool
}

// Set makes f the end of the match on e: e simulates no frame from f on.
// It returns ErrPassed when e already simulated frame f.
func (x *End) Set(e Engine, f core.Frame) error {
	if e.SetEnd(f) != nil {
		return ErrPassed
	}
	x.At, x.pending = f, true
	return nil
}

// Adopt takes a peer's end f when none is set and e has not simulated
// frame f yet.
func (x *End) Adopt(e Engine, f core.Frame) {
	if !x.pending {
		_ = x.Set(e, f)
	}
}

// Reached reports, once, that the end is reached everywhere: e is at
// frame At, every frame before it is confirmed, and every remaining peer
// acknowledged e's local inputs for them. The caller then leaves the
// match and reports it.
func (x *End) Reached(e Engine) bool {
	if !x.pending || x.done {
		return false
	}
	if c, ok := e.ConfirmedFrame(); x.At > 0 && (!ok || c < x.At-1) {
		return false
	}
	if e.Frame() < x.At || e.Delivered() < x.At {
		return false
	}
	x.done = true
	return true
}

// Ended reports whether Reached has reported the end.
func (x *End) Ended() bool { return x.done }
