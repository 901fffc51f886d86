package transport

import (
	"errors"
	"strconv"
)

// ErrClosed is returned by Send, Receive and a second Close on a Conn that
// has been closed.
var ErrClosed = errors.New("transport: use of closed connection")

// ErrDatagramTooLarge is matched by every *DatagramSizeError: Send was given
// more than MaxDatagram bytes.
var ErrDatagramTooLarge = errors.New("transport: datagram too large")

// ErrUnknownPeer is matched by every *UnknownPeerError: Send was given a
// Addr that the Conn does not know.
var ErrUnknownPeer = errors.New("transport: unknown peer")

// ErrShortBuffer is matched by every *ShortBufferError: Receive was given a
// buffer too small for the next datagram.
var ErrShortBuffer = errors.New("transport: receive buffer too small")

// DatagramSizeError is returned by Send for a datagram longer than
// MaxDatagram. It matches ErrDatagramTooLarge.
type DatagramSizeError struct {
	// Size is the length of the rejected datagram in bytes.
	Size int
}

// Error returns a message that includes the size and the limit.
func (e *DatagramSizeError) Error() string {
	return "transport: datagram of " + strconv.Itoa(e.Size) +
		" bytes exceeds the " + strconv.Itoa(MaxDatagram) + "-byte limit"
}

// Is reports whether target is ErrDatagramTooLarge.
func (e *DatagramSizeError) Is(target error) bool { return target == ErrDatagramTooLarge }

// UnknownPeerError is returned by Send for a peer the Conn does not know.
// It matches ErrUnknownPeer.
type UnknownPeerError struct {
	// Peer is the identifier Send was given.
	Peer Addr
}

// Error returns a message that names the peer.
func (e *UnknownPeerError) Error() string {
	return "transport: unknown peer " + strconv.FormatUint(uint64(e.Peer), 10)
}

// Is reports whether target is ErrUnknownPeer.
func (e *UnknownPeerError) Is(target error) bool { return target == ErrUnknownPeer }

// ShortBufferError is returned by Receive when the caller's buffer cannot
// hold the next datagram; the datagram stays queued. It matches
// ErrShortBuffer.
type ShortBufferError struct {
	// Need is the length of the queued datagram.
	Need int
	// Have is the length of the buffer Receive was given.
	Have int
}

// Error returns a message that includes both lengths.
func (e *ShortBufferError) Error() string {
	return "transport: receive buffer of " + strconv.Itoa(e.Have) +
		" bytes is too small for a datagram of " + strconv.Itoa(e.Need) + " bytes"
}

// Is reports whether target is ErrShortBuffer.
func (e *ShortBufferError) Is(target error) bool { return target == ErrShortBuffer }

// ErrInvalidConfig is matched by every *ConfigError: a transport (udp,
// dtls, sim) was given a configuration that breaks a rule.
var ErrInvalidConfig = errors.New("transport: invalid config")

// ConfigError reports the field of a transport's configuration that
// breaks a rule. It matches ErrInvalidConfig.
type ConfigError struct {
	// Field names the offending field with its package's Config, such as
	// "udp.Config.Peers[2].Addr".
	Field string
	// Reason says what is wrong with it, with the values.
	Reason string
}

// Error returns a message naming the field and the reason.
func (e *ConfigError) Error() string {
	return "transport: invalid config: " + e.Field + ": " + e.Reason
}

// Is reports whether target is ErrInvalidConfig.
func (e *ConfigError) Is(target error) bool { return target == ErrInvalidConfig }
