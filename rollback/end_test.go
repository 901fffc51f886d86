package rollback

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport/sim"
)

// TestAgreedEnd: both peers end the match at frame 300 over a lossy link.
// Neither simulates frame 300; each leaves only once it has confirmed
// every frame before it and holds proof that the other has its inputs for
// them, so both end with the same confirmed history through frame 299,
// and each sees the other leave with wire.LeaveEnded. Before, the first
// peer to stop stranded the other: its last inputs could still be lost.
func TestAgreedEnd(t *testing.T) {
	const end = 300
	m := newMatch(t, 2, 33, sim.LinkConfig{Latency: sim.Latency{Base: ms(40), Jitter: ms(10)}, Loss: 0.1}, nil)
	for _, nd := range m.nodes {
		require.NoError(t, nd.s.EndAt(end))
	}
	var endedAt [2]time.Duration
	for now := m.render; now < 30*time.Second && !(m.nodes[0].s.Ended() && m.nodes[1].s.Ended()); now += m.render {
		m.step(now)
		for i, nd := range m.nodes {
			if endedAt[i] == 0 && nd.s.Ended() {
				endedAt[i] = now
			}
		}
	}
	for i, nd := range m.nodes {
		require.True(t, nd.s.Ended(), "node %d did not end", i)
		require.Equal(t, core.Frame(end), nd.s.Frame(), "node %d: frames simulated", i)
		c, _ := nd.s.ConfirmedFrame()
		require.Equal(t, core.Frame(end-1), c, "node %d: confirmed", i)
		require.Equal(t, 1, m.count(i, isType[core.MatchEndedEvent]), "node %d: core.MatchEndedEvent", i)
	}
	// The one that ended second heard the first's Leave, unless it ended
	// before the Leave could reach it (the link's latency is 40±10 ms).
	left := 0
	for i := range 2 {
		for _, ev := range m.nodes[i].events {
			if e, ok := ev.(core.PeerLostEvent); ok {
				require.True(t, e.Left && e.Reason == wire.LeaveEnded, "node %d: %+v", i, e)
				left++
			}
		}
	}
	if gap := endedAt[1] - endedAt[0]; left == 0 && (gap > ms(50) || gap < -ms(50)) {
		t.Fatalf("nodes ended %v apart and nobody heard the other leave", gap)
	}
	require.Equal(t, end, m.checkAgreement(), "frames agreed")
	require.NoError(t, m.nodes[0].s.Update(31*time.Second), "Update after the end")
	require.ErrorIs(t, m.nodes[0].s.EndAt(10), rollstep.ErrOutOfRange)
}
