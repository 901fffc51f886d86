package core

import (
	"errors"
)

// ErrInvalidConfig is matched by every *ConfigError.
var ErrInvalidConfig = errors.New("core: invalid config")

// ConfigError is returned by Config.Validate and NewEngine for a bad
// configuration; it names the field and says what is wrong.
type ConfigError struct {
	Field  string // the Config (or ConfigDigest) field at fault, such as "Peers[1]"
	Reason string // what is wrong, with the values
}

// Error implements error.
func (e *ConfigError) Error() string { return "core: config " + e.Field + ": " + e.Reason }

// Is reports whether target is ErrInvalidConfig.
func (e *ConfigError) Is(target error) bool { return target == ErrInvalidConfig }

// ErrNotLocal is returned by AddLocalInput and SetInputDelay for a player
// that is not one of the engine's local players.
var ErrNotLocal = errors.New("core: player is not local")

// ErrInputDiscarded is returned by AddLocalInput when the frame the input
// would apply to (current frame + D) already has an input for the player:
// AddLocalInput was called twice in one frame, or D was lowered. The first
// input stands and is the only one ever sent; the new one is not used.
// This is expected and harmless; hosts usually ignore it.
var ErrInputDiscarded = errors.New("core: input discarded, frame already scheduled")

// ErrInputQueueFull is returned by AddLocalInput when a peer has not
// acknowledged enough of the player's inputs to make room for another one.
// The input is not used; the engine stalls until acknowledgements arrive.
var ErrInputQueueFull = errors.New("core: local input queue full")

// ErrOutOfRange is returned by setters given a value outside its bounds.
var ErrOutOfRange = errors.New("core: value out of range")

// ErrCommandsFull is returned by Pause, Resume and SetSpeed when 8
// commands of the player already wait for an input to ride.
var ErrCommandsFull = errors.New("core: command queue full")

// ErrFrameNotLogged is returned by ReadLog for a frame that is not
// confirmed yet or that the input log no longer retains.
var ErrFrameNotLogged = errors.New("core: frame not in input log")
