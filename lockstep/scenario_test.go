package lockstep

import (
	"fmt"
	"testing"
	"time"

	"github.com/rollstep/rollstep/transport/sim"
)

// TestScenarioAgreement runs matches of 2, 3, 4 and 8 peers over links
// from perfect to 500 ms with jitter, 25 % loss, duplication and
// reordering, and checks that every peer computes the same checksum at
// every turn, that nothing is ever predicted (no turn runs before all its
// inputs), and that every command is applied exactly once, in order.
func TestScenarioAgreement(t *testing.T) {
	links := []struct {
		name string
		link sim.LinkConfig
	}{
		{"perfect", sim.LinkConfig{}},
		{"lan", sim.LinkConfig{Latency: sim.Latency{Base: 2 * ms, Jitter: 1 * ms}}},
		{"jitter", sim.LinkConfig{Latency: sim.Latency{Base: 80 * ms, Jitter: 60 * ms}}},
		{"lossy", sim.LinkConfig{Latency: sim.Latency{Base: 50 * ms, Jitter: 10 * ms}, Loss: 0.10,
			Duplicate: 0.05, Reorder: 0.05, ReorderDelay: 30 * ms}},
		{"far", sim.LinkConfig{Latency: sim.Latency{Base: 500 * ms, Jitter: 50 * ms}, Loss: 0.25,
			Duplicate: 0.05, Reorder: 0.1, ReorderDelay: 40 * ms}},
	}
	for _, n := range []int{2, 3, 4, 8} {
		for li, l := range links {
			t.Run(fmt.Sprintf("%dpeers/%s", n, l.name), func(t *testing.T) {
				m := newMatch(t, n, uint64(100*n+li), l.link, Config{TurnPeriod: 50 * ms})
				m.dt = 10 * ms
				m.run(20 * time.Second)
				f := m.check()
				if f < 50 {
					t.Fatalf("only %d turns in 20s", f)
				}
				st := m.peers[0].sess.Stats()
				t.Logf("%d turns, stall %v, D %d, cmds %d, period %v", f, st.Stall, st.Delay, m.peers[0].sess.State().Next[1], st.Period)
			})
		}
	}
}
