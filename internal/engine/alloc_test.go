package engine

import (
	"fmt"
	"testing"

	"github.com/rollstep/rollstep/core"
)

// Hot paths allocate nothing after warm-up: 2 and 4 players, with and
// without rollbacks, with desync detection on.
func TestZeroAllocsPerFrame(t *testing.T) {
	for _, n := range []int{2, 4} {
		for _, tc := range []struct {
			name       string
			d, w, lag  int
			change     core.Frame
			wantRollbk bool
		}{
			{"no-rollback", 1, 8, 0, 4, false},
			{"lockstep", 2, 0, 1, 1, false},
			{"rollback", 0, 8, 6, 1, true},
			{"rollback+effects", 0, 8, 6, 1, true},
		} {
			t.Run(fmt.Sprintf("%dplayers/%s", n, tc.name), func(t *testing.T) {
				b := newBench(n, tc.d, tc.w, tc.lag, tc.change, nil)
				if tc.name == "rollback+effects" {
					for _, e := range b.engs {
						e.game.(*testGame).effects = true
					}
				}
				for k := 0; k < 300; k++ {
					b.step()
				}
				allocs := testing.AllocsPerRun(500, b.step)
				st := b.engs[0].Stats()
				if allocs != 0 {
					t.Fatalf("%v allocations per frame", allocs)
				}
				if (st.Rollbacks > 0) != tc.wantRollbk {
					t.Fatalf("rollbacks %d, want some: %v", st.Rollbacks, tc.wantRollbk)
				}
				if st.Frame < 700 || st.Checksums < 600 {
					t.Fatalf("frame %d checksums %d: the engines did not run", st.Frame, st.Checksums)
				}
			})
		}
	}
}
