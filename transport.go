package rollstep

import (
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/transport"
)

// Why a handshake failed: Update returns an error matching ErrRefused
// that wraps a *HandshakeError naming the differing field, or, unless
// Config.SoloStart, a *HandshakeTimeoutError saying what arrived from the
// silent peer (whether a wrong token was heard, or nothing at all).
type (
	HandshakeError        = endpoint.HandshakeError
	HandshakeTimeoutError = endpoint.HandshakeTimeoutError
)

// ErrHandshakeTimeout is matched by a *HandshakeTimeoutError.
var ErrHandshakeTimeout = endpoint.ErrHandshakeTimeout

// Peer returns what the connection knows of remote peer p: its state in
// the life cycle, when it was last heard, the round trip, send errors and
// dropped datagrams. ok is false if p is not a peer of the match.
func (s *Session[S, I]) Peer(p core.PeerID) (transport.PeerStats, bool) { return s.ep.Summary(p) }
