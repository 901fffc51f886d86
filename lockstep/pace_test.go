package lockstep

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/sim"
)

// turnRate runs m to from, then to to, and returns the mean turn period
// of peer 0 between the two.
func turnRate(m *match, from, to time.Duration) time.Duration {
	m.run(from)
	f0 := m.peers[0].sess.Frame()
	m.run(to)
	f1 := m.peers[0].sess.Frame()
	if f1 == f0 {
		m.t.Fatalf("no turn between %v and %v", from, to)
	}
	return (to - from) / time.Duration(f1-f0)
}

// TestPaceLatencyBound: with T = 100 ms, D = 2 and a constant one-way
// latency of 300 ms, a turn's inputs arrive 300 ms after the turn two
// turns before it ran, so the pace settles at max(T, L/D) = 150 ms.
func TestPaceLatencyBound(t *testing.T) {
	link := sim.LinkConfig{Latency: sim.Latency{Base: 300 * ms}}
	m := newMatch(t, 2, 1, link, Config{TurnPeriod: 100 * ms, InputDelay: 2, FixedDelay: true})
	m.dt = ms
	got := turnRate(m, 10*time.Second, 40*time.Second)
	if got < 149*ms || got > 151*ms {
		t.Fatalf("turn period %v, want 150ms ±1ms", got)
	}
	st := m.peers[0].sess.Stats()
	if st.StalledFrames == 0 || st.Peers[0].Stall == 0 {
		t.Fatalf("no stall recorded: %+v", st)
	}
	m.check()
}

// TestPaceTurnBound: when latency is covered (L/D < T) the pace is T.
func TestPaceTurnBound(t *testing.T) {
	link := sim.LinkConfig{Latency: sim.Latency{Base: 100 * ms}}
	m := newMatch(t, 2, 2, link, Config{TurnPeriod: 100 * ms, InputDelay: 2, FixedDelay: true})
	m.dt = ms
	if got := turnRate(m, 10*time.Second, 40*time.Second); got < 99*ms || got > 101*ms {
		t.Fatalf("turn period %v, want 100ms ±1ms", got)
	}
}

// TestPaceAdaptiveDelay: with the controller on, the same 300 ms link
// raises D until latency is covered, and the pace returns to T.
func TestPaceAdaptiveDelay(t *testing.T) {
	link := sim.LinkConfig{Latency: sim.Latency{Base: 300 * ms}}
	m := newMatch(t, 2, 3, link, Config{TurnPeriod: 100 * ms, InputDelay: 1})
	m.dt = ms
	got := turnRate(m, 20*time.Second, 50*time.Second)
	if got < 99*ms || got > 101*ms {
		t.Fatalf("turn period %v, want 100ms once D adapts", got)
	}
	if d := m.peers[0].sess.Stats().Delay; d < 3 {
		t.Fatalf("D = %d, want ≥ 3 to cover 300 ms at 100 ms turns", d)
	}
	m.check()
}

// TestHigherDelayNeverStallsMore runs the same latency profiles with D
// fixed at 1 to 6 and checks that stall time never grows with D.
func TestHigherDelayNeverStallsMore(t *testing.T) {
	profiles := []struct {
		name string
		link sim.LinkConfig
	}{
		{"constant 120ms", sim.LinkConfig{Latency: sim.Latency{Base: 120 * ms}}},
		{"jitter 100±60ms", sim.LinkConfig{Latency: sim.Latency{Base: 100 * ms, Jitter: 60 * ms}}},
		{"spikes", sim.LinkConfig{Latency: sim.Latency{Base: 40 * ms,
			Spike: sim.Spike{Height: 400 * ms, Length: 300 * ms, Period: 3 * time.Second}}}},
	}
	for _, pr := range profiles {
		t.Run(pr.name, func(t *testing.T) {
			prev := time.Duration(-1)
			for d := 1; d <= 6; d++ {
				m := newMatch(t, 3, 7, pr.link, Config{TurnPeriod: 50 * ms, InputDelay: d, FixedDelay: true})
				m.dt = 2 * ms
				m.run(20 * time.Second)
				m.check()
				stall := m.peers[0].sess.Stats().Stall
				t.Logf("D=%d: stall %v, turns %d", d, stall, m.peers[0].sess.Frame())
				if prev >= 0 && stall > prev {
					t.Fatalf("D=%d stalls %v, more than D=%d (%v)", d, stall, d-1, prev)
				}
				prev = stall
			}
		})
	}
}

// TestPaceFollowsSlowestCPU: a peer whose turns take 80 ms of CPU reports
// it, and every peer paces its 50 ms turns at 80 ms instead of stalling.
func TestPaceFollowsSlowestCPU(t *testing.T) {
	link := sim.LinkConfig{Latency: sim.Latency{Base: 10 * ms}}
	var fake time.Duration
	m := newMatch(t, 3, 4, link, Config{TurnPeriod: 50 * ms, FixedDelay: true}, func(i int, c *Config) {
		if i == 2 {
			c.StepClock = func() time.Duration { fake += 80 * ms; return fake }
		}
	})
	m.dt = ms
	got := turnRate(m, 10*time.Second, 30*time.Second)
	if got < 79*ms || got > 81*ms {
		t.Fatalf("turn period %v, want 80ms", got)
	}
	for i, p := range m.peers {
		st := p.sess.Stats()
		if st.Period != 80*ms || st.SlowestStep != 80*ms {
			t.Errorf("peer %d: period %v slowest %v, want 80ms", i, st.Period, st.SlowestStep)
		}
	}
	m.check()
}

// TestSpeedChange: doubling the game speed halves the turn period on every
// peer from the same turn.
func TestSpeedChange(t *testing.T) {
	link := sim.LinkConfig{Latency: sim.Latency{Base: 10 * ms}}
	m := newMatch(t, 2, 5, link, Config{TurnPeriod: 100 * ms, FixedDelay: true})
	m.dt = ms
	m.run(5 * time.Second)
	if err := m.peers[1].sess.SetSpeed(1, 200); err != nil {
		t.Fatal(err)
	}
	if got := turnRate(m, 10*time.Second, 20*time.Second); got < 49*ms || got > 51*ms {
		t.Fatalf("turn period %v at 200%%, want 50ms", got)
	}
	var frames []core.Frame
	for _, p := range m.peers {
		for _, ev := range p.events {
			if e, ok := ev.(core.SpeedEvent); ok && e.Percent == 200 {
				frames = append(frames, e.Frame)
			}
		}
	}
	if len(frames) != 2 || frames[0] != frames[1] {
		t.Fatalf("speed events at %v, want one per peer at the same turn", frames)
	}
	m.check()
}
