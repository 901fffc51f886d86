package lockstep

import (
	"runtime"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/sim"
)

// TestUpdateAllocs: after warm-up, an Update that receives, runs a turn
// and sends allocates nothing, and neither does a stalled one, nor
// reading the newest logged turn (ReadLog, ReadSteps) into a buffer with
// room.
func TestUpdateAllocs(t *testing.T) {
	for _, tc := range []struct {
		name string
		link sim.LinkConfig
		w    int // Prediction: auto mode, with timesync, when > 0
	}{
		{"running", sim.LinkConfig{Latency: sim.Latency{Base: 20 * ms}}, 0},
		{"stalling", sim.LinkConfig{Latency: sim.Latency{Base: 200 * ms, Jitter: 50 * ms}, Loss: 0.1}, 0},
		{"auto", sim.LinkConfig{Latency: sim.Latency{Base: 60 * ms, Jitter: 10 * ms}, Loss: 0.05}, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newMatch(t, 3, 31, tc.link, Config{TurnPeriod: 20 * ms, InputDelay: 2, FixedDelay: true, LogRetention: 16, Prediction: tc.w})
			m.predicting = tc.w > 0
			m.run(5 * time.Second)
			for _, p := range m.peers { // the test game's own record must not grow
				p.sums = append(make([]uint64, 0, len(p.sums)+10000), p.sums...)
			}
			seq := [3]uint32{100000, 100000, 100000}
			logged := make([]core.Input[tInput], 0, 3)
			steps := make([]core.Input[tInput], 0, 3)
			allocs := testing.AllocsPerRun(2000, func() {
				m.now += 5 * ms
				m.net.RunUntil(m.now)
				for i, p := range m.peers {
					seq[i]++
					_ = p.sess.AddLocalInput(core.PlayerHandle(i), tInput{Seq: seq[i]})
					if err := p.sess.Update(m.now); err != nil {
						t.Fatal(err)
					}
					_, _, _ = p.sess.Previous(), p.sess.State(), p.sess.Fraction()
					if start, end := p.sess.LogRange(); end > start {
						logged, _ = p.sess.ReadLog(end-1, logged[:0])
						steps, _ = p.sess.ReadSteps(end-1, steps[:0])
					}
				}
			})
			if allocs != 0 {
				t.Fatalf("%v allocations per round of Updates, want 0", allocs)
			}
			// AllocsPerRun rounds down; count every allocation of 500 more
			// rounds too. The count is the process's, so a runtime or test
			// framework allocation can land in a window: a window of 1,500
			// Updates without one proves the Updates allocate nothing, and
			// an Update that allocated would do so in every window.
			stalls := 0
			var counts []uint64
			for range 3 {
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				for range 500 {
					m.now += 5 * ms
					m.net.RunUntil(m.now)
					for i, p := range m.peers {
						seq[i]++
						_ = p.sess.AddLocalInput(core.PlayerHandle(i), tInput{Seq: seq[i]})
						_ = p.sess.Update(m.now)
						for _, ev := range p.sess.Events() {
							if _, ok := ev.(*core.StallEvent); ok {
								stalls++
							}
						}
					}
				}
				runtime.ReadMemStats(&after)
				if counts = append(counts, after.Mallocs-before.Mallocs); counts[len(counts)-1] == 0 {
					break
				}
			}
			if n := counts[len(counts)-1]; n != 0 {
				t.Fatalf("allocations in 3 windows of 500 rounds of Updates: %v, want a window with 0", counts)
			}
			if tc.name == "stalling" && stalls == 0 {
				t.Fatal("no turn stalled: the test proves nothing")
			}
			t.Logf("%d stalled turns", stalls)
		})
	}
}

// TestReadStepsAllocs: reading every logged turn with ReadSteps into a
// buffer with room for TicksPerTurn×Players inputs allocates nothing,
// for played turns (three Steps each) and paused ones alike.
func TestReadStepsAllocs(t *testing.T) {
	cfg := Config{TurnPeriod: 20 * ms, InputDelay: 2, FixedDelay: true, LogRetention: 64, TicksPerTurn: 3}
	m := newMatch(t, 2, 32, sim.LinkConfig{Latency: sim.Latency{Base: 20 * ms}}, cfg)
	m.run(time.Second)
	if err := m.peers[0].sess.Pause(0); err != nil {
		t.Fatal(err)
	}
	m.run(m.now + 600*ms) // the log holds played turns, then paused ones
	s := m.peers[1].sess
	start, end := s.LogRange()
	buf := make([]core.Input[tInput], 0, 3*2)
	played, paused := 0, 0
	for f := start; f < end; f++ {
		buf, _ = s.ReadSteps(f, buf[:0])
		if len(buf) == 0 {
			paused++
		} else {
			played++
		}
	}
	if played == 0 || paused == 0 {
		t.Fatalf("log of %d played and %d paused turns: the test proves nothing", played, paused)
	}
	allocs := testing.AllocsPerRun(200, func() {
		for f := start; f < end; f++ {
			buf, _ = s.ReadSteps(f, buf[:0])
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per read of %d turns, want 0", allocs, end-start)
	}
}
