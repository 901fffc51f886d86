package lifecycle

import (
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport"
)

// Peer is one remote peer of a match, in every mode: its transport address
// on the session's Conn and the players whose inputs it produces. Its
// index in a session's Peers is its core.PeerID.
type Peer struct {
	Addr    transport.PeerID    // the peer's address on the Conn
	Players []core.PlayerHandle // the players whose inputs it produces
}
