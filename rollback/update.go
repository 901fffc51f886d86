package rollback

import (
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/endpoint"
)

// Update does one round of the game loop at now (a monotonic time the
// host reads from its clock; the session reads none):
//
//  1. it reads every datagram that arrived and hands inputs to the engine;
//  2. it runs the endpoint's timers (handshake, keep-alives, timeouts) and
//     turns what they report into events, declaring lost peers
//     disconnected;
//  3. once every peer is connected, it simulates the frames the fixed
//     timestep owes (at most Config.MaxStepsPerUpdate, the rest in later
//     calls), each with every local player's newest input; a correction
//     that arrived is applied first (rollback and re-simulation);
//  4. it sends what the engine produced to every peer and streams
//     confirmed inputs to spectators;
//  5. it refreshes State, Previous and Effects.
//
// It returns the Conn's errors that end the match (a transient one, such
// as an unreachable network, is counted and retried), an error matching
// ErrRefused once a
// handshake was refused (wrapping the first *endpoint.HandshakeError, which
// names the differing field), the *endpoint.HandshakeTimeoutError of a
// peer whose handshake timed out before the match started (unless
// Config.SoloStart), and ErrClosed after Close. Bad datagrams are counted, never returned.
// In steady state it allocates nothing.
func (s *Session[S, I]) Update(now time.Duration) error {
	if s.closed {
		return ErrClosed
	}
	if s.end.Ended() {
		return nil
	}
	s.now = max(s.now, now)
	s.play, s.cancel = s.play[:0], s.cancel[:0]
	if _, err := s.ep.Poll(now, &s.rx); err != nil {
		return err
	}
	if err := s.ep.Tick(now); err != nil {
		return err
	}
	s.watch.Route(s.ep.Events(), s.started) // the life cycle: peers' and spectators' events
	if s.watch.Refused != nil {
		return s.watch.Refused
	}
	if !s.started {
		if !s.ready() {
			// Spectators already connected hear that the host is alive.
			if !s.sent || now-s.sentAt >= s.period {
				s.sent, s.sentAt = true, now
				return s.stream.Send(now, s.eng, s.ep)
			}
			return nil
		}
		s.started = true
		s.pacer.Update(now)
		s.event(StartedEvent{At: now})
	}
	var last *core.Ready[I]
	changed := false
	n := s.pacer.Update(now)
	for range n {
		if !s.waiting && s.waitLeft > 0 {
			// Skip waitLeft frame periods: the blocked time is not owed,
			// so the schedule slips by exactly that much.
			s.waiting, s.waitEnd = true, now+time.Duration(s.waitLeft)*s.period
			s.waited += uint64(s.waitLeft)
			s.waitLeft = 0
		}
		if s.waiting {
			if now < s.waitEnd {
				s.pacer.Block()
				break
			}
			s.waiting = false
		}
		for _, p := range s.cfg.Local {
			// ErrInputDiscarded (D was lowered, or a stalled frame already
			// has its input) and ErrInputQueueFull (the engine then does
			// not step) need no action.
			_ = s.eng.AddLocalInput(p, s.input[p])
		}
		r := s.eng.Advance(now)
		last = r
		changed = changed || r.Stepped || r.RolledBack
		s.collect(r)
		if !r.Stepped {
			s.pacer.Block()
			break
		}
		s.pacer.Step()
		s.afterStep(now)
		s.followSpeed()
	}
	if last == nil {
		return nil
	}
	// A stalled engine is advanced on every Update, which may come much
	// faster than frames: send at most twice per frame period unless a
	// frame was simulated.
	if changed || !s.sent || now-s.sentAt >= s.period/2 {
		s.sent, s.sentAt = true, now
		if err := s.ep.Send(now, last.Messages); err != nil {
			return err
		}
		if err := s.stream.Send(now, s.eng, s.ep); err != nil {
			return err
		}
	}
	if changed {
		s.view, s.prev = s.prev, s.view
		*s.view = *s.eng.State()
	}
	return s.finish(now)
}

// ready reports whether the match can start: no player peer is still
// handshaking. A peer whose handshake timed out is declared disconnected.
func (s *Session[S, I]) ready() bool {
	for i := range s.npeers {
		if s.ep.State(core.PeerID(i)) == endpoint.StateHandshaking {
			return false
		}
	}
	return true
}

// collect keeps what one Advance reported.
func (s *Session[S, I]) collect(r *core.Ready[I]) {
	s.play = append(s.play, r.Effects...)
	s.cancel = append(s.cancel, r.Cancelled...)
	for _, ev := range r.Events {
		if d, ok := ev.(core.DisconnectEvent); ok && !s.local[d.Player] {
			// Agreed with the other peers: stop talking to the owner even
			// if this endpoint still hears it.
			i := s.owner[d.Player]
			_ = s.ep.Disconnect(i) // i is in the table
			s.ts.Forget(int(i))
		}
		s.event(ev)
	}
}

// afterStep runs the per-frame policies: timesync and the delay policy.
func (s *Session[S, I]) afterStep(now time.Duration) {
	if !s.cfg.Timesync.Disable {
		f := s.eng.Frame()
		for i := range s.npeers {
			if st, ok := s.ep.Peer(core.PeerID(i)); ok && st.State == endpoint.StateConnected && st.RTTSamples > 0 {
				s.ts.Sample(i, f, now, st.RTT/2)
			}
		}
		if ev, ok := s.ts.Tick(); ok {
			s.lastSync, s.hasSync = ev, true
			if ev.Wait > 0 {
				s.event(ev)
			}
			if ev.Applied {
				s.waitLeft = min(s.waitLeft+ev.Wait, s.cfg.Timesync.MaxWait)
			}
		}
	}
	if s.dc != nil && s.win.tick() {
		s.adjustDelay()
	}
}

// receiver routes decoded input messages: from player peers to the
// engine (and timesync), from spectators to the stream.
type receiver[S any, I comparable] struct{ s *Session[S, I] }

// Receive implements endpoint.Receiver.
func (r *receiver[S, I]) Receive(now time.Duration, from core.PeerID, m *core.Message[core.Slot[I]]) error {
	s := r.s
	if int(from) >= s.npeers {
		s.stream.Receive(int(from)-s.npeers, m)
		return nil
	}
	if err := s.eng.Receive(now, from, m); err != nil {
		return err
	}
	held := core.Frame(0)
	for _, p := range s.cfg.Peers[from].Players {
		held = max(held, m.Held[p])
	}
	s.ts.Observe(int(from), m.Frame, held, now)
	return nil
}
