package engine

import (
	"errors"
	"fmt"
)

// The errors the engine returns to the session, which re-exports them
// (rollstep.ErrInvalidConfig and the rest): a game sees them there.

// ErrInvalidConfig is matched by every *ConfigError.
var ErrInvalidConfig = errors.New("rollstep: invalid config")

// ConfigError is returned for a bad configuration; it names the field and
// says what is wrong.
type ConfigError struct {
	Field  string // the Config field at fault, such as "Peers[1]"
	Reason string // what is wrong, with the values
}

// Error implements error.
func (e *ConfigError) Error() string { return "rollstep: config " + e.Field + ": " + e.Reason }

// Is reports whether target is ErrInvalidConfig.
func (e *ConfigError) Is(target error) bool { return target == ErrInvalidConfig }

// ErrNotLocal is returned by AddLocalInput and SetInputDelay for a player
// that is not one of the engine's local players.
// It matches ErrOutOfRange, which is how a game sees it.
var ErrNotLocal = fmt.Errorf("%w: player is not local", ErrOutOfRange)

// ErrInputDiscarded is returned by AddLocalInput when the frame the input
// would apply to (current frame + D) already has an input for the player:
// AddLocalInput was called twice in one frame, or D was lowered. The first
// input stands and is the only one ever sent; the new one is not used.
// This is expected and harmless; hosts usually ignore it.
var ErrInputDiscarded = errors.New("rollstep: input discarded, frame already scheduled")

// ErrQueueFull is returned by AddLocalInput when a peer has not
// acknowledged enough of the player's inputs to make room for another one
// (the input is not used; the engine stalls until acknowledgements
// arrive), and by Pause, Resume and SetSpeed when 8 commands of the player
// already wait for an input to ride.
var ErrQueueFull = errors.New("rollstep: queue full")

// ErrOutOfRange is returned by setters given a value outside its bounds.
var ErrOutOfRange = errors.New("rollstep: value out of range")

// ErrFrameNotLogged is returned by ReadLog for a frame that is not
// confirmed yet or that the input log no longer retains. It matches
// ErrOutOfRange, which is how a game sees it.
var ErrFrameNotLogged = fmt.Errorf("%w: frame not in input log", ErrOutOfRange)
