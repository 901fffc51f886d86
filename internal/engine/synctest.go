package engine

import (
	"math/bits"

	"github.com/rollstep/rollstep/core"
)

// Sync test: after every new frame f, the engine loads the saved state
// before frame f-k+1, re-simulates frames f-k+1..f with the inputs they
// were first simulated with, and compares the checksum after each frame
// with the first simulation's. A deterministic Step always matches; a
// mismatch raises one SyncTestEvent naming the first bad frame and the
// differing fields (state.Diff).

// The distance in effect is k = min(Config.SyncTest, W), so the sync test
// never rolls back further than a real rollback can: SetPrediction lowering
// W below Config.SyncTest shortens it, W = 0 suspends it (a lockstep engine
// never loads a state), and raising W again lengthens it back, up to
// Config.SyncTest. Stats.SyncTest reports it.

// The sparse schedule (Config.SyncTestSparse) re-simulates the k frames
// since the last check once every k frames instead: each frame is checked
// once, for about one extra Step a frame instead of k. Its blocks start at
// frame from; a change of distance first checks the frames since the last
// check (fewer than the old k, so never deeper than the old distance) and
// starts the new blocks at the current frame, so no frame simulated at a
// distance above 0 goes unchecked or is checked twice.

// syncTester keeps the checksums of the newest frames' first simulation.
// sums[f & mask] is the checksum after frame f, valid when
// frames[f & mask] == f; the arrays have a power-of-two length above
// limit (Config.SyncTest), so no division is taken per frame. k is the
// distance in effect, at most limit. from is the first frame whose start
// state was saved for the sync test (the frame where k last rose from
// 0): it never loads an earlier one. With sparse, frames upto+1..frame-1,
// fewer than k, are those not checked yet: upto is the newest frame
// checked, or from-1 before the first check.
type syncTester struct {
	k      int
	limit  int
	from   core.Frame
	sparse bool
	upto   core.Frame
	mask   core.Frame
	sums   []uint64
	frames []core.Frame
	failed bool
	fx     EffectList
}

// init sets up a tester for Config.SyncTest = limit, the schedule and
// window w.
func (t *syncTester) init(limit int, sparse bool, w int) {
	t.limit, t.sparse, t.upto = limit, sparse, -1
	if limit == 0 {
		return
	}
	n := 1 << bits.Len(uint(limit)) // > limit
	t.mask = core.Frame(n - 1)
	t.sums = make([]uint64, n)
	t.frames = make([]core.Frame, n)
	t.fx.list = make([]core.Effect, 0, maxEffectsLimit)
	t.k = min(limit, w)
	t.forget()
}

// syncWindow makes the sync test's distance min(Config.SyncTest, w) from
// the current frame on. When it changes, the sparse schedule first checks
// the frames since its last check, at the old distance, whose states are
// saved now (after a suspension they would not be). Rising from 0, the
// records are forgotten and the tests start at the current frame: the
// states before it were not saved, and a rollback during the suspension
// re-simulated frames without recording them.
func (e *Engine[S, I]) syncWindow(w int) {
	t := &e.synct
	k := min(t.limit, w)
	if k == t.k {
		return
	}
	if t.sparse && t.k > 0 && t.upto < e.frame-1 {
		e.resim(t.upto+1, e.frame-1)
	}
	if t.k == 0 {
		t.from = e.frame
		t.forget()
	}
	t.k, t.upto = k, e.frame-1
}

// forget drops every recorded checksum.
func (t *syncTester) forget() {
	for i := range t.frames {
		t.frames[i] = -1
	}
}

func (t *syncTester) record(f core.Frame, sum uint64) {
	i := f & t.mask
	t.sums[i], t.frames[i] = sum, f
}

func (t *syncTester) get(f core.Frame) (uint64, bool) {
	i := f & t.mask
	return t.sums[i], t.frames[i] == f
}

// syncTest runs after each new frame. The dense schedule re-simulates the
// newest k frames; the sparse one, once k frames have passed since its last
// check, the frames since it (k of them).
func (e *Engine[S, I]) syncTest() {
	t := &e.synct
	last := e.frame - 1
	if !t.sparse {
		e.resim(max(last-core.Frame(t.k)+1, t.from), last)
		return
	}
	if last-t.upto >= core.Frame(t.k) {
		first := t.upto + 1 // >= from
		t.upto = last
		e.resim(first, last)
	}
}

// resim loads the state before frame first, re-simulates frames
// first..last with the inputs of their first simulation and compares each
// checksum with the recorded one, raising a SyncTestEvent for the first
// that differs.
func (e *Engine[S, I]) resim(first, last core.Frame) {
	t := &e.synct
	if err := e.ring.Load(int32(first), e.scratch); err != nil {
		return
	}
	e.stats.SyncTestFrames += uint64(last - first + 1)
	for g := first; g <= last; g++ {
		for p := 0; p < e.players; p++ {
			e.stepIn[p], e.stepCtl[p] = e.used[e.idx(p, g)], e.usedCtl[e.idx(p, g)]
		}
		t.fx.reset()
		e.run(e.scratch, g, e.stepIn[:e.players], e.stepCtl[:e.players], &t.fx)
		want, ok := t.get(g)
		if !ok {
			continue
		}
		got := checksumOf(e.scratch)
		if got == want || t.failed {
			continue
		}
		t.failed = true
		ev := core.SyncTestEvent{Frame: g, First: want, Again: got}
		if orig, ok := e.stateAfter(g); ok {
			ev.Paths = diffPathsOf(orig, e.scratch, maxPaths)
		}
		e.event(ev)
		return
	}
}
