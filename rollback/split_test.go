package rollback

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

// TestSplitIsReported: a 3 s blackout outlasts the 2.5 s disconnect
// timeout, so each peer drops the other and plays on alone. When the link
// heals, each hears the other's probes and reports a core.SplitEvent naming
// the frame from which it played without the other. The match used to
// split in silence: two different final checksums and no event.
func TestSplitIsReported(t *testing.T) {
	m := newMatch(t, 2, 21, sim.LinkConfig{Latency: sim.Latency{Base: ms(25)}}, nil)
	m.run(2 * time.Second)
	m.net.Partition([]transport.Addr{m.nodes[0].conn.ID()}, []transport.Addr{m.nodes[1].conn.ID()})
	m.run(3 * time.Second)
	m.net.Heal()
	m.run(3 * time.Second)
	for i := range 2 {
		require.Equal(t, 1, m.count(i, isType[core.PeerLostEvent]), "node %d: peer lost", i)
		var splits []core.SplitEvent
		for _, ev := range m.nodes[i].events {
			if e, ok := ev.(core.SplitEvent); ok {
				splits = append(splits, e)
			}
		}
		require.Len(t, splits, 1, "node %d: split events", i)
		require.Positive(t, splits[0].Frame, "node %d: split frame", i)
		t.Logf("node %d: split from frame %d", i, splits[0].Frame)
	}
}
