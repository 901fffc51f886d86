//go:build rollstep_synctest

package engine

import "testing"

// With the rollstep_synctest tag every engine that can roll back sync-tests.
func TestSyncTestTagTurnsItOn(t *testing.T) {
	e, err := NewEngine[testState, testInput](DefaultConfig(), &testGame{}, &testState{})
	if err != nil {
		t.Fatal(err)
	}
	if e.cfg.SyncTest != DefaultSyncTest || DefaultSyncTest == 0 {
		t.Fatalf("SyncTest %d with the tag, want %d", e.cfg.SyncTest, DefaultSyncTest)
	}
}

// With the tag, a lockstep engine that may predict later (the lockstep
// front end's hybrid: W = 0, MaxPrediction 8) is configured for the sync
// test but runs it only while W > 0, at distance min(DefaultSyncTest, W).
func TestSyncTestTagFollowsPrediction(t *testing.T) {
	e := allLocal(t, &testGame{}, 0, 8, 0)
	if e.cfg.SyncTest != DefaultSyncTest {
		t.Fatalf("SyncTest %d with the tag, want %d", e.cfg.SyncTest, DefaultSyncTest)
	}
	for _, tc := range []struct{ w, want int }{{0, 0}, {1, 1}, {8, DefaultSyncTest}, {0, 0}} {
		if err := e.SetPrediction(tc.w); err != nil {
			t.Fatal(err)
		}
		before := e.Stats()
		stepLocal(t, e, 10)
		st := e.Stats()
		if st.SyncTest != tc.want || (st.SyncTestFrames > before.SyncTestFrames) != (tc.want > 0) || (tc.want == 0 && st.Saves != before.Saves) {
			t.Fatalf("W %d: distance %d, %d frames re-simulated, %d saved; want distance %d", tc.w, st.SyncTest,
				st.SyncTestFrames-before.SyncTestFrames, st.Saves-before.Saves, tc.want)
		}
	}
}
