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
// once, for about one extra Step a frame instead of k.

// syncTester keeps the checksums of the newest frames' first simulation.
// sums[f & mask] is the checksum after frame f, valid when
// frames[f & mask] == f; the arrays have a power-of-two length above
// limit (Config.SyncTest), so no division is taken per frame. k is the
// distance in effect, at most limit. from is the first frame whose start
// state was saved for the sync test (the frame where k last rose from
// 0): it never loads an earlier one. With sparse, upto is the newest
// frame checked (from-1 before the first check).
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

// setWindow makes the distance in effect min(limit, w) from frame f on.
// When it changes, the recorded checksums are forgotten: frames simulated
// while it was 0 were not recorded, and a re-simulation then may have left
// an older record stale.
func (t *syncTester) setWindow(w int, f core.Frame) {
	k := min(t.limit, w)
	if k == t.k {
		return
	}
	if t.k == 0 {
		t.from, t.upto = f, f-1 // the states before f were not saved
	}
	t.k = k
	t.forget()
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

// syncTest re-simulates the newest k frames and compares checksums; with
// the sparse schedule, only once k frames have passed since the last
// check, and then the frames since it.
func (e *Engine[S, I]) syncTest() {
	t := &e.synct
	last := e.frame - 1
	first := max(last-core.Frame(t.k)+1, t.from)
	if t.sparse {
		if last-t.upto < core.Frame(t.k) {
			return
		}
		first = max(first, t.upto+1)
		t.upto = last
	}
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
