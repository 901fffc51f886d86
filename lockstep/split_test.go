package lockstep

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

// TestSplitIsReported: a 3 s blackout outlasts the 2.5 s disconnect
// timeout; each peer drops the other, and when the link heals each
// reports an endpoint.EventSplit for the other instead of splitting in
// silence.
func TestSplitIsReported(t *testing.T) {
	m := newMatch(t, 2, 22, sim.LinkConfig{Latency: sim.Latency{Base: 25 * ms}}, Config{TurnPeriod: 50 * ms})
	m.run(2 * time.Second)
	m.net.Partition([]transport.Addr{m.peers[0].conn.ID()}, []transport.Addr{m.peers[1].conn.ID()})
	m.run(5 * time.Second)
	m.net.Heal()
	m.run(8 * time.Second)
	for i, p := range m.peers {
		require.Len(t, peerEvents(p, endpoint.EventDisconnected), 1, "peer %d: peer lost", i)
		require.Len(t, peerEvents(p, endpoint.EventSplit), 1, "peer %d: split events", i)
	}
}
