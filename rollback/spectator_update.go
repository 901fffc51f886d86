package rollback

import (
	"fmt"
	"time"

	"github.com/rollstep/rollstep"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/transfer"
)

// Update does one round of the spectator's loop at now: it reads the
// host's stream, simulates the frames the fixed timestep owes, and more
// (up to MaxStepsPerUpdate in all) while more than Buffer frames wait,
// and acknowledges what it holds. After the stream ended (Ended) it does
// nothing and returns nil, as a Session's Update does after the end of
// its match; Conn errors are returned as they are.
func (sp *Spectator[S, I]) Update(now time.Duration) error {
	if sp.closed {
		return rollstep.ErrClosed
	}
	sp.play = sp.play[:0]
	if sp.ended {
		return nil
	}
	if _, err := sp.ep.Poll(now, &sp.rx); err != nil {
		return err
	}
	if err := sp.ep.Tick(now); err != nil {
		return err
	}
	for _, e := range sp.ep.Events() {
		switch e.Kind {
		case endpoint.EventConnected:
			sp.connected, sp.heardAt = true, now
			sp.pacer.Update(now)
			sp.event(core.ConnectedEvent{Peer: 0})
			sp.event(core.StartedEvent{At: now})
		case endpoint.EventRefused:
			if !sp.ended {
				sp.ended = true
				sp.event(core.RefusedEvent{Peer: 0, Err: e.Err})
			}
		case endpoint.EventDisconnected:
			sp.end(core.PeerLostEvent{Peer: 0, Err: e.Err})
		case endpoint.EventLeft:
			sp.end(core.PeerLostEvent{Peer: 0, Left: true, Reason: e.Reason})
		}
	}
	if !sp.connected || sp.ended {
		return nil
	}
	if sp.streaming && now-sp.heardAt >= sp.ep.Config().DisconnectTimeout {
		sp.end(core.PeerLostEvent{Peer: 0}) // keep-alives only: the stream itself stopped
		return nil
	}
	n := sp.pacer.Update(now)
	if extra := sp.buffered() - sp.cfg.Buffer; extra > n {
		n = min(extra, sp.cfg.MaxStepsPerUpdate)
	}
	changed := false
	for range n {
		r := sp.eng.Advance(now)
		for _, ev := range r.Events { // the match's pauses, speeds and agreed disconnects
			sp.event(ev)
		}
		if !r.Stepped {
			sp.pacer.Block()
			break
		}
		changed = true
		sp.play = append(sp.play, r.Effects...)
		sp.pacer.Step() // false when catching up beyond the schedule
	}
	if changed {
		sp.view, sp.prev = sp.prev, sp.view
		*sp.view = *sp.eng.State()
		// The match's game speed paces the stream too.
		base := time.Second / time.Duration(sp.cfg.TickRate)
		_ = sp.pacer.SetPeriod(max(base*100/time.Duration(sp.eng.Control().Speed), time.Microsecond))
	}
	if sp.replied && now-sp.repliedAt < sp.period {
		return nil // one acknowledgement per frame period is plenty
	}
	sp.replied, sp.repliedAt = true, now
	sp.reply.Frame = sp.eng.Frame()
	sp.reply.Held[0] = sp.held()
	sp.reply.Stamp = now
	sp.out[0] = engine.Outgoing[engine.Slot[I]]{To: 0, Message: &sp.reply}
	return sp.ep.Send(now, sp.out[:])
}

// specReceiver feeds the host's stream messages to the spectator.
type specReceiver[S any, I comparable] struct{ sp *Spectator[S, I] }

// Receive implements endpoint.Receiver.
func (r *specReceiver[S, I]) Receive(now time.Duration, _ core.PeerID, m *engine.Message[engine.Slot[I]]) error {
	sp := r.sp
	players := sp.cfg.Players
	all := uint16(1)<<players - 1
	if m.Gone == all {
		sp.end(core.PeerLostEvent{Peer: 0, Left: true, Reason: core.LeaveDropped})
		return nil
	}
	sp.heardAt, sp.streaming = now, true
	limit := sp.eng.Frame() + sp.horizon
	for i := range m.Inputs {
		run := &m.Inputs[i]
		p := run.Player
		if p < 0 || int(p) >= players || sp.gone&(1<<p) != 0 {
			continue
		}
		// Only the part that extends what the engine holds, inside its
		// horizon and before a disconnect.
		skip := sp.next[p] - run.Start
		if skip < 0 || int(skip) >= len(run.Values) {
			continue
		}
		end := min(run.Start+core.Frame(len(run.Values)), limit)
		if m.Gone&(1<<p) != 0 {
			end = min(end, m.Held[p])
		}
		if end <= sp.next[p] {
			continue
		}
		vals := run.Values[skip : skip+(end-sp.next[p])]
		sp.msg.Frame = sp.eng.Frame()
		sp.msg.Gone, sp.msg.Held = 0, [core.MaxPlayers]core.Frame{}
		sp.msg.Inputs = append(sp.msg.Inputs[:0], engine.InputRun[engine.Slot[I]]{Player: p, Start: sp.next[p], Values: vals})
		if err := sp.eng.Receive(now, core.PeerID(p), &sp.msg); err != nil {
			return err
		}
		sp.next[p] = end
	}
	sp.msg.Inputs = sp.msg.Inputs[:0]
	for p := range players {
		if m.Gone&(1<<p) != 0 && sp.gone&(1<<p) == 0 && sp.next[p] >= m.Held[p] {
			sp.feedGone(now, core.PlayerHandle(p), m.Held[p])
		}
	}
	return nil
}

