package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
)

// Scenario 2 (metamorphic): the final state after F frames is the same for
// every D in {0,1,3,8}, W in {0,1,8} and delivery schedule, also when the
// peers of one match use different (D, W).
func TestScenarioMetamorphic(t *testing.T) {
	const end = 240
	type dw struct{ d, w int }
	var combos []dw
	for _, d := range []int{0, 1, 3, 8} {
		for _, w := range []int{0, 1, 8} {
			combos = append(combos, dw{d, w})
		}
	}
	schedules := []struct {
		name string
		l    link
	}{
		{"instant", link{latency: 0}},
		{"steady50ms", link{latency: 50 * time.Millisecond}},
		{"jitter-loss", link{latency: 20 * time.Millisecond, jitter: 90 * time.Millisecond, loss: 150}},
	}
	want := refRun(3, end, func(p int, f core.Frame) testInput { return genInput(7, p, f) })
	check := func(t *testing.T, h *harness) {
		t.Helper()
		h.run(100000)
		h.checkAgreement()
		if *h.nodes[0].eng.State() != want {
			t.Fatal("final state differs from the oracle")
		}
	}
	for _, s := range schedules {
		for _, c := range combos {
			t.Run(fmt.Sprintf("%s/D%d-W%d", s.name, c.d, c.w), func(t *testing.T) {
				h := newHarness(t, 3, 7, end, func(i int, cfg *Config) {
					cfg.InputDelay, cfg.Prediction = c.d, c.w
				})
				h.setLinks(s.l)
				check(t, h)
			})
		}
		for k := 0; k < 4; k++ {
			t.Run(fmt.Sprintf("%s/mixed%d", s.name, k), func(t *testing.T) {
				h := newHarness(t, 3, 7, end, func(i int, cfg *Config) {
					c := combos[(i*5+k*7)%len(combos)]
					cfg.InputDelay, cfg.Prediction = c.d, c.w
				})
				h.setLinks(s.l)
				check(t, h)
			})
		}
	}
}

// Scenario 7: no false-positive desync in 10,000 frames of random delivery
// with deep rollbacks.
func TestScenarioNoFalseDesync(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 frames")
	}
	const end = 10000
	h := newHarness(t, 3, 99, end, func(i int, c *Config) {
		c.InputDelay, c.Prediction = 0, 8
	})
	h.setLinks(link{latency: 10 * time.Millisecond, jitter: 120 * time.Millisecond, loss: 100})
	h.run(200000)
	h.checkAgreement()
	deep := uint64(0)
	for _, nd := range h.nodes {
		st := nd.eng.Stats()
		for d := 6; d < len(st.RollbackDepth); d++ {
			deep += st.RollbackDepth[d]
		}
		if st.Desyncs != 0 {
			t.Fatalf("desyncs reported: %d", st.Desyncs)
		}
		if len(nd.sums) < end/2 {
			t.Fatalf("only %d frames compared", len(nd.sums))
		}
	}
	if deep < 100 {
		t.Fatalf("only %d rollbacks of depth 6 or more: not deep enough to prove anything", deep)
	}
}
