package engine

import (
	"math/bits"
	"time"

	"github.com/rollstep/rollstep/core"
)

// Advance does one round of work at time now (a monotonic duration chosen
// by the host; the engine never reads a clock):
//
//  1. if an arrived input contradicts a prediction, it loads the saved state
//     before the first wrong frame and re-simulates up to the current frame
//     (the current frame itself is never loaded: it has no saved state);
//  2. it processes newly confirmed frames (input log, checksums);
//  3. it simulates the current frame if every local input for it is
//     scheduled and the frame is at most W frames past the newest frame with
//     every input known; otherwise Ready.Stalled may be set;
//  4. it builds one message per connected peer.
//
// At most one new frame is simulated per call; a host catching up calls
// AddLocalInput and Advance again. The returned Ready is owned by the
// engine and valid until the next call of Advance.
func (e *Engine[S, I]) Advance(now time.Duration) *Ready[I] {
	r := &e.ready
	r.Messages = r.Messages[:0]
	r.Effects = r.Effects[:0]
	r.Cancelled = r.Cancelled[:0]
	r.Stepped, r.Stalled, r.RolledBack = false, false, false
	r.LoadedFrame, r.Resimulated = 0, 0
	var dt time.Duration
	if e.started && now > e.now {
		dt = now - e.now
	}
	e.started = true
	e.now = max(e.now, now)

	if e.hasWrong {
		e.rollback()
	}
	// confirmedEnd() <= frame: with every simulated frame checked, as in
	// the steady state, there is nothing to confirm before stepping.
	if e.checked < e.frame {
		if end := e.confirmedEnd(); e.checked < end {
			e.confirmTo(end)
		}
	}
	switch e.blocked() {
	case blockNone:
		e.stepForward()
		if end := e.confirmedEnd(); e.checked < end {
			e.confirmTo(end)
		}
		if e.synct.k > 0 {
			e.syncTest()
		}
	case blockRemote:
		r.Stalled = true
		e.stats.StallTime += dt
		e.stats.StalledCalls++
		e.chargeStall(dt)
	}
	r.Frame = e.frame
	e.buildMessages()
	// Events raised since the previous Advance (also by Receive) are
	// reported now; later ones go to the other buffer, so r.Events stays
	// valid until the next Advance.
	if len(e.events) == 0 {
		r.Events = r.Events[:0]
	} else {
		r.Events, e.events, e.spareEvents = e.events, e.spareEvents[:0], e.events
	}
	return r
}

// chargeStall adds a stall of dt to every peer that owns a player whose
// missing input holds the engine back: a remaining player with the fewest
// inputs held (next[p] == knownEnd()).
func (e *Engine[S, I]) chargeStall(dt time.Duration) {
	end := e.knownEnd()
	var charged uint64 // bit i: peer i already charged
	for p := 0; p < e.players; p++ {
		if e.local[p] || e.next[p] != end || (e.agreed[p] && e.next[p] >= e.goneAt[p]) {
			continue
		}
		if i := e.owner[p]; charged&(1<<i) == 0 {
			charged |= 1 << i
			e.peers[i].stallTime += dt
		}
	}
}

// WaitingFor returns the peers (bit i for PeerID i) whose missing inputs
// keep the current frame from being simulated: the prediction window W
// is used up past the newest frame for which every remote input is held,
// and these peers own a remaining player with the fewest inputs held. It
// is 0 when no remote input holds the frame back (NeedsInput says whether
// a local one does). A front end asks it instead of re-deriving the
// engine's rule.
func (e *Engine[S, I]) WaitingFor() uint64 {
	end := never
	for p := 0; p < e.players; p++ {
		if !e.local[p] && !(e.agreed[p] && e.next[p] >= e.goneAt[p]) {
			end = min(end, e.next[p])
		}
	}
	if end == never || int64(e.frame) < int64(end)+int64(e.window) {
		return 0
	}
	var m uint64
	for p := 0; p < e.players; p++ {
		if !e.local[p] && e.next[p] == end && !(e.agreed[p] && e.next[p] >= e.goneAt[p]) {
			m |= 1 << e.owner[p]
		}
	}
	return m
}

// SetEnd makes f the end of the match: Advance simulates no frame from f
// on, but goes on confirming, checking and building messages, so that
// every peer gets the inputs of frames before f. It returns ErrOutOfRange
// when f is before the current frame (already simulated, perhaps with
// predictions), or before 0.
func (e *Engine[S, I]) SetEnd(f core.Frame) error {
	if f < e.frame || f < 0 {
		return ErrOutOfRange
	}
	e.end = f
	return nil
}

