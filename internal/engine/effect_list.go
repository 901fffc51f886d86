package engine

import "github.com/rollstep/rollstep/core"

// EffectList is the Effects an engine passes to Step: a bounded list of
// the effects one Step emitted.
type EffectList struct {
	list    []core.Effect
	dropped int
}

// Emit records e (see Effects). It returns false, and drops e, when the frame has already
// emitted Config.MaxEffectsPerFrame effects.
func (fx *EffectList) Emit(e core.Effect) bool {
	if len(fx.list) == cap(fx.list) {
		fx.dropped++
		return false
	}
	fx.list = append(fx.list, e)
	return true
}

// NewEffectList returns an EffectList that keeps up to capacity effects
// (none for a capacity of 0) until Reset: for running a game's Step outside an engine, in
// a unit test of the game, a replay player or a tool. Inside a session the
// engine owns the Effects and Step only emits into it.
func NewEffectList(capacity int) *EffectList {
	return &EffectList{list: make([]core.Effect, 0, max(capacity, 0))}
}

// Reset forgets the effects emitted so far and the count of dropped ones,
// keeping the capacity.
func (fx *EffectList) Reset() { fx.reset() }

// Dropped returns how many effects Emit dropped since the last Reset
// because the capacity was reached.
func (fx *EffectList) Dropped() int { return fx.dropped }

// Len returns the number of effects emitted so far in this Step.
func (fx *EffectList) Len() int { return len(fx.list) }

// At returns the i-th effect emitted in this Step.
func (fx *EffectList) At(i int) core.Effect { return fx.list[i] }

func (fx *EffectList) reset() {
	fx.list = fx.list[:0]
	fx.dropped = 0
}

// effectTracker remembers, for each frame that can still be re-simulated,
// which effects were delivered, so a re-simulation delivers only new ones
// and cancels vanished ones. Frame f uses slot f&mask, which holds frame
// slots[i].frame (when used) with slots[i].count effects at
// list[i*per:]; the slot count exceeds the largest distance between the
// oldest unconfirmed frame and the current frame.
type effectTracker struct {
	mask  int
	per   int
	slots []effectSlot
	list  []core.Effect
}

type effectSlot struct {
	frame core.Frame
	used  bool
	count int32
}

func newEffectTracker(minSlots, perFrame int) effectTracker {
	n := 1
	for n < minSlots {
		n *= 2
	}
	return effectTracker{mask: n - 1, per: perFrame, slots: make([]effectSlot, n), list: make([]core.Effect, n*perFrame)}
}

// empty reports whether no effect was delivered for frame f, and marks
// the slot as holding f with no effects (what record would do when Step
// emitted none). It is the inlinable fast path of record.
func (t *effectTracker) empty(f core.Frame) bool {
	s := &t.slots[int(f)&t.mask]
	if s.count != 0 && s.frame == f && s.used {
		return false
	}
	*s = effectSlot{frame: f, used: true}
	return true
}

// record compares the effects fx emitted for frame f with those delivered
// before for f, and appends the differences to fresh and cancelled.
func (t *effectTracker) record(f core.Frame, fx *EffectList, fresh, cancelled []core.FrameEffect) ([]core.FrameEffect, []core.FrameEffect) {
	i := int(f) & t.mask
	s := &t.slots[i]
	nold := 0
	if s.used && s.frame == f {
		nold = int(s.count)
	}
	*s = effectSlot{frame: f, used: true, count: int32(len(fx.list))}
	if nold == 0 && len(fx.list) == 0 {
		return fresh, cancelled
	}
	slot := t.list[i*t.per : i*t.per+t.per]
	old := slot[:nold]
	// matched marks old effects that the new simulation emitted again;
	// effects are matched as a multiset (at most 64 per frame).
	var matched uint64
	for _, e := range fx.list {
		found := false
		for j, o := range old {
			if matched&(1<<j) == 0 && o == e {
				matched |= 1 << j
				found = true
				break
			}
		}
		if !found {
			fresh = append(fresh, core.FrameEffect{Frame: f, Effect: e})
		}
	}
	for j, o := range old {
		if matched&(1<<j) == 0 {
			cancelled = append(cancelled, core.FrameEffect{Frame: f, Effect: o})
		}
	}
	copy(slot, fx.list)
	return fresh, cancelled
}
