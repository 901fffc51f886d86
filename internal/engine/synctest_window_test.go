package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
)

// allLocal is an engine whose players are all local, so every frame is
// confirmed as soon as it is stepped and only the sync test loads states.
func allLocal(t *testing.T, g *testGame, w, maxW, k int) *Engine[testState, testInput] {
	t.Helper()
	c := Config{Players: 2, Local: []core.PlayerHandle{0, 1}, Prediction: w, MaxPrediction: maxW, SyncTest: k}
	e, err := NewEngine[testState, testInput](c, g, &testState{})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// stepLocal steps an all-local engine n frames and returns the sync-test
// events.
func stepLocal(t *testing.T, e *Engine[testState, testInput], n int) []core.SyncTestEvent {
	t.Helper()
	var evs []core.SyncTestEvent
	for range n {
		f := e.Frame()
		_ = e.AddLocalInput(0, genInput(1, 0, f))
		_ = e.AddLocalInput(1, genInput(1, 1, f))
		r := e.Advance(time.Duration(f) * time.Millisecond)
		if !r.Stepped {
			t.Fatalf("frame %d not stepped", f)
		}
		for _, ev := range r.Events {
			if s, ok := ev.(core.SyncTestEvent); ok {
				evs = append(evs, s)
			}
		}
	}
	return evs
}

// The sync test's distance is min(Config.SyncTest, W) from construction on.
func TestSyncTestDistanceAtConstruction(t *testing.T) {
	for _, tc := range []struct{ w, maxW, k, want int }{
		{8, 8, 4, 4}, {2, 8, 4, 2}, {0, 8, 4, 0}, {4, 4, 4, 4},
	} {
		t.Run(fmt.Sprintf("W%d/k%d", tc.w, tc.k), func(t *testing.T) {
			e := allLocal(t, &testGame{}, tc.w, tc.maxW, tc.k)
			if got := e.Stats().SyncTest; got != tc.want {
				t.Fatalf("Stats.SyncTest %d, want %d", got, tc.want)
			}
			const n = 40
			stepLocal(t, e, n)
			st := e.Stats()
			// Frame f re-simulates min(f+1, k) frames.
			want := uint64(0)
			for f := range n {
				want += uint64(min(f+1, tc.want))
			}
			if st.SyncTestFrames != want {
				t.Fatalf("%d frames re-simulated, want %d", st.SyncTestFrames, want)
			}
			if tc.want == 0 && (st.Saves != 0 || st.Loads != 0) {
				t.Fatalf("W = 0: %d saves, %d loads; a suspended sync test saves nothing", st.Saves, st.Loads)
			}
		})
	}
}

// SetPrediction moves the distance in effect: lowering W below k shortens
// it, W = 0 suspends it, raising W lengthens it back up to k; and it still
// catches a non-deterministic Step after a suspension.
func TestSyncTestDistanceFollowsSetPrediction(t *testing.T) {
	g := &testGame{}
	e := allLocal(t, g, 8, 8, 4)
	// ramp: the phase starts from a state with nothing saved (frame 0, or
	// after a suspension), so frame i of it re-simulates min(i+1, k).
	phase := func(w, want, n int, ramp bool) {
		t.Helper()
		if err := e.SetPrediction(w); err != nil {
			t.Fatal(err)
		}
		if got := e.Stats().SyncTest; got != want {
			t.Fatalf("W %d: Stats.SyncTest %d, want %d", w, got, want)
		}
		before := e.Stats()
		if evs := stepLocal(t, e, n); len(evs) != 0 {
			t.Fatalf("W %d: sync test failed for a deterministic Step: %+v", w, evs[0])
		}
		after := e.Stats()
		wantFrames := uint64(want * n)
		if ramp {
			wantFrames = 0
			for i := range n {
				wantFrames += uint64(min(i+1, want))
			}
		}
		if got := after.SyncTestFrames - before.SyncTestFrames; got != wantFrames {
			t.Fatalf("W %d: %d frames re-simulated in %d frames, want %d", w, got, n, wantFrames)
		}
		if want == 0 && after.Saves != before.Saves {
			t.Fatalf("W 0: %d states saved", after.Saves-before.Saves)
		}
	}
	phase(8, 4, 20, true)
	phase(2, 2, 20, false)
	phase(0, 0, 20, false)
	phase(8, 4, 20, true)
	if err := e.SetPrediction(9); err == nil {
		t.Fatal("SetPrediction past MaxPrediction accepted")
	}
	g.nondet, g.nondetAfter = true, e.Frame()+5
	evs := stepLocal(t, e, 20)
	if len(evs) != 1 || evs[0].Frame != g.nondetAfter {
		t.Fatalf("after the suspension: events %+v, want one at frame %d", evs, g.nondetAfter)
	}
}

// Frames re-simulated by a rollback while the sync test is suspended are
// not compared with checksums recorded before the suspension.
func TestSyncTestForgetsAcrossSuspension(t *testing.T) {
	c := Config{Players: 2, Local: []core.PlayerHandle{0}, Peers: [][]core.PlayerHandle{{1}}, Prediction: 8, MaxPrediction: 8, SyncTest: 2}
	e, err := NewEngine[testState, testInput](c, &testGame{}, &testState{})
	if err != nil {
		t.Fatal(err)
	}
	for f := range 6 { // frames 0..5, player 1 predicted as 0
		_ = e.AddLocalInput(0, 1)
		e.Advance(time.Duration(f) * time.Millisecond)
	}
	if err := e.SetPrediction(0); err != nil {
		t.Fatal(err)
	}
	m := &Message[Slot[testInput]]{Frame: 6, Inputs: []InputRun[Slot[testInput]]{{Player: 1, Values: slots(5, 5, 5, 5, 5, 5)}}}
	if err := e.Receive(6*time.Millisecond, 0, m); err != nil {
		t.Fatal(err)
	}
	r := e.Advance(7 * time.Millisecond) // rolls back 0..5, cannot step frame 6 at W = 0
	if !r.RolledBack || r.Stepped {
		t.Fatalf("rolled back %v stepped %v, want a rollback and a stall", r.RolledBack, r.Stepped)
	}
	if err := e.SetPrediction(8); err != nil {
		t.Fatal(err)
	}
	for f := range 5 {
		_ = e.AddLocalInput(0, 1)
		for _, ev := range e.Advance(time.Duration(8+f) * time.Millisecond).Events {
			if s, ok := ev.(core.SyncTestEvent); ok {
				t.Fatalf("false sync-test failure at frame %d", s.Frame)
			}
		}
	}
	if e.Stats().SyncTestFrames == 0 {
		t.Fatal("the sync test did not resume")
	}
}
