package endpoint

import (
	"errors"
	"strconv"

	"github.com/rollstep/rollstep/core"
)

// ErrInvalidConfig is matched by every *ConfigError: New or Config.Validate
// was given a configuration it cannot use.
var ErrInvalidConfig = errors.New("endpoint: invalid config")

// ErrRefused is matched by every *HandshakeError: a handshake was refused
// because the peers' protocol versions or match configurations differ.
var ErrRefused = errors.New("endpoint: handshake refused")

// ErrHandshakeTimeout is the Err of the EventDisconnected raised for a peer
// whose handshake did not complete within Config.HandshakeTimeout.
var ErrHandshakeTimeout = errors.New("endpoint: handshake timed out")

// ErrDropped is the Err of EventDropped: a connected peer's probe says
// it dropped this endpoint (to silence: an outage of the other
// direction, or one this side had not noticed yet; or because its other
// peers agreed to) and plays on without it.
var ErrDropped = errors.New("endpoint: the peer dropped this endpoint and plays on without it")

// ErrUnknownPeer is returned for a core.PeerID outside the peer table.
var ErrUnknownPeer = errors.New("endpoint: unknown peer")

// ErrClosed is returned by every method after Close.
var ErrClosed = errors.New("endpoint: closed")

// ConfigError describes an invalid Config or peer table. It matches
// ErrInvalidConfig.
type ConfigError struct {
	Field  string // the offending field, such as "InterruptTimeout"
	Value  string // its value, formatted
	Reason string // what is wrong with it
}

// Error returns a message naming the field, its value and the problem.
func (e *ConfigError) Error() string {
	return "endpoint: invalid config: " + e.Field + " " + e.Value + " " + e.Reason
}

// Is reports whether target is ErrInvalidConfig.
func (e *ConfigError) Is(target error) bool { return target == ErrInvalidConfig }

// HandshakeError reports a refused handshake with Peer. Err is the
// *wire.ConfigMismatchError naming the differing field, or the
// *wire.VersionError for another protocol version; errors.Is matches
// ErrRefused and, through Unwrap, wire.ErrConfigMismatch or
// wire.ErrBadVersion. Both sides of a refused handshake report the same
// field.
type HandshakeError struct {
	Peer core.PeerID // the refused or refusing peer
	// ByPeer is true when the peer refused our Hello, false when we refused
	// the peer's.
	ByPeer bool
	Err    error // the mismatch
}

// Error returns a message naming the peer and the mismatch.
func (e *HandshakeError) Error() string {
	who := "refused by peer "
	if !e.ByPeer {
		who = "refused peer "
	}
	return "endpoint: handshake " + who + strconv.Itoa(int(e.Peer)) + ": " + e.Err.Error()
}

// Unwrap returns the mismatch.
func (e *HandshakeError) Unwrap() error { return e.Err }

// Is reports whether target is ErrRefused.
func (e *HandshakeError) Is(target error) bool { return target == ErrRefused }

func itoa(n int) string { return strconv.Itoa(n) }
