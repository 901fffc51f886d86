package transport

import "errors"

// ErrClosed is returned by Send, Receive and a second Close on a Conn that
// has been closed.
var ErrClosed = errors.New("transport: use of closed connection")

// ErrDatagramTooLarge is matched (errors.Is) by the error Send returns
// for more than MaxDatagram bytes. The error wraps it with the size, as
// fmt.Errorf("%w: %d bytes, over the %d-byte limit", ErrDatagramTooLarge,
// len(p), MaxDatagram) does.
var ErrDatagramTooLarge = errors.New("transport: datagram too large")

// ErrUnknownPeer is matched (errors.Is) by the error Send returns for an
// Addr that the Conn does not know. The error wraps it with the Addr, as
// fmt.Errorf("%w %d", ErrUnknownPeer, to) does: "transport: unknown peer 7".
var ErrUnknownPeer = errors.New("transport: unknown peer")

// ErrShortBuffer is matched (errors.Is) by the error Receive returns when
// its buffer is too small for the next datagram, which stays queued. The
// error wraps it with both lengths, as fmt.Errorf("%w: %d bytes for a
// datagram of %d bytes", ErrShortBuffer, len(buf), n) does.
var ErrShortBuffer = errors.New("transport: receive buffer too small")

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
