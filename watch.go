package rollstep

import (
	"errors"
	"fmt"
	"math/bits"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/transfer"
)

// A spectator (Config.Spectate) is a session whose one peer, the host,
// streams it the match's confirmed inputs (internal/stream), and whose
// engine replays them: every player is a virtual engine peer of its own,
// fed from the stream, so a frame runs once every player's input for it
// arrived and never on a prediction.

// watchHorizon is how far past its current frame a spectator feeds the
// engine, well inside the rings MaxInputDelay and stream.Run size.
const watchHorizon = 128

// watch is a spectator's side of the stream.
type watch[I comparable] struct {
	next      [core.MaxPlayers]core.Frame // frames of each player's inputs fed to the engine
	goneAt    [core.MaxPlayers]core.Frame
	gone      uint16                         // players whose disconnect was fed to the engine
	msg       engine.Message[engine.Slot[I]] // a message fed to the engine
	reply     engine.Message[engine.Slot[I]] // the acknowledgement sent to the host
	out       [1]engine.Outgoing[engine.Slot[I]]
	join      transfer.Pull // the join record of a running match, once offered
	streaming bool          // a stream message or a join record's part arrived
	heardAt   time.Duration // when the newest of them arrived
	repliedAt time.Duration // when the newest acknowledgement was sent
	replied   bool
	silence   time.Duration // the host's stream silent this long is lost
	ending    bool          // the host left at the end of the match, endAt
	endAt     core.Frame
	// lost is set while the host is lost to silence and this spectator
	// waits for it, since lostAt, for at most Config.RejoinTimeout
	// (waitHost); lostErr says how it was lost.
	lost    bool
	lostAt  time.Duration
	lostErr error
}

// held returns the first frame for which some player's input is unknown.
func (w *watch[I]) held(players int) core.Frame {
	h := core.Frame(1<<31 - 1)
	for p := range players {
		if w.gone&(1<<p) == 0 {
			h = min(h, w.next[p])
		}
	}
	return h
}

// buffered returns how many received frames are not simulated yet.
func (s *Session[S, I]) buffered() int { return int(s.watch.held(s.cfg.Players) - s.eng.Frame()) }

// hostGone ends a spectator's stream once, reporting how the host was lost.
func (s *Session[S, I]) hostGone(ev core.PeerLostEvent) {
	if !s.end.done {
		s.end.done, s.end.left = true, true
		s.event(ev)
	}
}

// replay runs a spectator's frames: those the fixed timestep owes, and
// more (up to MaxStepsPerUpdate in all) while more than SpectatorBuffer
// frames wait; then it acknowledges what it holds, once a frame period.
func (s *Session[S, I]) replay(now time.Duration) error {
	w := s.watch
	switch {
	case w.lost && now-w.lostAt >= s.cfg.RejoinTimeout:
		s.hostGone(core.PeerLostEvent{Peer: 0, Err: w.lostErr})
		return nil
	case !w.lost && !w.ending && w.streaming && now-w.heardAt >= w.silence:
		// The stream stopped (keep-alives only, or nothing): wait for the
		// host as for a host lost.
		s.waitHost(endpoint.Event{Kind: endpoint.EventDisconnected, At: now})
		if s.end.done {
			return nil
		}
	}
	n := s.pacer.Update(now)
	if extra := s.buffered() - s.cfg.SpectatorBuffer; extra > n {
		n = min(extra, s.cfg.MaxStepsPerUpdate)
	}
	for range n {
		r := s.eng.Advance(now)
		s.collect(r) // the match's pauses, speeds and agreed disconnects
		if !r.Stepped {
			s.pacer.Block()
			break
		}
		s.view, s.prev = s.prev, s.view
		*s.view = *s.eng.State()
		s.pacer.Step() // false when catching up beyond the schedule
	}
	s.observeSystem() // the match's game speed paces the stream too
	if w.ending && s.eng.Frame() >= min(w.endAt, w.held(s.cfg.Players)) {
		s.hostGone(core.PeerLostEvent{Peer: 0, Left: true, Reason: core.LeaveEnded}) // every frame held is played
		return nil
	}
	if w.replied && now-w.repliedAt < s.cfg.TurnPeriod {
		return nil // one acknowledgement per frame period is plenty
	}
	w.replied, w.repliedAt = true, now
	w.reply.Frame = s.eng.Frame()
	w.reply.Held[0] = w.held(s.cfg.Players)
	w.reply.Stamp = now
	w.out[0] = engine.Outgoing[engine.Slot[I]]{To: 0, Message: &w.reply}
	return s.ep.Send(now, w.out[:])
}

