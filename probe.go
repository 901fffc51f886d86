package rollstep

import (
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/probe"
	"github.com/rollstep/rollstep/internal/wire"
)

// probed is what the test hooks of internal/probe need of a Session.
type probed interface {
	peerKeys(p core.PeerID) (send, recv wire.Key, ok bool)
	setInputDelay(p core.PlayerHandle, d int) error
	engineState() any
	engineStats() engine.Stats
	streamAck(i int, acked core.Frame)
	transportStats() endpoint.Stats
	peerStats(p core.PeerID) endpoint.PeerStats
}

func init() {
	probe.PeerKeys = func(s any, p core.PeerID) (wire.Key, wire.Key, bool) { return s.(probed).peerKeys(p) }
	probe.SetInputDelay = func(s any, p core.PlayerHandle, d int) error { return s.(probed).setInputDelay(p, d) }
	probe.EngineState = func(s any) any { return s.(probed).engineState() }
	probe.EngineStats = func(s any) engine.Stats { return s.(probed).engineStats() }
	probe.Transport = func(s any) endpoint.Stats { return s.(probed).transportStats() }
	probe.Peer = func(s any, p core.PeerID) endpoint.PeerStats { return s.(probed).peerStats(p) }
	probe.StreamReceive = func(s any, i int, acked core.Frame) { s.(probed).streamAck(i, acked) }
}

func (s *Session[S, I]) peerKeys(p core.PeerID) (wire.Key, wire.Key, bool) { return s.ep.PeerKeys(p) }
func (s *Session[S, I]) setInputDelay(p core.PlayerHandle, d int) error {
	return s.eng.SetInputDelay(p, d)
}
func (s *Session[S, I]) engineState() any          { return s.eng.State() }
func (s *Session[S, I]) engineStats() engine.Stats { return s.eng.Stats() }
func (s *Session[S, I]) streamAck(i int, acked core.Frame) {
	s.stream.Receive(i, &engine.Message[engine.Slot[I]]{Held: [core.MaxPlayers]core.Frame{acked}})
}
func (s *Session[S, I]) transportStats() endpoint.Stats { return s.ep.Stats() }
func (s *Session[S, I]) peerStats(p core.PeerID) endpoint.PeerStats {
	st, _ := s.ep.Peer(p)
	return st
}
