package core

// Effect is one side effect a frame's Step asks the game to play: a sound,
// a particle burst, a rumble. The engine treats it as an opaque comparable
// value: Kind names what to play and Args carry its parameters (a sound id,
// a position in fixed-point raw units, ...). Two effects are the same
// effect when all their fields are equal.
type Effect struct {
	Kind uint32   // what to play, defined by the game
	Args [3]int64 // its parameters, defined by the game
}

// FrameEffect is an Effect together with the frame whose Step emitted it.
type FrameEffect struct {
	Frame  Frame  // the frame whose Step emitted Effect
	Effect Effect // the effect
}

// Effects collects the effects one call of Step emits. The engine owns it
// and resets it before every Step; Step must not retain it.
//
// # Delivery contract
//
// A frame may be simulated several times: once with predicted inputs and
// again after each correction. The engine compares what each simulation of
// a frame emitted with what it already delivered for that frame, and at the
// end of Advance reports in Ready.Effects only the effects not delivered
// before, and in Ready.Cancelled those delivered earlier that the newest
// simulation no longer emits. So a punch sound predicted at frame 40 and
// confirmed by the real input plays once; a punch that the real input
// turns into a block is reported cancelled, and the block's sound is new.
// Effects of a frame become final when the frame is confirmed. Sync-test
// re-simulations never deliver effects.
type Effects struct {
	list    []Effect
	dropped int
}

// Emit records e. It returns false, and drops e, when the frame has already
// emitted Config.MaxEffectsPerFrame effects.
func (fx *Effects) Emit(e Effect) bool {
	if len(fx.list) == cap(fx.list) {
		fx.dropped++
		return false
	}
	fx.list = append(fx.list, e)
	return true
}

// NewEffects returns an Effects that keeps up to capacity effects (at
// least one) until Reset: for running a game's Step outside an engine, in
// a unit test of the game, a replay player or a tool. Inside a session the
// engine owns the Effects and Step only emits into it.
func NewEffects(capacity int) *Effects {
	return &Effects{list: make([]Effect, 0, max(capacity, 1))}
}

// Reset forgets the effects emitted so far and the count of dropped ones,
// keeping the capacity.
func (fx *Effects) Reset() { fx.reset() }

// Dropped returns how many effects Emit dropped since the last Reset
// because the capacity was reached.
func (fx *Effects) Dropped() int { return fx.dropped }

// Len returns the number of effects emitted so far in this Step.
func (fx *Effects) Len() int { return len(fx.list) }

// At returns the i-th effect emitted in this Step.
func (fx *Effects) At(i int) Effect { return fx.list[i] }

func (fx *Effects) reset() {
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
	list  []Effect
}

type effectSlot struct {
	frame Frame
	used  bool
	count int32
}

func newEffectTracker(minSlots, perFrame int) effectTracker {
	n := 1
	for n < minSlots {
		n *= 2
	}
	return effectTracker{mask: n - 1, per: perFrame, slots: make([]effectSlot, n), list: make([]Effect, n*perFrame)}
}

// empty reports whether no effect was delivered for frame f, and marks
// the slot as holding f with no effects (what record would do when Step
// emitted none). It is the inlinable fast path of record.
func (t *effectTracker) empty(f Frame) bool {
	s := &t.slots[int(f)&t.mask]
	if s.count != 0 && s.frame == f && s.used {
		return false
	}
	*s = effectSlot{frame: f, used: true}
	return true
}

// record compares the effects fx emitted for frame f with those delivered
// before for f, and appends the differences to fresh and cancelled.
func (t *effectTracker) record(f Frame, fx *Effects, fresh, cancelled []FrameEffect) ([]FrameEffect, []FrameEffect) {
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
			fresh = append(fresh, FrameEffect{Frame: f, Effect: e})
		}
	}
	for j, o := range old {
		if matched&(1<<j) == 0 {
			cancelled = append(cancelled, FrameEffect{Frame: f, Effect: o})
		}
	}
	copy(slot, fx.list)
	return fresh, cancelled
}
