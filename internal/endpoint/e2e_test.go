package endpoint

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/arena"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/transport/sim"
)

// gameState is the end-to-end test's state: arena-serializable, with the
// same layout on 32- and 64-bit targets.
type gameState struct {
	Frame int64
	Pos   [4]int64
	Acc   uint64
}

func stepGame(s *gameState, inputs []core.Input[testInput], _ core.Effects) {
	s.Frame++
	for p, in := range inputs {
		v := uint64(in.Value)
		s.Pos[p] += int64(v%7) - 3
		s.Acc = s.Acc*6364136223846793005 + v + uint64(p) + 1
	}
}

// genInput is player p's input for frame f: it changes now and then, like
// a pad.
func genInput(p int, f core.Frame) testInput {
	x := uint64(f/5)*0x9e3779b97f4a7c15 + uint64(p+1)*0xbf58476d1ce4e5b9
	x ^= x >> 29
	return testInput(x)
}

// peerNode is one player: an engine behind an endpoint.
type peerNode struct {
	eng    *engine.Engine[gameState, testInput]
	ep     *Endpoint[slotInput]
	player core.PlayerHandle
	desync bool
	down   bool       // crashed: runs no more
	goneAt core.Frame // the agreed disconnect frame of a crashed player
}

// TestEndToEnd runs real engines through endpoints over a sim.Network with
// 100 ms one-way latency and 10 % loss in each direction: 300 frames of
// rollback (D = 2, W = 8) or lockstep (D = 2, W = 0) at 60 frames/s, then a drain without new local
// inputs until every frame is confirmed everywhere. Every engine must end
// in the same state, equal to a sequential re-run of the confirmed inputs,
// with checksums compared at every confirmed frame (core's desync check)
// and no message rejected.
func TestEndToEnd(t *testing.T) {
	link := sim.LinkConfig{Latency: sim.Latency{Base: 100 * time.Millisecond}, Loss: 0.1}
	messy := link
	messy.Duplicate, messy.Reorder, messy.ReorderDelay = 0.1, 0.1, 40*time.Millisecond
	for _, tc := range []struct {
		name          string
		peers, window int
		link          sim.LinkConfig
		crashAt       core.Frame // the last node stops at this frame; 0: never
	}{
		{"rollback 2 peers", 2, 8, link, 0},
		{"rollback 3 peers", 3, 8, link, 0},
		{"lockstep 3 peers", 3, 0, link, 0},
		{"rollback 3 peers duplicated and reordered", 3, 8, messy, 0},
		{"rollback 3 peers one crashes", 3, 8, link, 100},
	} {
		t.Run(tc.name, func(t *testing.T) { runEndToEnd(t, tc.peers, tc.window, 300, tc.link, tc.crashAt) })
	}
}

