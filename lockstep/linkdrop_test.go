package lockstep

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/hostile"
	"github.com/rollstep/rollstep/transport/sim"
)

// TestLinkDropIsNotFatal: peer 0's link is down for 1 s: Update goes on
// returning nil, the failures are counted, and the match resumes and
// agrees. Update used to return the first such error.
func TestLinkDropIsNotFatal(t *testing.T) {
	m := newMatch(t, 2, 8, sim.LinkConfig{Latency: sim.Latency{Base: 20 * ms}}, Config{TurnPeriod: 50 * ms})
	down := func() bool { return m.now >= 2*time.Second && m.now < 3*time.Second }
	p := m.peers[0]
	s, err := NewSession(p.cfg, core.GameFunc[tState, tInput](p.step), tState{}, &hostile.Unreachable{Conn: p.conn, Down: down})
	require.NoError(t, err)
	p.sess = s
	m.run(6 * time.Second) // fails the test on any Update error
	ps := s.Stats().Peers[0]
	require.NotZero(t, ps.SendErrors, "no send failed")
	require.Greater(t, m.check(), core.Frame(60), "turns agreed")
}