// watchReceive feeds a stream message of the host to the engine: of each
// player's run, the part that extends what the engine holds, inside its
// horizon and before the player's disconnect.
func (s *Session[S, I]) watchReceive(now time.Duration, m *engine.Message[engine.Slot[I]]) error {
	w, players := s.watch, s.cfg.Players
	if m.Gone == uint16(1)<<players-1 {
		s.hostGone(core.PeerLostEvent{Peer: 0, Left: true, Reason: core.LeaveDropped})
		return nil
	}
	w.heardAt, w.streaming = now, true
	s.watchReturns(now)
	limit := s.eng.Frame() + watchHorizon
	for i := range m.Inputs {
		run := &m.Inputs[i]
		p := run.Player
		if p < 0 || int(p) >= players || w.gone&(1<<p) != 0 {
			continue
		}
		skip := w.next[p] - run.Start
		if skip < 0 || int(skip) >= len(run.Values) {
			continue
		}
		end := min(run.Start+core.Frame(len(run.Values)), limit)
		if m.Gone&(1<<p) != 0 {
			end = min(end, m.Held[p])
		}
		if end <= w.next[p] {
			continue
		}
		w.msg.Frame, w.msg.Gone, w.msg.Held = s.eng.Frame(), 0, [core.MaxPlayers]core.Frame{}
		w.msg.Inputs = append(w.msg.Inputs[:0], engine.InputRun[engine.Slot[I]]{Player: p, Start: w.next[p], Values: run.Values[skip : skip+(end-w.next[p])]})
		if err := s.eng.Receive(now, core.PeerID(p), &w.msg); err != nil {
			return err
		}
		w.next[p] = end
	}
	w.msg.Inputs = w.msg.Inputs[:0]
	s.watchReturns(now) // settled by a command just fed: they vote below
	for p := range players {
		if m.Gone&(1<<p) != 0 && w.gone&(1<<p) == 0 && w.next[p] >= m.Held[p] && !s.returnedSince(core.PlayerHandle(p), m.Held[p]) {
			s.feedGone(now, core.PlayerHandle(p), m.Held[p])
		}
	}
	return nil
}

// watchReturns takes back the players whose return the engine settled
// (the command rode the sponsor's slot, which the stream carries like any
// input): their inputs count again from the return frame, so they are fed
// from there (the slots before it are the disconnected ones the engine
// filled in), and each votes on the disconnects under way, which the
// engine now waits for its vote on too.
func (s *Session[S, I]) watchReturns(now time.Duration) {
	w := s.watch
	for g := w.gone; g != 0; g &= g - 1 {
		p := core.PlayerHandle(bits.TrailingZeros16(g))
		// Every player is a virtual peer of its own: its ID is its handle.
		// An unsettled return waits for the disconnect's agreement; a
		// disconnect agreed again is a new one.
		r, settled, ok := s.eng.Returning(core.PeerID(p))
		if _, gone := s.eng.Disconnected(p); gone || !ok || !settled {
			continue
		}
		w.gone &^= 1 << p
		w.next[p] = max(w.next[p], r)
		if w.gone != 0 {
			s.voteGone(now, core.PeerID(p))
		}
	}
}

// returnedSince reports whether player p came back after a disconnect at
// frame g: a stream message the host sent before it settled the return
// (reordered, or repeated) still says p is gone from g.
func (s *Session[S, I]) returnedSince(p core.PlayerHandle, g core.Frame) bool {
	r, ok := s.eng.ReturnOf(p)
	return ok && g < r
}

// feedGone makes the engine agree that player p is disconnected from
// frame g: the engine declares p's virtual peer gone and every other
// remaining virtual peer votes g.
func (s *Session[S, I]) feedGone(now time.Duration, p core.PlayerHandle, g core.Frame) {
	w := s.watch
	w.gone |= 1 << p
	w.goneAt[p] = g
	_ = s.eng.DisconnectPeer(core.PeerID(p))
	for q := range s.cfg.Players {
		if w.gone&(1<<q) == 0 {
			s.voteGone(now, core.PeerID(q))
		}
	}
}

// voteGone makes player q's virtual peer vote that every player the
// stream said is gone is, from the frame it said: a player that remains
// votes on each disconnect, and one that came back on those under way.
func (s *Session[S, I]) voteGone(now time.Duration, q core.PeerID) {
	w := s.watch
	w.msg.Frame, w.msg.Gone, w.msg.Held, w.msg.Inputs = s.eng.Frame(), w.gone, [core.MaxPlayers]core.Frame{}, w.msg.Inputs[:0]
	for o := range s.cfg.Players {
		if w.gone&(1<<o) != 0 {
			w.msg.Held[o] = w.goneAt[o]
		}
	}
	_ = s.eng.Receive(now, q, &w.msg)
}

