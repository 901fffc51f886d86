package engine

import (
	"fmt"
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/rollstep/rollstep/core"
)

// Scenario 6: a one-unit nudge of one peer's state at frame 61 is reported
// at frame 61 with N = 1, and at 70 ("between 61 and 70") with N = 10,
// with the nudged field's path.
func TestScenarioNudgeDetection(t *testing.T) {
	nudgePath, _ := fieldAtOf[testState](int(unsafe.Offsetof(testState{}.Nudge)))
	for _, tc := range []struct {
		n            int
		frame, since core.Frame
		latency      time.Duration
		retain       int
	}{{1, 61, 61, 30 * time.Millisecond, 0}, {10, 70, 61, 30 * time.Millisecond, 0}, {1, 61, 61, 400 * time.Millisecond, 0}} {
		for _, w := range []int{0, 8} {
			t.Run(fmt.Sprintf("N%d/W%d/%v", tc.n, w, tc.latency), func(t *testing.T) {
				h := newHarness(t, 2, 3, 200, func(i int, c *Config) {
					c.ChecksumInterval, c.Prediction, c.InputDelay = tc.n, w, 1
					c.SnapshotRetention = tc.retain
				})
				h.nodes[0].game.nudge, h.nodes[0].game.nudgeAt = true, 61
				h.setLinks(link{latency: tc.latency, jitter: 40 * time.Millisecond, loss: 50})
				h.run(100000)
				for i, nd := range h.nodes {
					var desyncs []core.DesyncEvent[testState]
					var fields []core.DesyncFieldsEvent
					for _, ev := range nd.events {
						switch ev := ev.(type) {
						case core.DesyncEvent[testState]:
							desyncs = append(desyncs, ev)
						case core.DesyncFieldsEvent:
							fields = append(fields, ev)
						}
					}
					if len(desyncs) != 1 {
						t.Fatalf("node %d: %d desync events, want 1", i, len(desyncs))
					}
					d := desyncs[0]
					if d.Frame != tc.frame || d.Since != tc.since || d.Local == d.Remote {
						t.Fatalf("node %d: desync at %d since %d (sums %x %x), want at %d since %d", i, d.Frame, d.Since, d.Local, d.Remote, tc.frame, tc.since)
					}
					if d.Snapshot == nil || d.Snapshot.Frame != int32(tc.frame)+1 {
						t.Fatalf("node %d: snapshot missing or of the wrong frame", i)
					}
					if len(fields) != 1 || fields[0].Frame != tc.frame || !slices.Equal(fields[0].Paths, []string{nudgePath}) || fields[0].Incomplete {
						t.Fatalf("node %d: field events %+v, want one at frame %d naming only %q", i, fields, tc.frame, nudgePath)
					}
				}
			})
		}
	}
}

// In a mesh of three, a nudge on node 0 is named exactly by every pair
// that involves node 0, and the other pair sees no desync.
func TestScenarioNudgeMesh(t *testing.T) {
	for _, w := range []int{0, 8} {
		t.Run(fmt.Sprintf("W%d", w), func(t *testing.T) {
			h := newHarness(t, 3, 5, 200, func(i int, c *Config) { c.Prediction, c.MaxPrediction = w, w })
			h.nodes[0].game.nudge, h.nodes[0].game.nudgeAt = true, 61
			h.setLinks(link{latency: 30 * time.Millisecond, jitter: 40 * time.Millisecond, loss: 50})
			h.run(100000)
			for i, nd := range h.nodes {
				var got []string
				for _, ev := range nd.events {
					switch ev := ev.(type) {
					case core.DesyncEvent[testState]:
						got = append(got, fmt.Sprintf("desync %d@%d", nd.peerNode[ev.Peer], ev.Frame))
					case core.DesyncFieldsEvent:
						got = append(got, fmt.Sprintf("fields %d@%d %v %v", nd.peerNode[ev.Peer], ev.Frame, ev.Paths, ev.Incomplete))
					}
				}
				slices.Sort(got)
				want := []string{"desync 0@61", "fields 0@61 [Nudge] false"}
				if i == 0 {
					want = []string{"desync 1@61", "desync 2@61", "fields 1@61 [Nudge] false", "fields 2@61 [Nudge] false"}
				}
				if !slices.Equal(got, want) {
					t.Fatalf("node %d: events %q, want %q", i, got, want)
				}
			}
		})
	}
}

// Scenario 8: the sync test catches a Step that reads a package-level
// counter and names the first bad frame; a deterministic Step passes.
func TestScenarioSyncTest(t *testing.T) {
	run := func(t *testing.T, g *testGame, k int) []core.SyncTestEvent {
		e := allLocal(t, g, 8, 8, k)
		evs := stepLocal(t, e, 200)
		if st := e.Stats(); st.SyncTestFrames == 0 {
			t.Fatal("sync test re-simulated nothing")
		}
		return evs
	}
	for _, k := range []int{1, 2, 8} {
		t.Run(fmt.Sprintf("deterministic/k%d", k), func(t *testing.T) {
			if evs := run(t, &testGame{}, k); len(evs) != 0 {
				t.Fatalf("deterministic step reported: %+v", evs[0])
			}
		})
		t.Run(fmt.Sprintf("counter/k%d", k), func(t *testing.T) {
			evs := run(t, &testGame{nondet: true, nondetAfter: 50}, k)
			if len(evs) != 1 || evs[0].Frame != 50 || evs[0].First == evs[0].Again {
				t.Fatalf("events %+v, want one naming frame 50", evs)
			}
			if !slices.Contains(evs[0].Paths, "Acc") {
				t.Fatalf("paths %v do not name Acc", evs[0].Paths)
			}
		})
	}
}
