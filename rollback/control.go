package rollback

import (
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/lifecycle"
	"time"
)

// commands are the session's match commands.
type commands[S any, I comparable] = lifecycle.Commands[S, I]

// Pause asks, on behalf of local player p, for the game to pause: the
// command rides the player's next input and every peer, whatever its
// mode, pauses at the same frame (core.PauseEvent; see core.Engine.Pause).
// It returns ErrClosed after Close, core.ErrNotLocal and
// core.ErrCommandsFull.
func (s *Session[S, I]) Pause(p core.PlayerHandle) error { return s.commands.Pause(p) }

// Resume asks, on behalf of local player p, for a paused game to resume,
// like Pause.
func (s *Session[S, I]) Resume(p core.PlayerHandle) error { return s.commands.Resume(p) }

// SetSpeed asks, on behalf of local player p, for the game speed to become
// percent (core.MinSpeed to core.MaxSpeed, else core.ErrOutOfRange) of
// normal, like Pause: a frame then lasts the frame period·100/percent (core.SpeedEvent).
func (s *Session[S, I]) SetSpeed(p core.PlayerHandle, percent int) error {
	return s.commands.SetSpeed(p, percent)
}

// Paused reports whether the game is paused at the current frame.
func (s *Session[S, I]) Paused() bool { return s.commands.Paused() }

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
