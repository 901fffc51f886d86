package rollstep

import (
	"slices"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/delay"
	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/internal/engine"
)

// Update does one round of the session's work at now, a monotonic time
// chosen by the host (the session reads no clock):
//
//  1. it reads every datagram that arrived, then runs the connection's
//     timers (handshake, keep-alives, timeouts), so a datagram that
//     arrived before now is heard before a timeout can fire, and turns
//     what they report into life-cycle events;
//  2. once every player's peer is connected, it runs the frames the fixed
//     timestep owes (at most Config.MaxStepsPerUpdate, the rest in later
//     calls) whose inputs are held or may be predicted, scheduling each
//     local player's input D frames ahead; a correction that arrived is
//     applied first (rollback and re-simulation). A due frame that cannot
//     run stalls (core.StallEvent), and the session repeats its messages every
//     Config.ResendInterval;
//  3. it sends what the engine produced to every peer and streams
//     confirmed frames to spectators, and refreshes State, Previous and
//     Effects.
//
// It returns the first error of the Conn that ends the match (a transient
// one, such as an unreachable network, is counted and retried), ErrClosed,
// an error matching ErrRefused from the moment a handshake is refused
// (its text names the differing field), and an error matching
// ErrHandshakeTimeout for a peer whose handshake timed
// out before the match started (unless Config.SoloStart). Bad datagrams
// are counted, never returned. In steady state it allocates nothing.
//
// Over a transport/udp Conn on Linux, the datagrams of one Update go out
// together at its end, with one sendmmsg(2) system call for up to 16.
func (s *Session[S, I]) Update(now time.Duration) (err error) {
	if s.closed {
		return ErrClosed
	}
	s.ep.Hold()
	defer func() { // even if a Step panics, so that Close's Leave is not held
		if ferr := s.ep.Flush(); err == nil {
			err = ferr
		}
	}()
	return s.update(now)
}

// update is Update's round of work, its sends held.
func (s *Session[S, I]) update(now time.Duration) error {
	s.effects, s.cancelled = s.effects[:0], s.cancelled[:0]
	if s.end.left {
		return nil
	}
	if s.end.done {
		return s.drainEnd(now)
	}
	s.now = max(s.now, now)
	_, err := s.ep.Poll(now, &s.rx)
	if terr := s.ep.Tick(now); err == nil {
		err = terr
	}
	s.route(s.ep.Events())
	if s.refused != nil {
		return s.refused
	}
	if me := &s.rejoin.me; me.active {
		if !me.clock {
			me.clock, me.begun = true, now
		}
		if rerr := s.comebackTick(now); rerr != nil {
			return rerr
		}
		if me.active { // still coming back: nothing to stream
			if len(s.cfg.Spectators) > 0 && (!s.streamed || now-s.streamedAt >= s.cfg.TurnPeriod) {
				s.streamed, s.streamedAt = true, now
				if herr := s.stream.Hold(now, s.ep); err == nil {
					err = herr
				}
			}
			return err
		}
		if !s.started { // a restarted process; a yielded split had started
			s.started = true
			s.event(core.StartedEvent{At: now})
			s.pacer.Update(now) // starts the frame clock
		}
		s.winStart = now
	}
	if !s.started {
		if !s.playersReady() {
			// Spectators already connected hear that the host is alive.
			if len(s.cfg.Spectators) > 0 && (!s.streamed || now-s.streamedAt >= s.cfg.TurnPeriod) {
				s.streamed, s.streamedAt = true, now
				if serr := s.stream.Send(now, s.eng, s.ep); err == nil {
					err = serr
				}
			}
			return err
		}
		s.started = true
		s.event(core.StartedEvent{At: now})
		s.pacer.Update(now) // starts the frame clock
		s.winStart = now
		return err
	}
	if s.watch != nil {
		if werr := s.replay(now); err == nil {
			err = werr
		}
		return err
	}
	// Past the last frame the session only waits for the end to be
	// confirmed everywhere: no frame is owed, so none stalls.
	atEnd := s.end.pending && s.eng.Frame() >= s.end.at
	if !atEnd {
		before := s.pacer.Stalled()
		s.pacer.Update(now)
		s.chargeStall(s.pacer.Stalled() - before)
	}
	var last *engine.Ready[I]
	ranAny := false
	if s.rejoin.me.catchUp {
		last = s.catchUp(now)
		ranAny = last != nil
	}
	for atEnd || (!s.timesyncWait(now) && s.pacer.Granted() > 0) {
		r, ran := s.frame(now)
		if r != nil {
			last = r
		}
		ranAny = ranAny || ran
		if !ran {
			break
		}
	}
	if last != nil && (ranAny || !s.sent || now-s.lastSend >= s.cfg.ResendInterval) {
		if serr := s.send(now, last); err == nil {
			err = serr
		}
	}
	s.unstick(now)
	if rerr := s.rejoinTick(now); err == nil {
		err = rerr
	}
	if perr := s.stream.Pump(now, s.ep); err == nil { // join records, at their own pace
		err = perr
	}
	if s.end.ready(s.eng) && !s.holdEnd(now) {
		s.end.done = true
		s.event(core.MatchEndedEvent{Frame: s.end.at})
		s.end.leaveBy = now + s.endWait
		if lerr := s.leaveAtEnd(now); err == nil {
			err = lerr
		}
	}
	return err
}

