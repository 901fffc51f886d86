package lockstep

import (
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/core/delay"
	"github.com/rollstep/rollstep/transport/endpoint"
)

// Update does one round of the session's work at now (a monotonic time
// chosen by the host; the session reads no clock): it receives every
// datagram that arrived, runs the connection's timers, drops peers
// that were silent for the disconnect timeout, and runs every turn that is
// due (at most Config.MaxStepsPerUpdate) and whose inputs are all held,
// sending this peer's inputs after each. A due turn whose inputs are
// missing stalls: the session repeats its messages every ResendInterval and
// counts the wait. It returns the first error of the Conn that ends the
// match (a transient one, such as an unreachable network, is counted and
// retried), ErrClosed, or,
// from the moment a peer's handshake is refused (a different match
// configuration, named by the wrapped *endpoint.HandshakeError), an error
// matching ErrRefused: the match cannot be played as configured; and the
// *endpoint.HandshakeTimeoutError of a peer whose handshake timed out
// before the match started (unless Config.SoloStart).
func (s *Session[S, I]) Update(now time.Duration) error {
	if s.closed {
		return ErrClosed
	}
	s.effects = s.effects[:0]
	s.cancelled = s.cancelled[:0]
	if s.end.Ended() {
		return nil
	}
	s.now = now
	// Read first, then run the timers: a datagram that arrived before now
	// is heard before a timeout can fire.
	_, err := s.ep.Poll(now, &s.rx)
	if terr := s.ep.Tick(now); err == nil {
		err = terr
	}
	s.watch.Route(s.ep.Events(), s.started)
	if s.watch.Refused != nil {
		return s.watch.Refused
	}
	if !s.started {
		if !s.playersReady() {
			if serr := s.keepStream(now); err == nil {
				err = serr // spectators already connected hear that the host is alive
			}
			return err
		}
		s.started = true
		s.event(core.StartedEvent{At: now})
		s.pacer.Update(now) // starts the turn clock
		s.lastSend, s.winStart = now, now
		return err
	}
	before := s.pacer.Stalled()
	s.pacer.Update(now)
	s.chargeStall(s.pacer.Stalled() - before)
	if s.timesyncWait(now) {
		if ferr := s.finish(now); err == nil {
			err = ferr
		}
		return err
	}
	// Every turn takes one granted step; a block or a speed change
	// withdraws the rest.
	for s.pacer.Granted() > 0 {
		ok, serr := s.turn(now)
		if err == nil {
			err = serr
		}
		if !ok {
			break
		}
	}
	if ferr := s.finish(now); err == nil {
		err = ferr
	}
	return err
}

// turn tries to run the current turn. It returns whether it ran.
func (s *Session[S, I]) turn(now time.Duration) (bool, error) {
	f := s.eng.Frame()
	// A turn's inputs are made when it runs, not when it is due: a turn
	// that cannot run schedules nothing, so the lockstep pace is
	// max(T, L/D). Such a turn only repeats the messages, every
	// ResendInterval; the engine builds them in Advance, which then stalls
	// (should it step after all, the turn D ahead misses this input and
	// the engine fills it, as when D rises).
	waiting := s.eng.WaitingFor()
	ready := waiting == 0
	if !ready {
		s.pacer.Block()
		s.waiting = waiting
		s.turnWaiting |= waiting
		if now-s.lastSend < s.cfg.ResendInterval {
			return false, nil
		}
	}
	if ready && (!s.addedOK || s.added != f) {
		if s.lower() {
			s.event(DelayEvent{Frame: f, Delay: s.delayNow(), Prediction: s.eng.Prediction(), RTT: s.rtt})
		}
		s.addedOK = s.addLocal()
		s.added = f
	}
	if s.copied != f+1 {
		s.prev = *s.eng.State()
		s.copied = f + 1
	}
	var t0 time.Duration
	if s.cfg.StepClock != nil {
		t0 = s.cfg.StepClock()
	}
	r := s.eng.Advance(now)
	var cpu time.Duration
	if s.cfg.StepClock != nil {
		cpu = s.cfg.StepClock() - t0
	}
	s.collect(r)
	if r.Stepped || r.RolledBack {
		s.view = *s.eng.State()
	}
	if !r.Stepped {
		if ready { // the engine refused the local input (no acks): retry
			s.pacer.Block()
			if now-s.lastSend < s.cfg.ResendInterval {
				return false, nil
			}
		}
		return false, s.send(now, r)
	}
	if !ready { // the pacer was blocked above: grant the turn again
		s.pacer.Update(now)
	}
	stall, _ := s.pacer.Step()
	if d := min(stall, s.excused); d > 0 { // a timesync wait, not a stall
		stall, s.excused = stall-d, s.excused-d
	}
	if stall > 0 {
		s.stats.StalledTurns++
		s.stats.LastTurnStall = stall
		s.stats.MaxTurnStall = max(s.stats.MaxTurnStall, stall)
		s.winStall += stall
		// A pointer into a slab reused every Update: boxing the value
		// would allocate once per stalled turn.
		if len(s.events) < maxQueuedEvents {
			s.stalls = append(s.stalls, StallEvent{Frame: f, Stall: stall, Waiting: s.turnWaiting})
			s.event(&s.stalls[len(s.stalls)-1])
		} else {
			s.droppedEvents++
		}
	} else {
		s.stats.LastTurnStall = 0
	}
	s.waiting, s.turnWaiting = 0, 0
	s.winStep = max(s.winStep, cpu)
	if r.RolledBack && r.Resimulated >= s.ctl.DeepDepth() {
		s.winDeep++
	}
	s.observeSystem()
	s.timesyncTurn(now)
	err := s.send(now, r)
	s.winTurns++
	// A window closes after DelayWindow turns, or after as long as they
	// take at full pace, so that stalls (fewer turns) are acted on soon.
	if s.winTurns >= s.cfg.DelayWindow || now-s.winStart >= time.Duration(s.cfg.DelayWindow)*s.cfg.TurnPeriod {
		s.control()
		s.winStart = now
	}
	return true, err
}

