package main

import (
	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/lobby"
	"github.com/rollstep/rollstep/transport"
)

// newSession returns the Rollback session of seat m.Seat of a two-player
// fighter match made by the lobby, over conn, ending at frame end if end
// is not zero. Every member, in a browser or native, builds it alike: the
// match's secret keys the packets and seeds the rounds.
func newSession(m *lobby.Match, conn transport.Conn, end core.Frame) (*rollstep.Session[fighter.State, fighter.Input], error) {
	me, other := core.PlayerHandle(m.Seat), core.PlayerHandle(1-m.Seat)
	cfg := rollstep.Config{Mode: rollstep.Rollback, TickRate: 60, Inputs: rollstep.Held,
		Local: []core.PlayerHandle{me},
		Peers: []rollstep.Peer{{Addr: transport.Addr(other), Players: []core.PlayerHandle{other}}},
		Game:  core.GameVersion(string(fighter.GameID[:])), Transport: transport.Config{Token: m.Token}}
	s, err := rollstep.NewSession(cfg, core.Game[fighter.State, fighter.Input](fighter.Game{}), fighter.New(m.Token), conn)
	if err != nil {
		return nil, err
	}
	if end > 0 {
		if err := s.EndAt(end); err != nil {
			_ = s.Close()
			return nil, err
		}
	}
	return s, nil
}