// Delivered returns how many frames of every local player's inputs each
// peer not declared disconnected has acknowledged: the fewest over local
// players and peers (the local players' scheduled inputs when no such
// peer remains).
func (e *Engine[S, I]) Delivered() core.Frame {
	d := never
	for l := e.localMask; l != 0; l &= l - 1 {
		d = min(d, e.minAck(bits.TrailingZeros32(l)))
	}
	return d
}

// event queues ev for the next Ready.
func (e *Engine[S, I]) event(ev core.Event) { e.events = append(e.events, ev) }

type blockReason uint8

const (
	blockNone   blockReason = iota
	blockEnd                // the frame is at or past SetEnd's
	blockLocal              // a local input for the frame is missing
	blockRemote             // W exhausted: remote inputs are missing
)

// blocked says whether the current frame may be simulated now.
func (e *Engine[S, I]) blocked() blockReason {
	if e.frame >= e.end {
		return blockEnd
	}
	for l := e.localMask; l != 0; l &= l - 1 {
		if e.next[bits.TrailingZeros32(l)] <= e.frame {
			return blockLocal
		}
	}
	if e.frame >= e.knownEnd()+core.Frame(e.window) {
		return blockRemote
	}
	return blockNone
}

// stepForward simulates the current frame. Its start state is saved when
// the frame may be re-simulated (it uses a prediction) or sync testing
// needs it.
func (e *Engine[S, I]) stepForward() {
	f := e.frame
	if e.ring != nil && (f >= e.knownEnd() || e.synct.k > 0) {
		e.ring.Save(int32(f), &e.cur)
		e.stats.Saves++
	}
	e.step(f)
	e.frame++
	e.ready.Stepped = true
	e.stats.Frames++
	if e.synct.k > 0 {
		e.synct.record(f, checksumOf(&e.cur))
	}
}

// step runs Step for frame f on the current state and records the inputs
// it used and the effects it emitted.
func (e *Engine[S, I]) step(f core.Frame) {
	in := e.stepIn[:e.players]
	off := int(f&e.rmask) * e.players
	cmds := e.stepCtl[:e.players]
	for p := range in {
		i := off + p
		// The common cases of inputFor, inlined.
		if n := e.next[p]; f < n {
			in[p], cmds[p] = known(&e.vals[i]), e.vals[i].Control
		} else if e.predict == nil && !e.agreed[p] && n > 0 {
			in[p], cmds[p] = core.Input[I]{Value: e.vals[e.idx(p, n-1)].Value, Status: core.InputPredicted}, Control{}
		} else {
			in[p], cmds[p] = e.inputFor(p, f), Control{}
		}
		e.used[i], e.usedCtl[i] = in[p], cmds[p]
	}
	e.fx.list, e.fx.dropped = e.fx.list[:0], 0
	e.ran[f&e.rmask] = e.run(&e.cur, f, in, cmds, &e.fx)
	if e.fx.dropped > 0 {
		e.event(core.EffectsDroppedEvent{Frame: f, Dropped: e.fx.dropped})
	}
	if len(e.fx.list) == 0 && e.effects.empty(f) {
		return
	}
	e.ready.Effects, e.ready.Cancelled = e.effects.record(f, &e.fx, e.ready.Effects, e.ready.Cancelled)
}

// rollback loads the state before the first wrong frame and re-simulates
// every frame up to the current one, saving each start state again.
func (e *Engine[S, I]) rollback() {
	f := e.firstWrong
	e.hasWrong = false
	if f >= e.frame {
		return // nothing simulated with the wrong input: never load the current frame
	}
	if e.ring == nil {
		e.stats.LostCorrections++
		return
	}
	if err := e.ring.Load(int32(f), &e.cur); err != nil {
		// Unreachable by construction: the ring holds MaxPrediction+2
		// states and frames are predicted at most W <= MaxPrediction deep.
		e.stats.LostCorrections++
		return
	}
	depth := int(e.frame - f)
	e.stats.Loads++
	e.stats.Rollbacks++
	e.stats.ResimFrames += uint64(depth)
	e.stats.RollbackDepth[min(depth, len(e.stats.RollbackDepth)-1)]++
	e.ready.RolledBack, e.ready.LoadedFrame, e.ready.Resimulated = true, f, depth
	if p := e.wrongPlayer; !e.local[p] {
		q := &e.peers[e.owner[p]]
		q.rollbacks++
		q.resimFrames += uint64(depth)
		q.rollbackDepth[min(depth, len(q.rollbackDepth)-1)]++
	}
	for g := f; g < e.frame; g++ {
		if g > f {
			e.ring.Save(int32(g), &e.cur)
			e.stats.Saves++
		}
		e.step(g)
		if e.synct.k > 0 {
			// The corrected simulation is the one sync testing checks.
			e.synct.record(g, checksumOf(&e.cur))
		}
	}
}