// addLocal schedules one input of every local player for turn Frame()+D. An
// input the engine discards (the turn already has one) stays queued for
// the next turn, unless it is the zero I, which carries nothing; D is
// lowered only where that costs nothing (see lower). While the game is paused, game
// inputs stay queued (the zero I is scheduled) and only system commands
// go out. It returns false if the engine refused an input for want of
// acknowledgements (retry later).
func (s *Session[S, I]) addLocal() bool {
	ok := true
	paused := s.Paused()
	var zero I
	for i := range s.locals {
		l := &s.locals[i]
		in, queued := l.held, false
		if !s.cfg.HoldInputs && !paused { // a paused game keeps its inputs queued
			in, queued = l.inputs.peek()
		}
		_ = s.eng.SetStepReport(l.player, s.report) // l.player is local
		switch err := s.eng.AddLocalInput(l.player, in); err {
		case nil:
			if queued {
				l.inputs.pop()
			}
		case core.ErrInputDiscarded:
			switch {
			case queued && in == zero:
				l.inputs.pop() // it carries nothing: the turn already has an input
			case queued:
				s.stats.Requeued++
			}
		default:
			ok = false
		}
	}
	return ok
}

// collect gathers what one Advance produced for the caller.
func (s *Session[S, I]) collect(r *core.Ready[I]) {
	s.effects = append(s.effects, r.Effects...)
	s.cancelled = append(s.cancelled, r.Cancelled...)
	for _, ev := range r.Events {
		s.event(ev)
	}
}

// send sends the messages of r.
func (s *Session[S, I]) send(now time.Duration, r *core.Ready[I]) error {
	s.lastSend = now
	err := s.ep.Send(now, r.Messages)
	if serr := s.stream.Send(now, s.eng, s.ep); err == nil {
		err = serr
	}
	return err
}

// playersReady reports whether no player's peer is still handshaking
// (spectators never hold the match back).
func (s *Session[S, I]) playersReady() bool {
	for i := range s.cfg.Peers {
		if s.ep.State(core.PeerID(i)) == endpoint.StateHandshaking {
			return false
		}
	}
	return true
}

// keepStream streams to the spectators once per turn period before the
// match starts.
func (s *Session[S, I]) keepStream(now time.Duration) error {
	if len(s.cfg.Spectators) == 0 || (s.streamed && now-s.streamedAt < s.cfg.TurnPeriod) {
		return nil
	}
	s.streamed, s.streamedAt = true, now
	return s.stream.Send(now, s.eng, s.ep)
}

// receiver routes decoded input messages: from player peers to the
// engine, from spectators to the stream.
type receiver[S any, I comparable] struct{ s *Session[S, I] }

// Receive implements endpoint.Receiver.
func (r *receiver[S, I]) Receive(now time.Duration, from core.PeerID, m *core.Message[core.Slot[I]]) error {
	if n := core.PeerID(len(r.s.cfg.Peers)); from >= n {
		r.s.stream.Receive(int(from-n), m)
		return nil
	}
	s := r.s
	if err := s.eng.Receive(now, from, m); err != nil {
		return err
	}
	if s.syncing() {
		held := core.Frame(0)
		for _, p := range s.cfg.Peers[from].Players {
			held = max(held, m.Held[p])
		}
		s.ts.Observe(int(from), m.Frame, held, now)
	}
	return nil
}

// syncing reports whether timesync runs: in auto mode, unless disabled.
func (s *Session[S, I]) syncing() bool { return s.cfg.MaxPrediction > 0 && !s.cfg.Timesync.Disable }

// timesyncTurn samples the advantage over every connected peer after a
// turn and, at the end of a window, acts on the recommendation.
func (s *Session[S, I]) timesyncTurn(now time.Duration) {
	if !s.syncing() {
		return
	}
	f := s.eng.Frame()
	for i := range s.cfg.Peers {
		if ps, ok := s.ep.Peer(core.PeerID(i)); ok && ps.State == endpoint.StateConnected && ps.RTTSamples > 0 {
			s.ts.Sample(i, f, now, ps.RTT/2)
		} else if ok && ps.State != endpoint.StateConnected && ps.State != endpoint.StateHandshaking {
			s.ts.Forget(i) // lost or left: never waited for
		}
	}
	if ev, ok := s.ts.Tick(); ok && ev.Wait > 0 {
		s.event(ev)
		if ev.Applied {
			s.waitLeft = min(s.waitLeft+ev.Wait, s.cfg.Timesync.MaxWait)
		}
	}
}

