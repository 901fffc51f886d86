package engine

import (
	"fmt"
	"slices"
	"testing"

	"github.com/rollstep/rollstep/internal/testenv"
)

// narrowCost is what one node's search of the 16 fields of nudgeScattered
// spent: queries, and ticks from its DesyncEvent to its DesyncFieldsEvent
// (one message to the peer a tick: the messages exchanged each way).
type narrowCost struct{ queries, ticks int }

// searchCost runs nudgeScattered on a bigNet with loss per mille (and no
// duplicates without loss) and returns each node's cost.
func searchCost(t *testing.T, seed uint64, loss int) [2]narrowCost {
	t.Helper()
	net := newBigNet(t, seed, 150, func(i int, c *Config) {}, 61, nudgeScattered)
	net.loss = loss
	if loss == 0 {
		net.dup = 0
	}
	var cost [2]narrowCost
	var detected [2]int
	for k := 1; ; k++ {
		if net.nodes[0].eng.Frame() >= net.end && net.nodes[1].eng.Frame() >= net.end && !net.searching() {
			break
		}
		if k == 5000 {
			t.Fatal("not done after 5000 ticks")
		}
		net.step()
		for i, nd := range net.nodes {
			ds, fs := nd.desyncs()
			if len(ds) > 0 && detected[i] == 0 {
				detected[i] = k
			}
			if len(fs) > 0 && cost[i].ticks == 0 {
				cost[i] = narrowCost{nd.eng.peers[0].hunt.queries, k - detected[i]}
				if fs[0].Incomplete || !slices.Equal(fs[0].Paths, hpPaths()) {
					t.Fatalf("seed %d node %d: fields %+v, want all 16 HP fields", seed, i, fs[0])
				}
			}
		}
	}
	return cost
}

// With several queries in flight, a search of 16 fields scattered over a
// 360 KiB state costs about one message per query plus a round trip per
// round (about 6 ticks here), not a round trip per query: with one query
// at a time it took 41 queries and 288 ticks on average without loss, 300
// with 10 % loss. The queries are the same. 4 seeds per loss rate (8 in
// the soak run).
func TestScenarioNarrowPipelined(t *testing.T) {
	for _, loss := range []int{0, 100} {
		t.Run(fmt.Sprintf("loss%d", loss/10), func(t *testing.T) {
			var queries, ticks []int
			for seed := uint64(1); seed <= testenv.Pick[uint64](4, 8); seed++ {
				for _, c := range searchCost(t, seed, loss) {
					queries, ticks = append(queries, c.queries), append(ticks, c.ticks)
				}
			}
			slices.Sort(queries)
			slices.Sort(ticks)
			mean := 0.0
			for _, x := range ticks {
				mean += float64(x) / float64(len(ticks))
			}
			t.Logf("%d searches: queries %d..%d, ticks %d..%d (median %d, mean %.1f)",
				len(ticks), queries[0], queries[len(queries)-1], ticks[0], ticks[len(ticks)-1], ticks[len(ticks)/2], mean)
			if queries[len(queries)-1] > 41 {
				t.Errorf("up to %d queries, want at most the 41 of one query at a time", queries[len(queries)-1])
			}
			if mean > 100 {
				t.Errorf("%.1f ticks on average from detection to the field event, want at most 100", mean)
			}
		})
	}
}
