package engine

import (
	"fmt"
	"slices"
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/testenv"
)

// hpPaths returns the paths of the 16 Units[i].HP fields that
// nudgeScattered changes.
func hpPaths() []string {
	var p []string
	for i := range maxPaths {
		p = append(p, fmt.Sprintf("Units[%d].HP", 1000+i*300))
	}
	return p
}

// nudgeScattered changes 16 fields scattered over a bigState.
func nudgeScattered(s *bigState) {
	for i := range maxPaths {
		s.Units[1000+i*300].HP++
	}
}

// With 10 % loss the peers often detect the desync at different frames
// (checksum reports arrive out of order), so each answers a query about a
// frame it holds no detection copy of. The answerer keeps a copy of that
// state on the first such query, so a search of 16 scattered fields, which
// outlives the retained snapshots (SnapshotRetention 16), still names all
// of them on both peers. 8 seeds (16 in the soak run).
func TestScenarioNarrowSplitDetection(t *testing.T) {
	split, seeds := 0, testenv.Pick[uint64](8, 16)
	for seed := uint64(1); seed <= seeds; seed++ {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			net := newBigNet(t, seed, 150, func(i int, c *Config) {}, 61, nudgeScattered)
			peak := 0 // copies held by a node to answer the other's search
			for k := 0; ; k++ {
				if net.nodes[0].eng.Frame() >= net.end && net.nodes[1].eng.Frame() >= net.end && !net.searching() {
					break
				}
				if k == 5000 {
					t.Fatal("not done after 5000 ticks")
				}
				net.step()
				for _, nd := range net.nodes {
					peak = max(peak, nd.eng.lentCopies())
				}
			}
			var frames [2]core.Frame
			for i, nd := range net.nodes {
				ds, fs := nd.desyncs()
				if len(ds) != 1 || len(fs) != 1 {
					t.Fatalf("node %d: %d desync and %d field events, want 1 and 1", i, len(ds), len(fs))
				}
				frames[i] = ds[0].Frame
				got := fs[0]
				t.Logf("node %d: desync at %d, %d of 16 fields named in %d queries (%s)", i, got.Frame, len(got.Paths), nd.eng.peers[0].hunt.queries, got.Reason)
				if got.Incomplete || !slices.Equal(got.Paths, hpPaths()) {
					t.Errorf("node %d: fields %+v, want all 16 HP fields", i, got)
				}
			}
			if frames[0] != frames[1] {
				split++
				if peak != 1 {
					t.Errorf("detected at frames %d and %d: %d copies held to answer, want 1", frames[0], frames[1], peak)
				}
			} else if peak != 0 {
				t.Errorf("detected at one frame: %d copies held to answer, want 0", peak)
			}
			for i, nd := range net.nodes {
				if n := nd.eng.lentCopies(); n != 0 {
					t.Errorf("node %d holds %d copies for answering after both searches ended, want 0", i, n)
				}
			}
		})
	}
	if split == 0 {
		t.Fatal("no seed made the peers detect the desync at different frames")
	}
	t.Logf("%d of %d seeds detected at different frames", split, seeds)
}
