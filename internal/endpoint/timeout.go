package endpoint

import (
	"strconv"
	"time"

	"github.com/rollstep/rollstep/core"
)

// HandshakeTimeoutError is the Err of the EventDisconnected raised for a
// peer whose handshake did not complete within Config.HandshakeTimeout.
// It says what, if anything, arrived from the peer's address, which tells
// the likely causes apart as far as they can be: nothing at all (nobody
// there, a path that drops our packets, or a peer not started yet), only
// datagrams that did not authenticate (a different session token or
// match configuration digest looks exactly like that, as does an
// attacker's noise), or valid Hellos without a completed exchange (the
// peer stopped, or our packets do not reach it). It matches ErrHandshakeTimeout.
type HandshakeTimeoutError struct {
	Peer  core.PeerID
	After time.Duration // how long the handshake ran
	// Received counts the datagrams from the peer's address, valid or not;
	// Unauthenticated those among them whose tag failed (WrongToken) or
	// that were not valid packets (Malformed).
	Received, Unauthenticated uint64
	// Heard reports that a valid packet arrived from the peer.
	Heard bool
	// SendErrors counts the sends to the peer that failed, SendError is
	// the newest one's error (nil when none failed).
	SendErrors uint64
	SendError  error
}

func (e *HandshakeTimeoutError) Error() string {
	s := "endpoint: handshake with peer " + strconv.Itoa(int(e.Peer)) + " timed out after " + e.After.Round(time.Millisecond).String() + ": "
	if e.SendError != nil {
		s += strconv.FormatUint(e.SendErrors, 10) + " sends to it failed (" + e.SendError.Error() + "); "
	}
	switch {
	case e.Heard:
		return s + "its Hellos arrived but it never answered ours (it stopped, or our packets do not reach it)"
	case e.Received == 0:
		return s + "nothing arrived from its address (nobody there, a path that drops our packets, or a peer not started yet)"
	default:
		return s + strconv.FormatUint(e.Received, 10) + " datagrams arrived from its address, " +
			strconv.FormatUint(e.Unauthenticated, 10) + " of them failed authentication " +
			"(a different session token looks exactly like this)"
	}
}

// Unwrap returns ErrHandshakeTimeout.
func (e *HandshakeTimeoutError) Unwrap() error { return ErrHandshakeTimeout }
