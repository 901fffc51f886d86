package rollback

import (
	"time"

	"github.com/rollstep/rollstep/core"
)

// Pause asks, on behalf of local player p, for the game to pause. The
// command rides the player's next input, so every peer pauses at the same
// frame, whatever its mode, and reports a core.PauseEvent once the frame
// is confirmed. While paused, frames keep running (inputs, timesync and
// checksums flow) but the game's Step is not called. It returns ErrClosed
// after Close, core.ErrNotLocal for a player that is not local, and
// core.ErrCommandsFull when 8 commands of p wait for an input.
func (s *Session[S, I]) Pause(p core.PlayerHandle) error {
	if s.closed {
		return ErrClosed
	}
	return s.eng.Pause(p)
}

// Resume asks, on behalf of local player p, for a paused game to resume,
// like Pause.
func (s *Session[S, I]) Resume(p core.PlayerHandle) error {
	if s.closed {
		return ErrClosed
	}
	return s.eng.Resume(p)
}

// SetSpeed asks, on behalf of local player p, for the game speed to become
// percent (core.MinSpeed to core.MaxSpeed) of normal, like Pause: from the
// frame the command rides on, a frame lasts the configured frame period
// ·100/percent on every peer (core.SpeedEvent). It returns
// core.ErrOutOfRange for a percent outside the range.
func (s *Session[S, I]) SetSpeed(p core.PlayerHandle, percent int) error {
	if s.closed {
		return ErrClosed
	}
	return s.eng.SetSpeed(p, percent)
}

// Paused reports whether the game is paused at the current frame.
func (s *Session[S, I]) Paused() bool { return s.eng.Control().Paused }

// followSpeed sets the frame period from the game speed of the current
// state.
func (s *Session[S, I]) followSpeed() {
	p := max(s.base*100/time.Duration(s.eng.Control().Speed), time.Microsecond)
	if p == s.period {
		return
	}
	s.period = p
	s.ts.SetPeriod(p)
	_ = s.pacer.SetPeriod(p) // positive
}
