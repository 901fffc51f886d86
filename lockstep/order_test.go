package lockstep

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/transport/sim"
)

// TestPollBeforeTick: a peer silent for 2.35 s (2.55 s at the next Update) is heard again, but its
// datagrams wait in the socket until an Update that comes after the
// 2.5 s disconnect timeout. Update reads them before it runs the timers,
// so the peer is resumed, not dropped: the timers used to run first and
// dropped a peer whose packets had already arrived. (Peer 0's link to
// peer 1 fails 200 ms later than the other way, so that peer 1, which
// would otherwise drop peer 0 too and say so, hears it in time.)
func TestPollBeforeTick(t *testing.T) {
	m := newMatch(t, 2, 23, sim.LinkConfig{Latency: sim.Latency{Base: 10 * ms}}, Config{TurnPeriod: 50 * ms})
	m.run(2 * time.Second)
	a, b := m.peers[0].conn.ID(), m.peers[1].conn.ID()
	m.net.Cut(b, a)
	m.run(2200 * ms)
	m.net.Cut(a, b)
	m.run(4350 * ms)
	m.net.Heal()
	// Only peer 1 runs for 100 ms: its datagrams reach peer 0's socket.
	for end := m.now + 100*ms; m.now < end; {
		m.now += 5 * ms
		m.net.RunUntil(m.now)
		require.NoError(t, m.peers[1].sess.Update(m.now))
		m.peers[1].collect(m.now)
	}
	// Peer 0's next Update is 2.5 s after it last heard peer 1.
	m.dt = 100 * ms
	m.run(m.now + 300*ms)
	require.Empty(t, peerEvents(m.peers[0], endpoint.EventDisconnected), "peer 0 dropped a peer whose packets had arrived")
	require.NotEmpty(t, peerEvents(m.peers[0], endpoint.EventResumed), "peer 0 never heard peer 1 again")
}
