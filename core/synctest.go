package core

// Sync test: after every new frame f, the engine loads the saved state
// before frame f-k+1, re-simulates frames f-k+1..f with the inputs they
// were first simulated with, and compares the checksum after each frame
// with the first simulation's. A deterministic Step always matches; a
// mismatch raises one SyncTestEvent naming the first bad frame and the
// differing fields (state.Diff).

// syncTester keeps the checksums of the newest frames' first simulation.
// sums[f mod len] is the checksum after frame f, valid when frames[...]==f.
type syncTester struct {
	k      int
	sums   []uint64
	frames []Frame
	failed bool
	fx     Effects
}

func (t *syncTester) init(k int) {
	t.k = k
	if k == 0 {
		return
	}
	t.sums = make([]uint64, k+1)
	t.frames = make([]Frame, k+1)
	for i := range t.frames {
		t.frames[i] = -1
	}
	t.fx.list = make([]Effect, 0, maxEffectsLimit)
}

func (t *syncTester) record(f Frame, sum uint64) {
	i := int(f) % len(t.sums)
	t.sums[i], t.frames[i] = sum, f
}

func (t *syncTester) get(f Frame) (uint64, bool) {
	i := int(f) % len(t.sums)
	return t.sums[i], t.frames[i] == f
}

// syncTest re-simulates the newest k frames and compares checksums.
func (e *Engine[S, I]) syncTest() {
	t := &e.synct
	last := e.frame - 1
	first := max(last-Frame(t.k)+1, 0)
	if err := e.ring.Load(int32(first), e.scratch); err != nil {
		return
	}
	e.stats.SyncTestFrames += uint64(last - first + 1)
	for g := first; g <= last; g++ {
		for p := 0; p < e.players; p++ {
			e.stepIn[p] = e.used[e.idx(p, g)]
		}
		t.fx.reset()
		e.game.Step(e.scratch, e.stepIn, &t.fx)
		want, ok := t.get(g)
		if !ok {
			continue
		}
		got := checksumOf(e.scratch)
		if got == want || t.failed {
			continue
		}
		t.failed = true
		ev := SyncTestEvent{Frame: g, First: want, Again: got}
		if orig, ok := e.stateAfter(g); ok {
			ev.Paths = diffPathsOf(orig, e.scratch, maxPaths)
		}
		e.event(ev)
		return
	}
}
