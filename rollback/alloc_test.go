package rollback

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"

	"github.com/rollstep/rollstep/transport/sim"
)

// TestSteadyStateUpdateAllocatesNothing measures one round of both
// sessions' Update (receive, rollback, step, send) over a 40 ms link,
// with spectators streaming, after warm-up, and reading the newest
// logged frame into a buffer with room.
func TestSteadyStateUpdateAllocatesNothing(t *testing.T) {
	m, w := newWatched(t, 31, sim.LinkConfig{Latency: sim.Latency{Base: ms(40), Jitter: ms(5)}}, streamOpts{})
	w.run(t, m, 3*time.Second)
	now := m.net.Now()
	logged := make([]core.Input[uint16], 0, 2)
	allocs := testing.AllocsPerRun(200, func() {
		now += m.render
		m.net.RunUntil(now)
		for i, nd := range m.nodes {
			_ = nd.s.AddLocalInput(core.PlayerHandle(i), m.input(core.PlayerHandle(i), nd.s.Frame()))
			if err := nd.s.Update(now); err != nil {
				t.Fatal(err)
			}
			nd.s.Events()
			if start, end := nd.s.LogRange(); end > start {
				logged, _ = nd.s.ReadLog(end-1, logged[:0])
			}
		}
		if err := w.sp.Update(now); err != nil {
			t.Fatal(err)
		}
		w.sp.Events()
	})
	if allocs != 0 {
		t.Errorf("steady-state Update allocates %v times per round, want 0", allocs)
	}
	if st := m.nodes[0].s.Stats(); st.Rollbacks == 0 {
		t.Errorf("no rollback happened: the measurement missed the rollback path")
	}
	m.checkAgreement()
}