// feedGone makes the engine agree that player p is disconnected from
// frame g: the engine declares p's virtual peer gone and every other
// remaining virtual peer votes g.
func (sp *Spectator[S, I]) feedGone(now time.Duration, p core.PlayerHandle, g core.Frame) {
	sp.gone |= 1 << p
	sp.goneAt[p] = g
	_ = sp.eng.DisconnectPeer(core.PeerID(p))
	for q := range sp.cfg.Players {
		if sp.gone&(1<<q) != 0 {
			continue
		}
		sp.msg.Frame, sp.msg.Gone = sp.eng.Frame(), sp.gone
		sp.msg.Held = [core.MaxPlayers]core.Frame{}
		for o := range sp.cfg.Players {
			if sp.gone&(1<<o) != 0 {
				sp.msg.Held[o] = sp.goneAt[o]
			}
		}
		_ = sp.eng.Receive(now, core.PeerID(q), &sp.msg)
	}
}

// ReceiveTransfer implements endpoint.TransferReceiver: the join record of
// a running match, which the host sends before the stream to a spectator
// that joins late. It is taken only before any of the stream.
func (r *specReceiver[S, I]) ReceiveTransfer(now time.Duration, _ core.PeerID, p []byte) {
	sp := r.sp
	if sp.ended {
		return
	}
	if sp.loaded {
		// The host may not have had the last ack: repeat it.
		if o, err := transfer.DecodeOffer(p); err == nil && o.ID == sp.offer.ID {
			_ = sp.ep.SendTransfer(now, 0, sp.ack)
		} else if c, err := transfer.DecodeChunk(p); err == nil && c.ID == sp.offer.ID {
			_ = sp.ep.SendTransfer(now, 0, sp.ack)
		}
		return
	}
	if sp.held() != 0 {
		return // the stream started from frame 0
	}
	limit := sp.eng.JoinRecordSize()
	switch p[0] {
	case transfer.KindOffer:
		o, err := transfer.DecodeOffer(p)
		if err != nil || o.RawSize > limit {
			return
		}
		if sp.join == nil || o.ID != sp.offer.ID {
			rcv, err := transfer.NewReceiver(o, limit)
			if err != nil {
				return
			}
			sp.join, sp.offer = rcv, o
		}
	case transfer.KindChunk:
		c, err := transfer.DecodeChunk(p)
		if err != nil || sp.join == nil {
			return
		}
		if _, err := sp.join.OnChunk(c); err != nil {
			return
		}
	default:
		return
	}
	sp.heardAt, sp.streaming = now, true
	sp.ack = transfer.AppendAck(sp.ack[:0], sp.join.Ack())
	_ = sp.ep.SendTransfer(now, 0, sp.ack) // the host is connected
	if sp.join.Complete() {
		if err := sp.load(); err != nil {
			sp.end(core.PeerLostEvent{Peer: 0, Err: err})
		}
	}
}

// load starts the replay from the complete join record.
func (sp *Spectator[S, I]) load() error {
	rec, err := transfer.Decompress(sp.join.Blob(), sp.offer.RawSize, sp.eng.JoinRecordSize())
	sp.join, sp.loaded = nil, true
	if err != nil {
		return fmt.Errorf("rollback: the host's join record: %w", err)
	}
	eng, err := engine.Join[S, I](sp.ecfg, sp.game, rec)
	if err != nil {
		return fmt.Errorf("rollback: the host's join record: %w", err)
	}
	sp.eng = eng
	f := eng.Frame()
	for p := range sp.cfg.Players {
		sp.next[p] = f
		if g, ok := eng.Disconnected(core.PlayerHandle(p)); ok {
			sp.gone |= 1 << p
			sp.goneAt[p] = g
		}
	}
	*sp.view = *eng.State()
	*sp.prev = *sp.view
	return nil
}
