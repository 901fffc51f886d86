package engine

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/core"
)

// sparseLocal is allLocal with the sparse schedule.
func sparseLocal(t *testing.T, g *testGame, w, k int) *Engine[testState, testInput] {
	t.Helper()
	c := Config{Players: 2, Local: []core.PlayerHandle{0, 1}, Prediction: w, MaxPrediction: w, SyncTest: k, SyncTestSparse: true}
	e, err := NewEngine[testState, testInput](c, g, &testState{})
	require.NoError(t, err)
	return e
}

// The sparse schedule re-simulates each frame once: n frames cost n
// re-simulated frames (the last partial block not yet), where the dense
// one costs about n·k.
func TestSyncTestSparseCost(t *testing.T) {
	const n = 100
	for _, k := range []int{1, 2, 3, 8} {
		t.Run(fmt.Sprintf("k%d", k), func(t *testing.T) {
			sparse := sparseLocal(t, &testGame{}, 8, k)
			dense := allLocal(t, &testGame{}, 8, 8, k)
			require.Empty(t, stepLocal(t, sparse, n))
			require.Empty(t, stepLocal(t, dense, n))
			assert.Equal(t, uint64(n/k*k), sparse.Stats().SyncTestFrames)
			wantDense := uint64(0)
			for f := range n {
				wantDense += uint64(min(f+1, k))
			}
			assert.Equal(t, wantDense, dense.Stats().SyncTestFrames)
			assert.Equal(t, k, sparse.Stats().SyncTest)
		})
	}
}

// A Step that is non-deterministic in one frame only is caught at that
// frame wherever the frame falls in the sparse schedule's blocks.
func TestSyncTestSparseChecksEveryFrame(t *testing.T) {
	const k = 4
	for at := core.Frame(8); at < 8+2*k; at++ {
		t.Run(fmt.Sprintf("frame%d", at), func(t *testing.T) {
			g := &testGame{}
			var calls int
			g.onStep = func(s *testState, _ []core.Input[testInput]) {
				if core.Frame(s.Frame) == at {
					calls++
					s.Nudge += int64(calls) // differs on every simulation of frame at
				}
			}
			e := sparseLocal(t, g, 8, k)
			evs := stepLocal(t, e, 40)
			require.Len(t, evs, 1)
			assert.Equal(t, at, evs[0].Frame)
			assert.Equal(t, 2, calls, "frame %d simulated once and re-simulated once", at)
		})
	}
}

// The sparse schedule follows the window as the dense one does: a lower W
// shortens its blocks, W = 0 suspends it, and after a suspension it still
// checks every frame once.
func TestSyncTestSparseFollowsSetPrediction(t *testing.T) {
	g := &testGame{}
	e := sparseLocal(t, g, 8, 4)
	phase := func(w, n int, want uint64) {
		t.Helper()
		require.NoError(t, e.SetPrediction(w))
		before := e.Stats().SyncTestFrames
		require.Empty(t, stepLocal(t, e, n))
		assert.Equal(t, want, e.Stats().SyncTestFrames-before, "W %d", w)
	}
	phase(8, 20, 20) // 5 blocks of 4
	phase(2, 20, 20) // 10 blocks of 2
	phase(0, 20, 0)
	phase(8, 20, 20)
	g.nondet, g.nondetAfter = true, e.Frame()+5
	evs := stepLocal(t, e, 20)
	require.Len(t, evs, 1)
	assert.Equal(t, g.nondetAfter, evs[0].Frame)
}

// Neither schedule allocates per frame in the steady state.
func TestSyncTestAllocatesNothing(t *testing.T) {
	for _, sparse := range []bool{false, true} {
		t.Run(fmt.Sprintf("sparse=%v", sparse), func(t *testing.T) {
			e := allLocal(t, &testGame{}, 8, 8, 4)
			if sparse {
				e = sparseLocal(t, &testGame{}, 8, 4)
			}
			stepLocal(t, e, 20)
			f := e.Frame()
			allocs := testing.AllocsPerRun(100, func() {
				_ = e.AddLocalInput(0, genInput(1, 0, f))
				_ = e.AddLocalInput(1, genInput(1, 1, f))
				e.Advance(0)
				f++
			})
			assert.Zero(t, allocs)
			assert.NotZero(t, e.Stats().SyncTestFrames)
		})
	}
}

// sparsePhase is a stretch of frames at one prediction window.
type sparsePhase struct{ w, n int }

// runSparsePhases steps a sparse engine (Config.SyncTest 4, MaxPrediction
// 8) through phases, calling SetPrediction at the start of each, and
// returns the sync-test events and, for every frame, how many times Step
// ran for it and the distance in effect when it was first simulated.
func runSparsePhases(t *testing.T, g *testGame, phases []sparsePhase) (evs []core.SyncTestEvent, sims, dist []int) {
	t.Helper()
	next := g.onStep
	g.onStep = func(s *testState, in []core.Input[testInput]) {
		for len(sims) <= int(s.Frame) {
			sims = append(sims, 0)
		}
		sims[s.Frame]++
		if next != nil {
			next(s, in)
		}
	}
	c := Config{Players: 2, Local: []core.PlayerHandle{0, 1}, Prediction: 8, MaxPrediction: 8, SyncTest: 4, SyncTestSparse: true}
	e, err := NewEngine[testState, testInput](c, g, &testState{})
	require.NoError(t, err)
	for _, ph := range phases {
		require.NoError(t, e.SetPrediction(ph.w))
		evs = append(evs, stepLocal(t, e, ph.n)...)
		for range ph.n {
			dist = append(dist, e.Stats().SyncTest)
		}
	}
	// Report what SetPrediction's check of a partial block raises too.
	require.NoError(t, e.SetPrediction(0))
	evs = append(evs, stepLocal(t, e, 1)...)
	return evs, sims, dist
}

// Window changes at every position in the sparse schedule's blocks: each
// frame simulated at a distance above 0 is re-simulated exactly once and
// compared (a Step non-deterministic at that frame alone is caught there),
// and frames simulated while the sync test is suspended are not.
func TestSyncTestSparseWindowChangesLeaveNoGap(t *testing.T) {
	for lead := 16; lead < 20; lead++ {
		// distances 4, 2, 4, 0, 3, 4, 1, 4, 4, 4 (Config.SyncTest 4)
		phases := []sparsePhase{{8, lead}, {2, 7}, {8, 5}, {0, 6}, {3, 7}, {5, 6}, {1, 3}, {8, 9}, {6, 3}, {8, 5}}
		t.Run(fmt.Sprintf("lead%d", lead), func(t *testing.T) {
			evs, sims, dist := runSparsePhases(t, &testGame{}, phases)
			require.Empty(t, evs)
			for f, k := range dist {
				want := 2
				if k == 0 {
					want = 1
				}
				require.Equal(t, want, sims[f], "Step calls for frame %d (first simulated at distance %d)", f, k)
			}
			for f, k := range dist {
				if k == 0 {
					continue
				}
				at := core.Frame(f)
				g := &testGame{}
				var calls int64
				g.onStep = func(s *testState, _ []core.Input[testInput]) {
					if core.Frame(s.Frame) == at {
						calls++
						s.Nudge += calls // differs on every simulation of frame at
					}
				}
				evs, _, _ := runSparsePhases(t, g, phases)
				require.Len(t, evs, 1, "non-determinism at frame %d", f)
				require.Equal(t, at, evs[0].Frame)
			}
		})
	}
}
