package rollback

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/hostile"
	"github.com/rollstep/rollstep/internal/probe"
	"github.com/rollstep/rollstep/transport/sim"
)

// TestLinkDropIsNotFatal: node 0's link is down for 1 s (every send fails
// with ENETUNREACH): Update goes on returning nil, the failures are
// counted, and the match resumes and agrees. Update used to return the
// first such error, which ended the match.
func TestLinkDropIsNotFatal(t *testing.T) {
	m := newMatch(t, 2, 8, sim.LinkConfig{Latency: sim.Latency{Base: ms(20)}}, nil)
	down := func() bool { now := m.net.Now(); return now >= 2*time.Second && now < 3*time.Second }
	s, err := NewSession[pair, uint16](testConfig(2, 0, 8), m.nodes[0].game, pair{}, &hostile.Unreachable{Conn: m.nodes[0].conn, Down: down})
	require.NoError(t, err)
	m.nodes[0].s = s       // newMatch's session never ran; it shares the socket, so it is not closed
	m.run(6 * time.Second) // fails the test on any Update error
	require.NotZero(t, probe.Transport(s).Peers[0].SendErrors, "no send failed")
	require.Zero(t, m.count(0, isType[core.PeerLostEvent]), "node 0 lost its peer")
	require.Zero(t, m.count(1, isType[core.PeerLostEvent]), "node 1 lost its peer")
	require.Greater(t, m.checkAgreement(), 5*60, "frames agreed")
}
