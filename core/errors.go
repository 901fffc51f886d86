package core

import (
	"errors"
	"fmt"
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

// ErrUnknownPeer is returned for a PeerID that is not in Config.Peers.
var ErrUnknownPeer = errors.New("core: unknown peer")

// ErrPeerGone is returned by Receive for a message from a peer that has
// been disconnected; the message is ignored.
var ErrPeerGone = errors.New("core: peer disconnected")

// ErrFrameNotLogged is returned by ReadLog for a frame that is not
// confirmed yet or that the input log no longer retains.
var ErrFrameNotLogged = errors.New("core: frame not in input log")

// ErrBadMessage is matched by every *MessageError.
var ErrBadMessage = errors.New("core: bad message")

// ErrFarFuture is matched by a *MessageError for a frame so far ahead of
// the engine that no honest peer could have produced it.
var ErrFarFuture = errors.New("core: frame too far in the future")

// ErrNegativeFrame is matched by a *MessageError for a negative frame.
var ErrNegativeFrame = errors.New("core: negative frame")

// MessageError is returned by Receive for a malformed message. The whole
// message is ignored; the engine's state is unchanged and it keeps running.
// It matches ErrBadMessage and, where it applies, ErrFarFuture or
// ErrNegativeFrame.
//
// A rejection costs no allocation, however many a peer provokes: the
// engine keeps one MessageError and Receive returns it each time, so it
// describes the latest rejected message until the next call to Receive.
// Copy the value (or keep its Error string) to hold on to one.
type MessageError struct {
	Peer  PeerID // the sender
	Field string // the Message field at fault, such as "Inputs"
	// why is a format with len(args) integer verbs, formatted only when
	// Reason or Error is called.
	why  string
	args [3]int64
	n    int   // how many of args why uses
	kind error // ErrFarFuture, ErrNegativeFrame or nil
}

// Reason says what is wrong, with the values.
func (e *MessageError) Reason() string {
	args := make([]any, e.n)
	for i := range args {
		args[i] = e.args[i]
	}
	return fmt.Sprintf(e.why, args...)
}

// Error implements error.
func (e *MessageError) Error() string {
	return fmt.Sprintf("core: bad message from peer %d: %s: %s", e.Peer, e.Field, e.Reason())
}

// Is reports whether target is ErrBadMessage or the error's specific kind.
func (e *MessageError) Is(target error) bool {
	return target == ErrBadMessage || (e.kind != nil && target == e.kind)
}
