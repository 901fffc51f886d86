package lockstep

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/testenv"
	"github.com/rollstep/rollstep/transport/sim"
)

// TestLoweringDelayKeepsNoBacklog: every player gives one input per turn
// over a jittery, lossy link, so the delay controller raises and lowers
// D many times. Lowering D by one used to leave that turn's input queued
// for good (the turn already had one), so the queue, and the input lag,
// grew by one with every lowering until AddLocalInput failed with
// rollstep.ErrQueueFull (3.2 s of extra lag at 32 turns; `rollstep sim -mode
// lockstep -peers 8 -turns 60000` aborted at 4 m 16 s). Now no local
// queue ever holds more than the one input of the current turn.
func TestLoweringDelayKeepsNoBacklog(t *testing.T) {
	for _, every := range []int{1, 3} {
		t.Run(map[int]string{1: "an input every turn", 3: "an input every third turn"}[every], func(t *testing.T) {
			link := sim.LinkConfig{Latency: sim.Latency{Base: 80 * ms, Jitter: 20 * ms}, Loss: 0.25, Duplicate: 0.05, Reorder: 0.1, ReorderDelay: 30 * ms}
			m := newMatch(t, 3, 12, link, Config{TurnPeriod: 50 * ms})
			for _, p := range m.peers {
				p.every = every
			}
			raised, lowered, most := 0, 0, 0
			d := m.peers[0].sess.Stats().Delay
			for end := testenv.Pick(3*time.Minute, 15*time.Minute); m.now < end; {
				n := len(m.peers[0].events)
				m.run(m.now + time.Second)
				for _, ev := range m.peers[0].events[n:] {
					if e, ok := ev.(core.DelayEvent); ok && e.Delay != d {
						if e.Delay < d {
							lowered++
						} else {
							raised++
						}
						d = e.Delay
					}
				}
				for _, p := range m.peers {
					most = max(most, p.sess.Stats().Queued)
				}
			}
			t.Logf("%d turns; D raised %d times, lowered %d, now %d; at most %d queued", m.check(), raised, lowered, d, most)
			require.NotZero(t, raised, "D never rose: the test shows nothing")
			if every > 1 {
				require.NotZero(t, lowered, "D never came down with gaps between inputs")
			}
			require.LessOrEqual(t, most, 2, "inputs queued behind the current turn")
		})
	}
}
