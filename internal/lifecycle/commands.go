package lifecycle

import "github.com/rollstep/rollstep/core"

// Commands are a session's match commands, the same in every mode: each
// rides a local player's next input through the engine's control channel.
// A front end embeds it (under an unexported alias), so its methods are
// the session's.
type Commands[S any, I comparable] struct {
	eng       *core.Engine[S, I]
	closed    *bool // the session's closed flag
	errClosed error // the front end's ErrClosed
}

// NewCommands returns the commands of a session over eng, which returns
// errClosed once *closed is set.
func NewCommands[S any, I comparable](eng *core.Engine[S, I], closed *bool, errClosed error) Commands[S, I] {
	return Commands[S, I]{eng: eng, closed: closed, errClosed: errClosed}
}

// Pause asks, on behalf of local player p, for the game to pause. The
// command rides the player's next input, so every peer pauses at the same
// frame, whatever its mode, and reports a core.PauseEvent once the frame
// is confirmed. While paused, frames keep running (inputs and checksums
// flow) but the game's Step is not called. It returns the session's
// ErrClosed after Close, core.ErrNotLocal for a player that is not local,
// and core.ErrCommandsFull when 8 commands of p wait for an input.
func (c Commands[S, I]) Pause(p core.PlayerHandle) error {
	if *c.closed {
		return c.errClosed
	}
	return c.eng.Pause(p)
}

// Resume asks, on behalf of local player p, for a paused game to resume,
// like Pause.
func (c Commands[S, I]) Resume(p core.PlayerHandle) error {
	if *c.closed {
		return c.errClosed
	}
	return c.eng.Resume(p)
}

// SetSpeed asks, on behalf of local player p, for the game speed to become
// percent (core.MinSpeed to core.MaxSpeed) of normal, like Pause: from the
// frame the command rides on, a frame (a turn) lasts the configured
// period·100/percent on every peer, which reports a core.SpeedEvent. It
// returns core.ErrOutOfRange for a percent outside the range.
func (c Commands[S, I]) SetSpeed(p core.PlayerHandle, percent int) error {
	if *c.closed {
		return c.errClosed
	}
	return c.eng.SetSpeed(p, percent)
}

// Paused reports whether the game is paused at the current frame.
func (c Commands[S, I]) Paused() bool { return c.eng.Control().Paused }
