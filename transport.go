package rollstep

import (
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/transport"
)

// ErrHandshakeTimeout is matched by the error Update returns, unless
// Config.SoloStart, when a peer's handshake did not finish in time; its
// text says what arrived from the silent peer (a wrong token, or nothing
// at all). A refused handshake matches ErrRefused instead, and its text
// names the field the peers disagree on.
var ErrHandshakeTimeout = endpoint.ErrHandshakeTimeout

// Peer returns what the connection knows of remote peer p: its state in
// the life cycle, when it was last heard, the round trip, send errors and
// dropped datagrams. ok is false if p is not a peer of the match.
func (s *Session[S, I]) Peer(p core.PeerID) (transport.PeerStats, bool) { return s.ep.Summary(p) }
