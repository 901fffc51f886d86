package lifecycle

import (
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/endpoint"
	"github.com/rollstep/rollstep/transport/wire"
)

// Match is what every session's endpoint is built from.
type Match struct {
	Players    int
	TickRate   int // frames (turns) per second, as the digest has it
	Steps      int // the game's Steps per frame (0 or 1: one)
	Checksums  int // the checksum interval
	Game       [16]byte
	Local      []core.PlayerHandle
	Peers      []Peer
	Spectators []transport.PeerID
}

// NewEndpoint returns the endpoint of a session of match m over conn,
// with transport configuration tc: the match's digest (of slots of I),
// this session's seat and its peers' (so a host learns several peers'
// addresses from their Hellos; spectators, after the players' peers,
// have none). It returns the digest's error, which names its field, or
// the endpoint's.
func NewEndpoint[I comparable](m Match, tc endpoint.Config, conn transport.Conn) (*endpoint.Endpoint[core.Slot[I]], error) {
	dg, err := wire.DigestOf[core.Slot[I]](m.Players, m.TickRate, m.Checksums, m.Game)
	if err != nil {
		return nil, err
	}
	dg.ExtraSteps = uint8(max(m.Steps, 1) - 1) // the front ends bound Steps to 1..64
	tc.Digest = dg
	n := len(m.Peers) + len(m.Spectators)
	addrs := make([]transport.PeerID, 0, n)
	tc.Seat, tc.Seats = wire.SeatOf(m.Local...), make([]wire.Seat, n)
	for i, p := range m.Peers {
		addrs = append(addrs, p.Addr)
		tc.Seats[i] = wire.SeatOf(p.Players...)
	}
	addrs = append(addrs, m.Spectators...)
	return endpoint.New[core.Slot[I]](tc, conn, addrs)
}
