package dtls

import (
	"errors"
	"net"
)

// ErrInvalidConfig is matched by every *ConfigError: Dial or Listen was
// given a Config that breaks a rule.
var ErrInvalidConfig = errors.New("dtls: invalid config")

// ConfigError reports a Config field that breaks a rule. It matches
// ErrInvalidConfig.
type ConfigError struct {
	// Field names the offending field.
	Field string
	// Reason says what is wrong with it.
	Reason string
}

// Error returns a message naming the field and the reason.
func (e *ConfigError) Error() string {
	return "dtls: invalid config: " + e.Field + ": " + e.Reason
}

// Is reports whether target is ErrInvalidConfig.
func (e *ConfigError) Is(target error) bool { return target == ErrInvalidConfig }

// ErrHandshake is matched by every *HandshakeError: a DTLS handshake
// failed, for example because the keys or pins differ.
var ErrHandshake = errors.New("dtls: handshake failed")

// ErrHandshakeTimeout is matched by a *HandshakeError whose handshake did
// not finish before Config.HandshakeTimeout or the caller's context.
var ErrHandshakeTimeout = errors.New("dtls: handshake timed out")

// HandshakeError is returned by Dial when the handshake fails. It matches
// ErrHandshake, and also ErrHandshakeTimeout when Timeout is set; it
// unwraps to pion's error (which wraps a *PinError when the peer's
// certificate was refused).
type HandshakeError struct {
	// Addr is the peer's address.
	Addr net.Addr
	// Timeout reports that the deadline passed first.
	Timeout bool
	// Err is the underlying error.
	Err error
}

// Error returns a message that includes the address and the cause.
func (e *HandshakeError) Error() string {
	what := "failed"
	if e.Timeout {
		what = "timed out"
	}
	return "dtls: handshake with " + addrString(e.Addr) + " " + what + ": " + e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *HandshakeError) Unwrap() error { return e.Err }

// Is reports whether target is ErrHandshake, or ErrHandshakeTimeout for a
// timeout.
func (e *HandshakeError) Is(target error) bool {
	return target == ErrHandshake || (e.Timeout && target == ErrHandshakeTimeout)
}

// ErrPinMismatch is matched by every *PinError.
var ErrPinMismatch = errors.New("dtls: peer certificate not pinned")

// PinError is the handshake failure of a peer whose certificate
// fingerprint is not in Config.PeerFingerprints. It matches
// ErrPinMismatch.
type PinError struct {
	// Got is the fingerprint the peer presented; zero if it sent no
	// certificate.
	Got Fingerprint
}

// Error returns a message with the refused fingerprint.
func (e *PinError) Error() string {
	return "dtls: peer certificate " + e.Got.String() + " is not pinned"
}

// Is reports whether target is ErrPinMismatch.
func (e *PinError) Is(target error) bool { return target == ErrPinMismatch }

func addrString(a net.Addr) string {
	if a == nil {
		return "<nil>"
	}
	return a.String()
}