// frame tries to run the current frame. It returns what the engine's
// Advance produced, if it was called, and whether the frame ran.
func (s *Session[S, I]) frame(now time.Duration) (*engine.Ready[I], bool) {
	f := s.eng.Frame()
	// A frame's inputs are made when it runs, not when it is due: a frame
	// that cannot run schedules nothing, so the lockstep pace is
	// max(T, L/D). At D = 0 a held input is scheduled at once all the
	// same, so that the engine sees the frame wait for remote inputs (its
	// stall counters), not for a local one. A waiting frame only repeats
	// the messages (see Update).
	waiting := s.eng.WaitingFor()
	if waiting != 0 {
		s.pacer.Block()
		s.waiting = waiting
		s.frameWaiting |= waiting
	}
	if (waiting == 0 || (s.cfg.held() && s.delayNow() == 0)) && (!s.addedOK || s.added != f) {
		if s.lower() {
			s.event(core.DelayEvent{Frame: f, Delay: s.delayNow(), Prediction: s.eng.Prediction(), RTT: s.rtt})
		}
		s.addedOK, s.added = s.addLocal(), f
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
	switch {
	case r.Stepped:
		s.view, s.prev = s.prev, s.view
		*s.view = *s.eng.State()
	case r.RolledBack:
		*s.view = *s.eng.State()
	}
	if !r.Stepped {
		s.pacer.Block() // the engine refused the local input (no acks), or the frame's inputs are missing
		return r, false
	}
	if waiting != 0 { // the pacer was blocked above: grant the frame again
		s.pacer.Update(now)
	}
	stall, _ := s.pacer.Step()
	if d := min(stall, s.excused); d > 0 { // a timesync wait, not a stall
		stall, s.excused = stall-d, s.excused-d
	}
	s.stats.LastStall = stall
	if stall > 0 {
		s.stats.StalledFrames++
		s.stats.MaxStall = max(s.stats.MaxStall, stall)
		s.winStall += stall
		// A pointer into a slab reused every Update: boxing the value
		// would allocate once per stalled frame.
		if len(s.events) < maxQueuedEvents {
			s.stalls = append(s.stalls, core.StallEvent{Frame: f, Stall: stall, Waiting: s.frameWaiting})
			s.event(&s.stalls[len(s.stalls)-1])
		} else {
			s.stats.DroppedEvents++
		}
	}
	s.waiting, s.frameWaiting = 0, 0
	if !r.RolledBack { // a re-simulation is not the step time of one frame
		s.winStep = max(s.winStep, cpu)
	}
	if r.RolledBack && r.Resimulated >= s.ctl.DeepDepth() {
		s.winDeep++
	}
	s.observeSystem()
	s.timesyncFrame(now)
	s.winFrames++
	// A window closes after DelayWindow frames, or after as long as they
	// take at full pace, so that stalls (fewer frames) are acted on soon.
	if s.winFrames >= s.cfg.DelayWindow || now-s.winStart >= time.Duration(s.cfg.DelayWindow)*s.cfg.TurnPeriod {
		s.control()
		s.winStart = now
	}
	return r, true
}

// addLocal schedules one input of every local player for frame Frame()+D.
// A queued input the engine discards (the frame already has one) stays
// queued for the next frame, unless it is the zero I, which carries
// nothing; D is lowered only where that costs nothing (see lower). While
// the game is paused, queued game inputs wait (the zero I is scheduled)
// and only commands go out. It returns false if the engine refused an
// input for want of acknowledgements (retry later).
func (s *Session[S, I]) addLocal() bool {
	ok := true
	queue := !s.cfg.held() && !s.eng.Paused()
	var zero I
	for i := range s.locals {
		l := &s.locals[i]
		in, queued := l.held, false
		if queue {
			in, queued = l.inputs.peek()
		}
		_ = s.eng.SetStepReport(l.player, s.report) // l.player is local
		switch err := s.eng.AddLocalInput(l.player, in); err {
		case nil:
			if queued {
				l.inputs.pop()
			}
		case engine.ErrInputDiscarded:
			switch {
			case queued && in == zero:
				l.inputs.pop() // it carries nothing: the frame already has an input
			case queued && s.beforeReturn():
				// A rejoined player is disconnected until its return: its
				// orders until then have no effect, as any disconnected
				// player's, and do not wait to be played late.
				l.inputs.pop()
			case queued:
				s.stats.Requeued++
			}
		default:
			ok = false
		}
	}
	return ok
}

// collect keeps what one Advance produced for the caller. A disconnect
// the other peers agreed on before this one noticed stops the session
// talking to the owner even if its endpoint still hears it (so hearing it
// later is a split), and reports the owner lost.
func (s *Session[S, I]) collect(r *engine.Ready[I]) {
	if len(r.Effects) > 0 {
		s.effects = append(s.effects, r.Effects...)
	}
	if len(r.Cancelled) > 0 {
		s.cancelled = append(s.cancelled, r.Cancelled...)
	}
	for _, ev := range r.Events {
		s.event(ev)
		if d, ok := ev.(core.DisconnectEvent); ok {
			s.dropAgreed(d.Player)
		}
	}
}

// dropAgreed disconnects the owner of player p, whom the peers agreed is
// gone, if this endpoint still counts it connected.
func (s *Session[S, I]) dropAgreed(p core.PlayerHandle) {
	i := slices.IndexFunc(s.cfg.Peers, func(q Peer) bool { return slices.Contains(q.Players, p) })
	if i < 0 {
		return // a local player
	}
	id := core.PeerID(i)
	if s.rejoin.waiting&(1<<i) != 0 {
		return // the old process's disconnect: its new one is connected
	}
	if s.hears(id) {
		_ = s.ep.Disconnect(id) // id is in the table
		// A handoff under way to it cannot arrive any more: lose frees the
		// sponsor for the next rejoin.
		s.lose(s.now, core.PeerLostEvent{Peer: id, Agreed: true}, true)
	}
}

// send sends the messages of r, the latest Advance's (Update does so once
// per Update that ran a frame, and at most every ResendInterval
// otherwise), and streams to spectators.
func (s *Session[S, I]) send(now time.Duration, r *engine.Ready[I]) error {
	s.sent, s.lastSend = true, now
	err := s.ep.Send(now, r.Messages)
	if serr := s.stream.Send(now, s.eng, s.ep); err == nil {
		err = serr
	}
	return err
}

// playersReady reports whether no player's peer is still handshaking
// (spectators never hold the match back).
func (s *Session[S, I]) playersReady() bool {
	for i, p := range s.cfg.Peers {
		if !p.Open && s.ep.State(core.PeerID(i)) == endpoint.StateHandshaking {
			return false
		}
	}
	return true
}

// receiver routes decoded input messages: from player peers to the engine
// (and timesync), from spectators to the stream.
type receiver[S any, I comparable] struct{ s *Session[S, I] }

// Receive implements endpoint.Receiver.
func (r *receiver[S, I]) Receive(now time.Duration, from core.PeerID, m *engine.Message[engine.Slot[I]]) error {
	s := r.s
	if n := core.PeerID(len(s.cfg.Peers)); from >= n {
		s.stream.Receive(int(from-n), m)
		return nil
	}
	if s.watch != nil {
		return s.watchReceive(now, m)
	}
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

// syncing reports whether timesync runs: wherever the session predicts,
// unless disabled.
func (s *Session[S, I]) syncing() bool { return s.cfg.Prediction > 0 && !s.cfg.NoTimesync }

// timesyncFrame samples the advantage over every connected peer after a
// frame and, at the end of a window, acts on the recommendation.
func (s *Session[S, I]) timesyncFrame(now time.Duration) {
	if !s.syncing() {
		return
	}
	f := s.eng.Frame()
	for i := range s.cfg.Peers {
		// A lost peer was forgotten when it was lost (route, dropAgreed).
		if rtt, ok := s.ep.RTT(core.PeerID(i)); ok {
			s.ts.Sample(i, f, now, rtt/2)
		}
	}
	if ev, ok := s.ts.Tick(); ok {
		s.lastSync, s.hasSync = ev, true
		if ev.Wait > 0 {
			s.event(ev)
		}
		if ev.Applied {
			s.waitLeft = min(s.waitLeft+ev.Wait, s.cfg.MaxWait)
		}
	}
}

// timesyncWait runs a wait timesync (or Wait) asked for: it reports
// whether the session skips its frames now, the time blocked not being
// owed.
func (s *Session[S, I]) timesyncWait(now time.Duration) bool {
	if !s.syncWait && s.waitLeft > 0 {
		s.syncWait, s.waitEnd = true, now+time.Duration(s.waitLeft)*s.pacer.Period()
		s.waitFrom = s.pacer.Stalled()
		s.stats.Waited += uint64(s.waitLeft)
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
	period := s.cfg.TurnPeriod
	if speed := s.eng.Speed(); speed != 100 {
		period = period * 100 / time.Duration(speed)
	}
	period = max(period, s.slowestStep(), time.Microsecond)
	if period != s.pacer.Period() {
		_ = s.pacer.SetPeriod(period) // positive
		s.ts.SetPeriod(period)        // timesync counts advantage in frames of this length
	}
}

// slowestStep returns the largest step time any player reports.
func (s *Session[S, I]) slowestStep() time.Duration {
	return time.Duration(s.eng.SlowestStep()) * stepUnit
}

// control closes a delay-controller window: it updates the step-time
// report and asks the controller for D (and W in Auto). The RTT is the
// largest smoothed RTT of a connected peer, in every mode.
func (s *Session[S, I]) control() {
	s.report = uint16(min((s.winStep+stepUnit-1)/stepUnit, 65535))
	m := delay.Measurement{FramePeriod: s.pacer.Period(), Frames: s.winFrames, Stall: s.winStall, DeepRollbacks: s.winDeep}
	for i := range s.cfg.Peers {
		if ps, ok := s.ep.Peer(core.PeerID(i)); ok && ps.State == endpoint.StateConnected && ps.RTTSamples > 0 {
			m.AddPeer(ps.RTT, ps.Jitter)
		}
	}
	s.winFrames, s.winStall, s.winDeep, s.winStep = 0, 0, 0, 0
	s.rtt = m.RTT
	if s.cfg.FixedDelay {
		return
	}
	rec := s.ctl.Update(m)
	if !rec.Changed {
		return
	}
	w, d := s.eng.Prediction(), s.delayNow()
	if s.cfg.Mode == Auto {
		_ = s.eng.SetPrediction(rec.Prediction) // within Prediction
	}
	s.lowerTo = -1
	switch {
	case rec.Delay < d && !s.cfg.held():
		s.lowerTo = rec.Delay // applied frame by frame, see lower
	case rec.Delay != d:
		s.setDelay(rec.Delay)
	}
	if s.delayNow() == d && s.eng.Prediction() == w {
		return // nothing changed yet
	}
	s.event(core.DelayEvent{Frame: s.eng.Frame(), Delay: s.delayNow(), Prediction: s.eng.Prediction(), RTT: s.rtt})
}

// lower takes D one frame closer to a pending lowering (lowerTo) if every
// local queue is empty, and reports whether it did. Lowering D by k leaves
// k frames that already have their input, so the input queued for the
// first of them waits a frame; with a player who gives one input per
// frame it would wait for ever, and every lowering would add a frame of
// lag behind a smaller D. So command-style inputs lower D only at a frame
// with nothing queued, where the frames skipped lose nothing (a zero
// input, which carries nothing, is dropped: see addLocal).
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
	d := s.delayNow() - 1 // one frame skipped per empty frame
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
	if len(s.locals) == 0 {
		return s.ctl.Current().Delay
	}
	d, _ := s.eng.InputDelay(s.locals[0].player)
	return d
}
