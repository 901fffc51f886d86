package lockstep

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/sim"
)

// TestAgreedEnd: three peers end the match at turn 200 over a lossy link.
// None runs turn 200, each leaves only once it has confirmed every turn
// before it and every other peer holds its inputs for them, and all agree
// on every turn.
func TestAgreedEnd(t *testing.T) {
	const end = 200
	m := newMatch(t, 3, 34, sim.LinkConfig{Latency: sim.Latency{Base: 40 * ms, Jitter: 10 * ms}, Loss: 0.1}, Config{TurnPeriod: 50 * ms})
	for _, p := range m.peers {
		require.NoError(t, p.sess.EndAt(end))
	}
	ended := func() bool {
		for _, p := range m.peers {
			if !p.sess.Ended() {
				return false
			}
		}
		return true
	}
	for m.now < 60*time.Second && !ended() {
		m.run(m.now + 100*ms)
	}
	for i, p := range m.peers {
		require.True(t, p.sess.Ended(), "peer %d did not end", i)
		require.Equal(t, core.Frame(end), p.sess.Frame(), "peer %d: turns run", i)
		n := 0
		for _, ev := range p.events {
			if e, ok := ev.(core.MatchEndedEvent); ok {
				require.Equal(t, core.Frame(end), e.Frame)
				n++
			}
		}
		require.Equal(t, 1, n, "peer %d: core.MatchEndedEvent", i)
	}
	require.Equal(t, core.Frame(end), m.check())
	require.ErrorIs(t, m.peers[0].sess.EndAt(10), rollstep.ErrOutOfRange)
}