// watchTransfer takes a part of a join record, which the host sends before
// the stream to a spectator that joins late, and again when its side
// yielded a split (a newer record: the replay starts over from it);
// acknowledged even once loaded (the host may not have had the last ack).
func (s *Session[S, I]) watchTransfer(now time.Duration, p []byte) {
	w := s.watch
	if s.end.done {
		return
	}
	if o, err := transfer.DecodeOffer(p); err == nil && w.join.Started() && o.ID > w.join.Offer().ID {
		w.join = transfer.Pull{}
	}
	loaded := w.join.Complete()
	ack := w.join.On(p, s.eng.JoinRecordSize(), nil) // any record up to the engine's size
	if ack == nil {
		return
	}
	w.heardAt, w.streaming = now, true
	_ = s.ep.SendTransfer(now, 0, ack) // the host is connected
	if !loaded && w.join.Complete() {
		again := w.held(s.cfg.Players) != 0 // it replayed a stream the host threw away
		if err := s.load(); err != nil {
			s.hostGone(core.PeerLostEvent{Peer: 0, Err: fmt.Errorf("rollstep: the host's join record: %w", err)})
		} else if again {
			s.event(core.RejoinEvent{Peer: -1, Handoff: s.eng.Frame(), Bytes: w.join.Bytes, Chunks: w.join.Chunks,
				Retransmits: w.join.Duplicates})
		}
	}
}

// load starts the replay from the complete join record.
func (s *Session[S, I]) load() error {
	rec, err := s.watch.join.Raw(s.eng.JoinRecordSize())
	if err != nil {
		return err
	}
	eng, err := engine.Join[S, I](s.ecfg, s.game, rec)
	if err != nil {
		return err
	}
	s.eng = eng
	w, f := s.watch, eng.Frame()
	w.gone = 0
	for p := range s.cfg.Players {
		w.next[p] = f
		if g, ok := eng.Disconnected(core.PlayerHandle(p)); ok {
			w.gone |= 1 << p
			w.goneAt[p] = g
		}
	}
	*s.view = *eng.State()
	*s.prev = *s.view
	return nil
}

// waitHost handles the loss of a spectator's host (EventDisconnected):
// one that was never connected, or that stays silent longer than
// Config.RejoinTimeout, ends the stream; otherwise the spectator starts
// its handshake over and waits, since the host's process may restart or
// the link heal, and the host takes it back as a spectator that came
// again.
func (s *Session[S, I]) waitHost(e endpoint.Event) {
	w := s.watch
	first := !w.lost
	if first {
		w.lostAt, w.lostErr = e.At, e.Err
	}
	if (first && (!w.streaming || errors.Is(e.Err, endpoint.ErrHandshakeTimeout))) || e.At-w.lostAt >= s.cfg.RejoinTimeout {
		s.hostGone(core.PeerLostEvent{Peer: 0, Err: w.lostErr})
		return
	}
	w.lost = true
	_ = s.ep.Restart(e.At, 0) // the host is peer 0
}

// watchEvent handles a life-cycle event of a spectator's host, and
// reports whether it did (the others are a session's).
func (s *Session[S, I]) watchEvent(e endpoint.Event) bool {
	switch e.Kind {
	case endpoint.EventDisconnected, endpoint.EventDropped:
		// Dropped: the host dropped this spectator (lost it to silence, or
		// dropped it from the stream and its end messages were lost)
		// while this one still hears it, and streams to it no more.
		s.waitHost(e)
	case endpoint.EventConnected:
		if !s.watch.lost {
			return false
		}
		// Back: a new process of the host, or the same one past an
		// outage, which counts this spectator as a new one. Its join
		// records count from its own first: the next starts the replay
		// over.
		s.watch.lost, s.watch.join, s.watch.heardAt = false, transfer.Pull{}, e.At
		return false
	case endpoint.EventLeft:
		if e.Reason != core.LeaveEnded {
			s.hostGone(core.PeerLostEvent{Peer: 0, Left: true, Reason: e.Reason})
		} else if !s.end.done {
			s.watch.ending, s.watch.endAt = true, e.Frame // replay plays out what it holds
		}
	case endpoint.EventRestarted:
		// The host's new process counts its join records from the
		// first again: the next it offers starts the replay over.
		s.watch.join = transfer.Pull{}
	case endpoint.EventSplit:
	default:
		return false
	}
	return true
}
