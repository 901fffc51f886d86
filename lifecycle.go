package rollstep

import (
	"errors"
	"fmt"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/transfer"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
)

// newEndpoint returns the endpoint of a session of c (defaults filled in)
// over conn: the match's digest (of slots of I), this session's seat and
// its peers' (so a host learns several peers' addresses from their
// Hellos; spectators, after the players' peers, have none). It returns
// the digest's error, which names its field, or the endpoint's.
func newEndpoint[I comparable](c *Config, conn transport.Conn) (*endpoint.Endpoint[engine.Slot[I]], error) {
	rate := max(1, min(65535, int(time.Second/c.TurnPeriod)))
	dg, err := wire.DigestOf[engine.Slot[I]](c.Players, rate, c.ChecksumInterval, c.Game)
	if err != nil {
		return nil, err
	}
	dg.ExtraSteps = uint8(c.TicksPerTurn - 1) // 1..64
	tc := endpoint.ConfigOf(c.Transport)
	tc.Digest = dg
	tc.Rejoin = c.Rejoin
	// Spectators and open seats may come at any time, and again.
	tc.Open = (uint64(1)<<len(c.Spectators) - 1) << len(c.Peers)
	for i, p := range c.Peers {
		if p.Open {
			tc.Open |= 1 << i
		}
	}
	addrs := make([]transport.Addr, 0, len(c.Peers)+len(c.Spectators))
	tc.Seat, tc.Seats = wire.SeatOf(c.Local...), make([]wire.Seat, len(c.Peers)+len(c.Spectators))
	for i, p := range c.Peers {
		addrs = append(addrs, p.Addr)
		tc.Seats[i] = wire.SeatOf(p.Players...)
	}
	addrs = append(addrs, c.Spectators...)
	return endpoint.New[engine.Slot[I]](tc, conn, addrs)
}

// route turns the endpoint's events since the last call into the match's
// life cycle: a spectator's go to the stream; a player peer's become
// core's ConnectedEvent, RefusedEvent, InterruptedEvent, ResumedEvent,
// SplitEvent and PeerLostEvent, the engine's disconnects, a peer's agreed
// end adopted, and the error that keeps the match from starting (refused,
// or a handshake timeout without SoloStart).
func (s *Session[S, I]) route(evs []endpoint.Event) {
	n := core.PeerID(len(s.cfg.Peers))
	for _, e := range evs {
		if e.Peer >= n {
			s.stream.PeerEvent(int(e.Peer-n), e)
			continue
		}
		if s.watch != nil && s.watchEvent(e) {
			continue
		}
		switch e.Kind {
		case endpoint.EventConnected:
			s.event(core.ConnectedEvent{Peer: e.Peer})
			s.rejoin.me.lost &^= 1 << e.Peer
			s.reconnected(e.At, e.Peer)
		case endpoint.EventRefused:
			if s.refused == nil {
				s.refused = fmt.Errorf("%w: %w", ErrRefused, e.Err)
			}
			s.event(core.RefusedEvent{Peer: e.Peer, Err: e.Err})
		case endpoint.EventInterrupted:
			s.event(core.InterruptedEvent{Peer: e.Peer})
		case endpoint.EventResumed:
			s.event(core.ResumedEvent{Peer: e.Peer})
		case endpoint.EventRestarted:
			if me := &s.rejoin.me; me.active && me.from == e.Peer && me.snap.Started() {
				// The sponsor's process restarted: the new one counts its
				// transfers from the first, and offers anew once back.
				me.snap, me.hand = transfer.Pull{}, transfer.Pull{}
			}
			s.restarted(e.At, e.Peer)
		case endpoint.EventDropped:
			s.droppedBy(e.At, e.Peer)
		case endpoint.EventSplit:
			s.maybeYield(e.At, e.Peer, s.split(e.At, e.Peer))
		case endpoint.EventDisconnected, endpoint.EventLeft:
			if s.cfg.Peers[e.Peer].Open && errors.Is(e.Err, endpoint.ErrHandshakeTimeout) {
				continue // an open seat nobody took yet: nothing changes
			}
			if e.Kind == endpoint.EventLeft && e.Reason == wire.LeaveEnded {
				s.end.adopt(s.eng, e.Frame)
			}
			me := &s.rejoin.me
			if !s.started && !s.cfg.SoloStart && !me.active && errors.Is(e.Err, endpoint.ErrHandshakeTimeout) && s.refused == nil {
				s.refused = e.Err // the match never starts without this peer
			}
			s.drop(e.At, core.PeerLostEvent{Peer: e.Peer, Left: e.Kind == endpoint.EventLeft, Reason: e.Reason, Err: e.Err},
				e.Kind == endpoint.EventDisconnected && !errors.Is(e.Err, endpoint.ErrHandshakeTimeout))
			if me.active {
				me.lost, me.lostErr = me.lost|1<<e.Peer, e.Err
				if e.Kind == endpoint.EventLeft && e.Reason == wire.LeaveEnded {
					me.ended, me.endedAt = true, e.Frame // no rejoin can complete now (comebackTick)
				}
			}
			if me.active && e.Kind == endpoint.EventDisconnected && !errors.Is(e.Err, endpoint.ErrHandshakeTimeout) {
				// Coming back, this session has no side: it starts its
				// handshake with the peer over at once, so that the peer
				// hears a restart once the link heals, not a split from
				// a lower player that it would yield to.
				_ = s.ep.Restart(e.At, e.Peer) // e.Peer is in the table
			}
		}
	}
}