func runEndToEnd(t *testing.T, n, window int, frames core.Frame, link sim.LinkConfig, crashAt core.Frame) {
	const delay = 2
	m := newMesh(t, n, link, nil)
	nodes := make([]*peerNode, n)
	for i := range nodes {
		c := engine.DefaultConfig()
		c.Players, c.Local, c.Peers = n, []core.PlayerHandle{core.PlayerHandle(i)}, nil
		for j := range n {
			if j != i {
				c.Peers = append(c.Peers, []core.PlayerHandle{core.PlayerHandle(j)})
			}
		}
		c.InputDelay, c.Prediction = delay, window
		c.LogRetention = int(frames) + 16
		e, err := engine.NewEngine[gameState, testInput](c, core.GameFunc[gameState, testInput](stepGame), &gameState{})
		if err != nil {
			t.Fatalf("NewEngine: %v", err)
		}
		nodes[i] = &peerNode{eng: e, ep: m.nodes[i].ep, player: core.PlayerHandle(i)}
	}
	tick := time.Second / 60
	end := 30 * time.Second
	var now time.Duration
	for ; now < end; now += tick {
		m.net.RunUntil(now)
		done := true
		for i, nd := range nodes {
			if crashAt > 0 && i == n-1 && nd.eng.Frame() >= crashAt {
				nd.down = true
			}
			if nd.down {
				continue
			}
			nd.hostLoop(t, i, now, frames)
			if f, ok := nd.eng.ConfirmedFrame(); !ok || f < frames-1 {
				done = false
			}
		}
		if done {
			break
		}
	}
	if now >= end {
		t.Fatalf("not every frame confirmed after %v of virtual time", end)
	}
	if d := m.net.Stats(0, 1).Dropped.Packets; d == 0 {
		t.Errorf("the network dropped nothing: the loss is not exercised")
	}
	if link.Duplicate > 0 {
		if s, _ := nodes[1].ep.Peer(0); s.Replayed == 0 {
			t.Errorf("no duplicate was dropped by the replay window")
		}
	}
	// A sequential re-run of node 0's confirmed inputs is the oracle.
	var ref gameState
	var ins []core.Input[testInput]
	for f := range frames {
		var err error
		if ins, err = nodes[0].eng.ReadLog(f, ins[:0]); err != nil {
			t.Fatalf("ReadLog(%d): %v", f, err)
		}
		stepGame(&ref, ins, nil)
	}
	want := arena.Checksum(&ref)
	for i, nd := range nodes {
		if nd.down {
			continue
		}
		st := nd.eng.Stats()
		if got := nd.eng.Frame(); got != frames {
			t.Errorf("node %d at frame %d, want %d", i, got, frames)
		}
		if got := arena.Checksum(nd.eng.State()); got != want {
			t.Errorf("node %d: final checksum %#x, want %#x (oracle)", i, got, want)
		}
		if nd.desync || st.Desyncs != 0 || st.Checksums < uint64(frames)-1 || st.BadMessages != 0 {
			t.Errorf("node %d: desyncs %d, %d checksums compared, %d bad messages", i, st.Desyncs, st.Checksums, st.BadMessages)
		}
		es := nd.ep.Stats()
		for p, ps := range es.Peers {
			wantState := StateConnected
			if crashAt > 0 && p == n-2 {
				wantState = StateDisconnected
				if nd.goneAt != nodes[0].goneAt || nd.goneAt < crashAt {
					t.Errorf("node %d: player %d disconnected from frame %d, node 0 says %d", i, n-1, nd.goneAt, nodes[0].goneAt)
				}
			}
			if ps.Rejected != 0 || ps.Malformed != 0 || ps.State != wantState {
				t.Errorf("node %d peer %d: %d rejected, %d malformed, state %v, want %v", i, p, ps.Rejected, ps.Malformed, ps.State, wantState)
			}
		}
		for f := range frames {
			if nd.down {
				break
			}
			a, _ := nodes[0].eng.ReadLog(f, nil)
			b, _ := nd.eng.ReadLog(f, nil)
			if fmt.Sprint(a) != fmt.Sprint(b) {
				t.Fatalf("frame %d: node %d logged %v, node 0 %v", f, i, b, a)
			}
		}
		s0 := es.Peers[0]
		t.Logf("node %d: %d rollbacks, stall %v, to peer 0: %d packets, %.1f wire B/packet, RTT %v; crashed player gone from frame %d",
			i, st.Rollbacks, st.StallTime, s0.PacketsSent, float64(s0.WireBytesSent())/float64(s0.PacketsSent), s0.RTT, nd.goneAt)
	}
}

// hostLoop is one tick of a front end's host loop (see doc.go).
func (nd *peerNode) hostLoop(t *testing.T, i int, now time.Duration, frames core.Frame) {
	t.Helper()
	if _, err := nd.ep.Poll(now, nd.eng); err != nil {
		t.Fatalf("node %d Poll: %v", i, err)
	}
	if nd.eng.Frame()+2 < frames { // local inputs for frames 0..frames-1 only
		err := nd.eng.AddLocalInput(nd.player, genInput(int(nd.player), nd.eng.Frame()+2))
		if err != nil && !errors.Is(err, engine.ErrInputDiscarded) && !errors.Is(err, engine.ErrQueueFull) {
			t.Fatalf("node %d AddLocalInput: %v", i, err)
		}
	}
	r := nd.eng.Advance(now)
	for _, ev := range r.Events {
		switch ev := ev.(type) {
		case core.DesyncEvent[gameState]:
			nd.desync = true
		case core.DisconnectEvent:
			nd.goneAt = ev.Frame
		}
	}
	if err := nd.ep.Send(now, r.Messages); err != nil {
		t.Fatalf("node %d Send: %v", i, err)
	}
	if err := nd.ep.Tick(now); err != nil {
		t.Fatalf("node %d Tick: %v", i, err)
	}
	for _, ev := range nd.ep.Events() {
		switch ev.Kind {
		case EventDisconnected:
			if err := nd.eng.DisconnectPeer(ev.Peer); err != nil {
				t.Fatalf("node %d DisconnectPeer(%d): %v", i, ev.Peer, err)
			}
		case EventLeft, EventRefused:
			t.Fatalf("node %d: unexpected event %+v", i, ev)
		}
	}
}
