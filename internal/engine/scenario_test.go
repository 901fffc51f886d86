package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
)

// Scenario 1: engines fed the same inputs reach identical states and
// checksums at every confirmed frame, equal to a sequential oracle.
func TestScenarioIdenticalStates(t *testing.T) {
	for _, n := range []int{2, 4, 8} {
		for _, mode := range []struct {
			name string
			d, w int
		}{{"lockstep", 2, 0}, {"rollback", 1, 8}} {
			t.Run(fmt.Sprintf("%dpeers/%s", n, mode.name), func(t *testing.T) {
				const end = 600
				h := newHarness(t, n, 11, end, func(i int, c *Config) {
					c.InputDelay, c.Prediction = mode.d, mode.w
				})
				h.setLinks(link{latency: 40 * time.Millisecond, jitter: 30 * time.Millisecond, loss: 50})
				h.run(20000)
				h.checkAgreement()
				want, effects := refRunEffects(n, end, h.input)
				if got := *h.nodes[0].eng.State(); got != want {
					t.Fatalf("final state differs from the sequential oracle")
				}
				// Effects: each delivered once, net of cancellations.
				for fe, k := range effects {
					if got := h.nodes[0].played[fe]; got != k {
						t.Fatalf("effect %+v played %d times, want %d", fe, got, k)
					}
				}
				for fe, k := range h.nodes[0].played {
					if k != 0 && effects[fe] == 0 {
						t.Fatalf("effect %+v still playing, the oracle never emitted it", fe)
					}
				}
				// Input log: the newest 64 confirmed frames.
				e := h.nodes[0].eng
				start, lend := e.LogRange()
				if lend != end || start != end-64 {
					t.Fatalf("log range [%d,%d), want [%d,%d)", start, lend, end-64, end)
				}
				var buf []core.Input[testInput]
				for f := start; f < lend; f++ {
					buf, err := e.ReadLog(f, buf[:0])
					if err != nil {
						t.Fatal(err)
					}
					for p, in := range buf {
						if in.Status != core.InputConfirmed || in.Value != h.input(p, f) {
							t.Fatalf("log frame %d player %d: %+v, want %d confirmed", f, p, in, h.input(p, f))
						}
					}
				}
				if _, err := e.ReadLog(start-1, nil); err != ErrFrameNotLogged {
					t.Fatalf("ReadLog before the range: %v, want ErrFrameNotLogged", err)
				}
				if len(h.nodes[0].sums) < end/2 {
					t.Fatalf("only %d confirmed checksums recorded", len(h.nodes[0].sums))
				}
			})
		}
	}
}

// Scenario 5: W = 0 never steps without every input, and never saves or
// loads a state.
func TestScenarioLockstepNeverPredicts(t *testing.T) {
	for _, tc := range []struct{ n, maxPred int }{{2, 0}, {3, 0}, {3, 8}} {
		n := tc.n
		t.Run(fmt.Sprintf("%dpeers/maxW%d", n, tc.maxPred), func(t *testing.T) {
			const end = 300
			h := newHarness(t, n, 5, end, func(i int, c *Config) {
				c.InputDelay, c.Prediction, c.MaxPrediction = 1+i, 0, tc.maxPred
			})
			h.setLinks(link{latency: 70 * time.Millisecond, jitter: 60 * time.Millisecond, loss: 100})
			h.run(40000)
			h.checkAgreement()
			for i, nd := range h.nodes {
				st := nd.eng.Stats()
				if nd.game.sawPredict || nd.game.sawUnknown {
					t.Errorf("node %d: Step saw a predicted or unknown input", i)
				}
				// (The rollstep_synctest tag makes engines with a ring save
				// every frame for the sync test; only then are saves fine.)
				if nd.eng.cfg.SyncTest == 0 && (st.Saves != 0 || st.Loads != 0) || (tc.maxPred == 0 && nd.eng.ring != nil) {
					t.Errorf("node %d: saves %d loads %d, ring allocated %v", i, st.Saves, st.Loads, nd.eng.ring != nil)
				}
				if nd.eng.cfg.SyncTest == 0 && nd.game.steps != end {
					t.Errorf("node %d: Step ran %d times for %d frames", i, nd.game.steps, end)
				}
				if nd.stalls == 0 {
					t.Errorf("node %d: never stalled at 70 ms latency, so the test proves nothing", i)
				}
			}
		})
	}
}
