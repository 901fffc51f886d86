package engine

import "github.com/rollstep/rollstep/core"

// Input delay rule
//
// Each local player p has a schedule: next[p] is the first frame without an
// input, and every frame below it has exactly one input, written once and
// never changed. AddLocalInput at current frame f targets t = f + D(p):
//
//   - t == next[p]: the input is written at t.
//   - t >  next[p] (D was raised by k = t-next[p]): frames next[p]..t-1 are
//     filled with the player's previous input (the zero value if there is
//     none), then the input is written at t.
//   - t <  next[p] (D was lowered, or a second call in the same frame):
//     frame t already has its input, which may have been sent; the new
//     input is discarded (ErrInputDiscarded). Each discarded input brings
//     the effective delay next[p]-f one frame closer to D, so lowering D by
//     k costs k inputs.
//
// Since slots are only written at next[p], which only grows, no frame ever
// holds two different inputs, and every message reads slots below next[p]:
// peers can never see two different inputs of one player for one frame.

// AddLocalInput gives local player p's input made at the current frame; it
// applies to frame Frame()+D. The value is copied; the engine never retains
// the caller's memory. See ErrInputDiscarded and ErrQueueFull.
func (e *Engine[S, I]) AddLocalInput(p core.PlayerHandle, v I) error {
	if !e.isLocal(p) {
		return ErrNotLocal
	}
	t := e.frame + core.Frame(e.delay[p])
	n := e.next[p]
	if t < n {
		e.stats.DiscardedInputs++
		return ErrInputDiscarded
	}
	if t-e.minAck(int(p)) >= core.Frame(e.rlen)-core.Frame(e.cfg.MaxPrediction)-4 {
		return ErrQueueFull
	}
	step := put16(e.report[p])
	if t > n {
		var prev I
		if n > 0 && !e.cfg.FillZero {
			prev = e.vals[e.idx(int(p), n-1)].Value
		}
		for f := n; f < t; f++ {
			e.vals[e.idx(int(p), f)] = Slot[I]{Control: Control{flags: flagFilled, step: step}, Value: prev}
		}
	}
	sl := Slot[I]{Value: v}
	if q := &e.pending[p]; q.n > 0 {
		sl.Control = q.cmds[q.head]
		q.head, q.n = (q.head+1)%maxPendingCommands, q.n-1
	}
	sl.Control.step = step
	if sl.Control.command == commandReturn {
		sl.Control.aux = put16(uint16(min(t-e.checked, 0xffff)))
	}
	e.vals[e.idx(int(p), t)] = sl
	e.next[p] = t + 1
	e.knownDirty = true
	if sl.Control.command == commandReturn {
		e.applyReturn(int(p), t, sl.Control)
	}
	return nil
}

// NeedsInput reports whether local player p has no input scheduled for the
// current frame yet, so Advance cannot step until AddLocalInput is called.
func (e *Engine[S, I]) NeedsInput(p core.PlayerHandle) bool {
	return e.isLocal(p) && e.next[p] <= e.frame
}

// SetInputDelay changes local player p's input delay D from the current
// frame on; see the input delay rule in the package documentation.
func (e *Engine[S, I]) SetInputDelay(p core.PlayerHandle, d int) error {
	if !e.isLocal(p) {
		return ErrNotLocal
	}
	if d < 0 || d > e.cfg.MaxInputDelay {
		return ErrOutOfRange
	}
	e.delay[p] = d
	return nil
}

// minAck returns the lowest count of player p's inputs that a connected
// peer has acknowledged, or next[p] when there is no such peer.
func (e *Engine[S, I]) minAck(p int) core.Frame {
	m := e.next[p]
	for i := range e.peers {
		q := &e.peers[i]
		if !q.gone {
			m = min(m, q.held[p])
		}
	}
	return m
}

// inputFor returns what the engine now uses as player p's input for frame f:
// the real input, a disconnection, or a prediction.
func (e *Engine[S, I]) inputFor(p int, f core.Frame) core.Input[I] {
	n := e.next[p]
	if f < n {
		return known(&e.vals[e.idx(p, f)])
	}
	if e.agreed[p] && f >= e.goneAt[p] && f < e.retAt[p] {
		return core.Input[I]{Status: core.InputDisconnected}
	}
	var last I
	if n > 0 {
		last = e.vals[e.idx(p, n-1)].Value
	}
	if e.predict == nil { // RepeatLast, without the indirect call
		return core.Input[I]{Value: last, Status: core.InputPredicted}
	}
	return core.Input[I]{Value: e.predict(core.PlayerHandle(p), f, last, n-1, n > 0), Status: core.InputPredicted}
}

// markWrong records that frame f must be re-simulated because of player
// p's input.
func (e *Engine[S, I]) markWrong(f core.Frame, p int) {
	if !e.hasWrong || f < e.firstWrong || (f == e.firstWrong && e.blameBefore(p, e.wrongPlayer)) {
		e.firstWrong, e.hasWrong, e.wrongPlayer = f, true, p
	}
}

// rescan compares, for simulated frames from `from` on, the input player p
// was simulated with against what the engine now knows or predicts, and
// marks the first difference for re-simulation. A correction is recorded
// here, on arrival, and applied by the next Advance before anything else,
// so it can never be lost to the prediction limit.
func (e *Engine[S, I]) rescan(p int, from core.Frame) {
	from = max(from, 0)
	for f := from; f < e.frame; f++ {
		if e.hasWrong && f > e.firstWrong { // a tie goes to markWrong
			return
		}
		if i := e.idx(p, f); !sameInput(e.inputFor(p, f), e.used[i]) || e.controlFor(p, f).semantic() != e.usedCtl[i].semantic() {
			e.markWrong(f, p)
			return
		}
	}
}

// sameInput reports whether a and b lead Step to the same result: equal
// values and the same disconnectedness and fill. Confirmed and predicted
// inputs of equal value are the same; Step must not let that status
// change the state (peers see different statuses for the same frame).
func sameInput[I comparable](a, b core.Input[I]) bool {
	return a.Value == b.Value && (a.Status == core.InputDisconnected) == (b.Status == core.InputDisconnected) &&
		(a.Status == core.InputFilled) == (b.Status == core.InputFilled)
}

// known returns the input a known slot gives Step.
func known[I comparable](s *Slot[I]) core.Input[I] {
	if s.Control.flags&(flagFilled|flagGone) != 0 {
		if s.Control.flags&flagGone != 0 {
			return core.Input[I]{Status: core.InputDisconnected}
		}
		return core.Input[I]{Value: s.Value, Status: core.InputFilled}
	}
	return core.Input[I]{Value: s.Value, Status: core.InputConfirmed}
}

// controlFor returns the control word the engine now uses for player p's
// frame f: the slot's when known, none otherwise (a prediction or a
// disconnection carries no command).
func (e *Engine[S, I]) controlFor(p int, f core.Frame) Control {
	if f < e.next[p] {
		return e.vals[e.idx(p, f)].Control
	}
	return Control{}
}
