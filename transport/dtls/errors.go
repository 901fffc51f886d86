package dtls

import (
	"errors"
	"net"
)

// ErrHandshake is matched by the error of Dial when a DTLS handshake
// fails, for example because the keys or pins differ. The error also
// wraps pion's.
var ErrHandshake = errors.New("dtls: handshake failed")

// ErrHandshakeTimeout is matched, as well as ErrHandshake, by the error of
// Dial when the handshake did not finish before Config.HandshakeTimeout
// or the caller's context.
var ErrHandshakeTimeout = errors.New("dtls: handshake timed out")

// ErrPinMismatch is matched by the handshake failure of a peer whose
// certificate fingerprint is not in Config.PeerFingerprints; the message
// names the fingerprint it presented.
var ErrPinMismatch = errors.New("dtls: peer certificate not pinned")

// handshakeError is the error of a failed Dial. It matches ErrHandshake,
// and also ErrHandshakeTimeout when timeout is set, and unwraps to pion's
// error (which wraps the ErrPinMismatch error when the peer's certificate
// was refused).
type handshakeError struct {
	addr    net.Addr // the peer's address
	timeout bool     // the deadline passed first
	err     error    // pion's error
}

// Error returns a message that includes the address and the cause.
func (e *handshakeError) Error() string {
	what := "failed"
	if e.timeout {
		what = "timed out"
	}
	return "dtls: handshake with " + addrString(e.addr) + " " + what + ": " + e.err.Error()
}

// Unwrap returns pion's error.
func (e *handshakeError) Unwrap() error { return e.err }

// Is reports whether target is ErrHandshake, or ErrHandshakeTimeout for a
// timeout.
func (e *handshakeError) Is(target error) bool {
	return target == ErrHandshake || (e.timeout && target == ErrHandshakeTimeout)
}

func addrString(a net.Addr) string {
	if a == nil {
		return "<nil>"
	}
	return a.String()
}
