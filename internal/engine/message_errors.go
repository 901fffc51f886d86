package engine

import (
	"errors"
	"fmt"

	"github.com/rollstep/rollstep/core"
)

// ErrUnknownPeer is returned for a PeerID that is not in Config.Peers.
var ErrUnknownPeer = errors.New("core: unknown peer")

// ErrPeerGone is returned by Receive for a message from a peer that has
// been disconnected; the message is ignored.
var ErrPeerGone = errors.New("core: peer disconnected")

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
	Peer  core.PeerID // the sender
	Field string      // the Message field at fault, such as "Inputs"
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