// lose does what every loss of player peer ev.Peer does (its silence, a
// Leave, the others' agreement, its word that it dropped this session),
// before the engine counts it gone: it remembers the returns settled so far
// (resumeReturned), forgets its clock, raises ev and ends a rejoin of it
// this session sponsors. A peer lost alive (not gone for good: not by a
// Leave or a handshake timeout) holds the end a while (holdEnd).
func (s *Session[S, I]) lose(now time.Duration, ev core.PeerLostEvent, alive bool) {
	id := ev.Peer
	if alive {
		s.holdUntil[id] = now + s.endWait
	}
	s.lossReturns[id] = s.eng.Returns(id)
	s.ts.Forget(int(id))
	s.event(ev)
	s.abandonRejoin(now, id, ev.Left)
}

// drop is lose for a peer this session declares gone itself (its engine
// counts it gone, which the other peers adopt when this session outranks
// it), rather than one the others agreed was gone (dropAgreed).
func (s *Session[S, I]) drop(now time.Duration, ev core.PeerLostEvent, alive bool) {
	s.lose(now, ev, alive)
	_ = s.eng.DisconnectPeer(ev.Peer) // a player peer
}

// split reports that peer id, lost, was heard again (core.SplitEvent
// with the frame its players are agreed gone from, or -1), holds the end
// a while for it (it may yield and come back: holdEnd), and returns that
// frame.
func (s *Session[S, I]) split(now time.Duration, id core.PeerID) core.Frame {
	at := core.Frame(-1)
	if f, ok := s.eng.Disconnected(s.cfg.Peers[id].Players[0]); ok {
		at = f
	}
	s.event(core.SplitEvent{Peer: id, Frame: at})
	s.holdUntil[id] = now + s.endWait
	return at
}

// endEngine is what matchEnd needs of the engine.
type endEngine interface {
	Frame() core.Frame
	ConfirmedFrame() (core.Frame, bool)
	Delivered() core.Frame
	SetEnd(f core.Frame) error
}

// matchEnd is the agreed end of a match: the first frame not played, at,
// once set (pending), whether it was reached (done), and whether the
// session left (left), which it does once its spectators hold the stream
// to the end, or at leaveBy.
type matchEnd struct {
	at                  core.Frame
	pending, done, left bool
	leaveBy             time.Duration
}

// set ends the match at frame f; it fails if the engine simulated f.
func (x *matchEnd) set(e endEngine, f core.Frame) error {
	if err := e.SetEnd(f); err != nil {
		return err
	}
	x.at, x.pending = f, true
	return nil
}

// adopt takes a peer's end f, unless an end is set already.
func (x *matchEnd) adopt(e endEngine, f core.Frame) {
	if !x.pending {
		_ = x.set(e, f)
	}
}

// reached reports, once, that the end is reached everywhere (ready).
func (x *matchEnd) reached(e endEngine) bool {
	if !x.ready(e) {
		return false
	}
	x.done = true
	return true
}

// ready reports whether the end is set, not yet reported, and reached
// everywhere: every frame before it is simulated and confirmed, and every
// peer holds this session's inputs for them.
func (x *matchEnd) ready(e endEngine) bool {
	if !x.pending || x.done {
		return false
	}
	if c, ok := e.ConfirmedFrame(); x.at > 0 && (!ok || c < x.at-1) {
		return false
	}
	return e.Frame() >= x.at && e.Delivered() >= x.at
}

// holdEnd reports whether an end reached everywhere waits before it is
// reported: while a player peer this session does not hear, and that did
// not leave, was lost to silence or reported split less than endWait
// ago. A lost peer's link may heal in a moment: if it lost this session
// too, both sides played the last frames apart, and both hear each other
// again (lost peers are probed) and report the split (core.SplitEvent)
// before the end, which can no longer heal it. A peer of a split that
// yields comes back with a new handshake: once it is connected, the end's
// Leave tells it the match ended, and it ends on its own side (unyield).
// A peer that crashed costs the end that wait; one that left costs
// nothing.
func (s *Session[S, I]) holdEnd(now time.Duration) bool {
	for j, until := range s.holdUntil {
		id := core.PeerID(j)
		if now < until && !s.hears(id) && s.ep.State(id) != endpoint.StateLeft {
			return true
		}
	}
	return false
}

// leaveAtEnd leaves the match that reached its end once every spectator
// holds the stream to the end (the delay lifted), or once the wait is
// over, streaming until then.
func (s *Session[S, I]) leaveAtEnd(now time.Duration) error {
	if !s.stream.End(s.end.at) && now < s.end.leaveBy {
		if s.sent && now-s.lastSend < s.cfg.ResendInterval {
			return nil
		}
		s.sent, s.lastSend = true, now
		return s.stream.Send(now, s.eng, s.ep)
	}
	s.end.left = true
	return s.ep.Leave(now, wire.LeaveEnded, s.end.at)
}

// drainEnd is an Update after the end of the match while spectators
// catch up: it hears them and streams to them, and leaves (leaveAtEnd).
func (s *Session[S, I]) drainEnd(now time.Duration) error {
	s.now = max(s.now, now)
	_, err := s.ep.Poll(now, &s.rx)
	if terr := s.ep.Tick(now); err == nil {
		err = terr
	}
	n := core.PeerID(len(s.cfg.Peers))
	for _, e := range s.ep.Events() {
		if e.Peer >= n {
			s.stream.PeerEvent(int(e.Peer-n), e)
		}
	}
	if perr := s.stream.Pump(now, s.ep); err == nil {
		err = perr
	}
	if lerr := s.leaveAtEnd(now); err == nil {
		err = lerr
	}
	return err
}