// timesyncWait runs a wait timesync asked for: it reports whether the
// session skips its turns now, the time blocked not being owed.
func (s *Session[S, I]) timesyncWait(now time.Duration) bool {
	if !s.syncWait && s.waitLeft > 0 {
		s.syncWait, s.waitEnd = true, now+time.Duration(s.waitLeft)*s.pacer.Period()
		s.waitFrom = s.pacer.Stalled()
		s.waited += uint64(s.waitLeft)
		s.waitLeft = 0
	}
	if !s.syncWait {
		return false
	}
	if now < s.waitEnd {
		s.pacer.Block()
		return true
	}
	s.syncWait = false
	d := s.pacer.Stalled() - s.waitFrom
	s.excused += d
	s.waitTime += d
	return false
}

// chargeStall adds d of stall to every peer waited for.
func (s *Session[S, I]) chargeStall(d time.Duration) {
	if d <= 0 {
		return
	}
	for i := range s.peerStall {
		if s.waiting&(1<<i) != 0 {
			s.peerStall[i] += d
		}
	}
}

// observeSystem sets the pacing period from the game speed and the
// slowest step time.
func (s *Session[S, I]) observeSystem() {
	speed := s.eng.Control().Speed
	period := max(s.cfg.TurnPeriod*100/time.Duration(speed), s.slowestStep(), time.Millisecond)
	if period != s.pacer.Period() {
		_ = s.pacer.SetPeriod(period) // positive
		s.ts.SetPeriod(period)        // timesync counts advantage in turns of this length
	}
}

// slowestStep returns the largest step time any player reports.
func (s *Session[S, I]) slowestStep() time.Duration {
	var m uint16
	for p := range s.cfg.Players {
		m = max(m, s.eng.StepReport(core.PlayerHandle(p)))
	}
	return time.Duration(m) * stepUnit
}

// control closes a delay-controller window: it updates the step-time
// report and asks the controller for D (and W in auto mode).
func (s *Session[S, I]) control() {
	rep := min((s.winStep+stepUnit-1)/stepUnit, 65535)
	s.report = uint16(rep)
	m := delay.Measurement{FramePeriod: s.pacer.Period(), Frames: s.winTurns, Stall: s.winStall, DeepRollbacks: s.winDeep}
	for i := range s.cfg.Peers {
		if ps, ok := s.ep.Peer(core.PeerID(i)); ok && ps.State == endpoint.StateConnected && ps.RTTSamples > 0 {
			m.AddPeer(ps.RTT, ps.Jitter)
		}
	}
	s.winTurns, s.winStall, s.winDeep, s.winStep = 0, 0, 0, 0
	s.rtt = m.RTT
	if s.cfg.FixedDelay {
		return
	}
	rec := s.ctl.Update(m)
	if !rec.Changed {
		return
	}
	if s.cfg.MaxPrediction > 0 {
		_ = s.eng.SetPrediction(rec.Prediction) // within MaxPrediction
	}
	s.lowerTo = -1
	if rec.Delay < s.delayNow() && !s.cfg.HoldInputs {
		s.lowerTo = rec.Delay // applied by turn, see lower
		if rec.Prediction == s.eng.Prediction() {
			return
		}
	} else {
		s.setDelay(rec.Delay)
	}
	s.event(DelayEvent{Frame: s.eng.Frame(), Delay: s.delayNow(), Prediction: s.eng.Prediction(), RTT: s.rtt})
}

// lower takes D one turn closer to a pending lowering (lowerTo) if every
// local queue is empty, and reports whether it did. Lowering D by k leaves k turns that
// already have their input, so the input queued for the first of them
// waits a turn; with a player who gives one input per turn it would wait
// for ever, and every lowering would add a turn of lag behind a smaller
// D. So command-style inputs lower D only at a turn with nothing queued,
// where the turns skipped lose nothing (a zero input, which carries
// nothing, is dropped: see addLocal).
func (s *Session[S, I]) lower() bool {
	if s.lowerTo < 0 {
		return false
	}
	var zero I
	for i := range s.locals {
		l := &s.locals[i]
		if in, _ := l.inputs.peek(); l.inputs.n > 1 || in != zero {
			return false
		}
	}
	d := s.delayNow() - 1 // one turn skipped per empty turn
	if d <= s.lowerTo {
		d, s.lowerTo = s.lowerTo, -1
	}
	s.setDelay(d)
	return true
}

// setDelay sets every local player's D to d (within MaxDelay).
func (s *Session[S, I]) setDelay(d int) {
	for i := range s.locals {
		_ = s.eng.SetInputDelay(s.locals[i].player, d)
	}
}

// delayNow returns the local players' D.
func (s *Session[S, I]) delayNow() int {
	d, _ := s.eng.InputDelay(s.locals[0].player)
	return d
}
