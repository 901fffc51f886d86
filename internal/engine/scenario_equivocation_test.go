package engine

import (
	"slices"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
)

// Equivocation across peers: node 0 sends node 2 another input for its
// player's frame 50 than it sends node 1, the same in every copy, so no
// receiver sees two values (that case is EquivocationEvent). Nothing stays
// silent: node 2's state after frame 50 differs from both others', each
// pair that disagrees reports a DesyncEvent at frame 50, the search names
// the field that player 0's input drives (Pos[0]), and nodes 0 and 1, who
// agree, report nothing about each other.
func TestScenarioEquivocationAcrossPeers(t *testing.T) {
	const lie = core.Frame(50)
	h := newHarness(t, 3, 29, 120, nil)
	h.setLinks(link{latency: 20 * time.Millisecond})
	h.onTick = func(h *harness) {
		for _, p := range h.inflight {
			if p.from != 0 || p.to != 2 {
				continue
			}
			for i := range p.msg.Inputs {
				r := &p.msg.Inputs[i]
				if k := int(lie - r.Start); r.Player == 0 && k >= 0 && k < len(r.Values) && r.Values[k].Value == h.input(0, lie) {
					r.Values[k].Value ^= 1
				}
			}
		}
	}
	h.run(100000)
	// desynced[i] lists the nodes node i reported a desync with, and
	// fields[i] the paths its searches named.
	var desynced [3][]int
	var fields [3][]string
	for i, nd := range h.nodes {
		for _, ev := range nd.events {
			switch e := ev.(type) {
			case core.DesyncEvent[testState]:
				if e.Frame != lie {
					t.Errorf("node %d: desync with node %d at frame %d, want %d", i, nd.peerNode[e.Peer], e.Frame, lie)
				}
				desynced[i] = append(desynced[i], nd.peerNode[e.Peer])
			case core.DesyncFieldsEvent:
				fields[i] = append(fields[i], e.Paths...)
			}
		}
		slices.Sort(desynced[i])
	}
	want := [3][]int{{2}, {2}, {0, 1}}
	for i := range want {
		if !slices.Equal(desynced[i], want[i]) {
			t.Errorf("node %d reported desyncs with %v, want %v", i, desynced[i], want[i])
		}
		if !slices.Contains(fields[i], "Pos[0]") {
			t.Errorf("node %d: searches named %v, want Pos[0] among them", i, fields[i])
		}
	}
}
