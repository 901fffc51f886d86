package engine

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
)

// Every rollback is charged to the peer whose input made it necessary: with
// three peers and only the link from node 2 to node 0 slow, node 0's
// rollbacks are all charged to node 2, by depth, and nobody else rolls
// back.
func TestPeerRollbackDepthOneSlowLink(t *testing.T) {
	h := newHarness(t, 3, 41, 300, func(i int, c *Config) {
		c.InputDelay, c.Prediction = 1, 8
	})
	h.links[2][0] = link{latency: 70 * time.Millisecond}
	h.run(100000)
	h.checkAgreement()
	for i, nd := range h.nodes {
		st := nd.eng.Stats()
		var sum [17]uint64
		for id, ps := range st.Peers {
			var n uint64
			for k, c := range ps.RollbackDepth {
				sum[k] += c
				n += c
			}
			if n != ps.Rollbacks {
				t.Fatalf("node %d peer %d: depth histogram holds %d rollbacks, Rollbacks %d", i, id, n, ps.Rollbacks)
			}
			slow := i == 0 && nd.peerNode[id] == 2
			if slow != (ps.Rollbacks > 0) {
				t.Fatalf("node %d: %d rollbacks charged to node %d (%v), want some only for node 2 at node 0", i, ps.Rollbacks, nd.peerNode[id], ps.RollbackDepth)
			}
		}
		if sum != st.RollbackDepth {
			t.Fatalf("node %d: per-peer depths %v sum to other than the engine's %v", i, sum, st.RollbackDepth)
		}
	}
	// The link is about 4–5 ticks long: so are the rollbacks.
	d := h.nodes[0].eng.Stats().Peers[h.nodes[0].peerID[2]].RollbackDepth
	if d[0] != 0 || d[1] != 0 || d[16] != 0 {
		t.Fatalf("node 0: depths %v, want none of 0, 1 or 16+", d)
	}
}

// Corrections from two peers that land before one Advance: the earliest
// wrong frame decides, a tie goes to the lower PeerID, whatever the
// arrival order.
func TestRollbackAttributionRule(t *testing.T) {
	for _, tc := range []struct {
		name        string
		from        [2]core.PeerID // arrival order
		wrong       [2]core.Frame  // first wrong frame of peer 0's and peer 1's player
		wantPeer    core.PeerID
		wantDepthAt int
	}{
		{"tie/lower-first", [2]core.PeerID{0, 1}, [2]core.Frame{2, 2}, 0, 4},
		{"tie/higher-first", [2]core.PeerID{1, 0}, [2]core.Frame{2, 2}, 0, 4},
		{"earliest-wins/higher", [2]core.PeerID{0, 1}, [2]core.Frame{3, 1}, 1, 5},
		{"earliest-wins/lower", [2]core.PeerID{1, 0}, [2]core.Frame{1, 3}, 0, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Config{Players: 3, Local: []core.PlayerHandle{0}, Peers: [][]core.PlayerHandle{{1}, {2}}, Prediction: 8, MaxPrediction: 8}
			e, err := NewEngine[testState, testInput](c, &testGame{}, &testState{})
			if err != nil {
				t.Fatal(err)
			}
			for f := 0; f < 6; f++ { // frames 0..5, players 1 and 2 predicted as 0
				_ = e.AddLocalInput(0, 1)
				e.Advance(time.Duration(f) * time.Millisecond)
			}
			for _, id := range tc.from {
				vals := make([]Slot[testInput], 6)
				for f := tc.wrong[id]; f < 6; f++ {
					vals[f].Value = testInput(7 + id)
				}
				m := &Message[Slot[testInput]]{Frame: 6, Inputs: []InputRun[Slot[testInput]]{{Player: core.PlayerHandle(1 + id), Start: 0, Values: vals}}}
				if err := e.Receive(6*time.Millisecond, id, m); err != nil {
					t.Fatal(err)
				}
			}
			_ = e.AddLocalInput(0, 1)
			r := e.Advance(7 * time.Millisecond)
			if !r.RolledBack || r.Resimulated != tc.wantDepthAt {
				t.Fatalf("rolled back %v, %d frames; want %d", r.RolledBack, r.Resimulated, tc.wantDepthAt)
			}
			st := e.Stats()
			for id, ps := range st.Peers {
				want := uint64(0)
				if core.PeerID(id) == tc.wantPeer {
					want = 1
				}
				if ps.Rollbacks != want || ps.RollbackDepth[tc.wantDepthAt] != want {
					t.Fatalf("peer %d: %d rollbacks, depths %v; want %d at depth %d", id, ps.Rollbacks, ps.RollbackDepth, want, tc.wantDepthAt)
				}
			}
		})
	}
}

// Stalls are charged to the peer whose inputs are missing: in lockstep
// (W = 0) with three peers and only the link from node 2 to node 0 slow,
// node 0 stalls, all of it waiting for node 2, and none for node 1.
func TestPeerStallTimeOneSlowLink(t *testing.T) {
	h := newHarness(t, 3, 43, 200, func(i int, c *Config) {
		c.InputDelay, c.Prediction = 1, 0
	})
	h.links[2][0] = link{latency: 70 * time.Millisecond}
	h.run(100000)
	h.checkAgreement()
	st := h.nodes[0].eng.Stats()
	slow, fast := st.Peers[h.nodes[0].peerID[2]], st.Peers[h.nodes[0].peerID[1]]
	if st.StallTime == 0 || slow.StallTime != st.StallTime || fast.StallTime != 0 {
		t.Fatalf("node 0 stalled %v: %v charged to node 2, %v to node 1; want all of it to node 2", st.StallTime, slow.StallTime, fast.StallTime)
	}
}
