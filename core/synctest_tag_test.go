//go:build rollstep_synctest

package core

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
