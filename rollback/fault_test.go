package rollback

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/probe"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

func isType[T any](ev core.Event) bool { _, ok := ev.(T); return ok }

// TestPeerStopsSendingIsDroppedAtOneFrame freezes node 2 of three: the
// others see it interrupted, then lost, agree on one disconnect frame and
// play on in agreement.
func TestPeerStopsSendingIsDroppedAtOneFrame(t *testing.T) {
	m := newMatch(t, 3, 11, sim.LinkConfig{Latency: sim.Latency{Base: ms(30), Jitter: ms(10)}}, nil)
	if !m.runUntil(120, 5*time.Second) {
		t.Fatal("warm-up")
	}
	m.nodes[2].mute = true
	m.run(5 * time.Second)
	var frames []core.Frame
	for i := range 2 {
		if m.count(i, isType[core.InterruptedEvent]) != 1 || m.count(i, isType[core.PeerLostEvent]) != 1 {
			t.Errorf("node %d: %d interrupted, %d lost events; want 1 each", i,
				m.count(i, isType[core.InterruptedEvent]), m.count(i, isType[core.PeerLostEvent]))
		}
		for _, ev := range m.nodes[i].events {
			if e, ok := ev.(core.DisconnectEvent); ok && e.Player == 2 {
				frames = append(frames, e.Frame)
			}
		}
	}
	if len(frames) != 2 || frames[0] != frames[1] {
		t.Fatalf("disconnect frames %v, want one agreed frame on both survivors", frames)
	}
	before := m.nodes[0].s.Frame()
	m.run(2 * time.Second)
	if got := m.nodes[0].s.Frame() - before; got < 110 {
		t.Errorf("survivors advanced %d frames in 2 s after the drop, want about 120", got)
	}
	m.checkAgreement()
}

// TestPeerResumesBeforeTimeout freezes node 1 for 1 s, less than the
// disconnect timeout: node 0 stalls at W, reports the interruption and
// the resumption, and nobody is dropped.
func TestPeerResumesBeforeTimeout(t *testing.T) {
	m := newMatch(t, 2, 12, sim.LinkConfig{Latency: sim.Latency{Base: ms(40)}}, nil)
	if !m.runUntil(120, 5*time.Second) {
		t.Fatal("warm-up")
	}
	m.nodes[1].mute = true
	m.run(time.Second)
	m.nodes[1].mute = false
	if !m.runUntil(m.nodes[0].s.Frame()+300, 10*time.Second) {
		t.Fatal("no progress after resuming")
	}
	if m.count(0, isType[core.InterruptedEvent]) != 1 || m.count(0, isType[core.ResumedEvent]) != 1 {
		t.Errorf("node 0: %d interrupted, %d resumed; want 1 each", m.count(0, isType[core.InterruptedEvent]), m.count(0, isType[core.ResumedEvent]))
	}
	for i := range 2 {
		if n := m.count(i, isType[core.PeerLostEvent]) + m.count(i, isType[core.DisconnectEvent]); n != 0 {
			t.Errorf("node %d: %d disconnect events, want none", i, n)
		}
	}
	m.checkAgreement()
}

// TestBlackoutOfOneSecond cuts the link both ways for 1 s while both
// peers keep running; both stall at W and recover, in agreement.
func TestBlackoutOfOneSecond(t *testing.T) {
	m := newMatch(t, 2, 13, sim.LinkConfig{Latency: sim.Latency{Base: ms(20)}}, nil)
	if !m.runUntil(120, 5*time.Second) {
		t.Fatal("warm-up")
	}
	m.net.Partition([]transport.Addr{0}, []transport.Addr{1})
	m.run(time.Second)
	m.net.Heal()
	if !m.runUntil(m.nodes[0].s.Frame()+300, 10*time.Second) {
		t.Fatal("no progress after the blackout")
	}
	for i := range 2 {
		if m.count(i, isType[core.PeerLostEvent]) != 0 {
			t.Errorf("node %d dropped its peer after a 1 s blackout", i)
		}
		if m.count(i, isType[core.ResumedEvent]) != 1 {
			t.Errorf("node %d: %d resumed events, want 1", i, m.count(i, isType[core.ResumedEvent]))
		}
	}
	m.checkAgreement()
}

// sendAs sends a crafted input packet from node from's address to node to.
func (m *match) sendAs(from, to int, seqAhead uint64, msg *engine.Message[engine.Slot[uint16]]) {
	m.t.Helper()
	codec, err := wire.NewCodec[engine.Slot[uint16]]()
	if err != nil {
		m.t.Fatal(err)
	}
	peer := core.PeerID(to)
	if to > from {
		peer--
	}
	seq := probe.Transport(m.nodes[from].s).Peers[peer].PacketsSent + seqAhead
	key, _, ok := probe.PeerKeys(m.nodes[from].s, peer)
	if !ok {
		m.t.Fatalf("node %d has no key for peer %d yet", from, peer)
	}
	p, _, err := codec.AppendInput(nil, key, seq, msg)
	if err != nil {
		m.t.Fatal(err)
	}
	if err := m.nodes[from].conn.Send(transport.Addr(to), p); err != nil {
		m.t.Fatal(err)
	}
}

// TestHostilePacketsMidMatch injects garbage, another match's token, a
// stranger's packets and a well-formed message with impossible frames
// into a running match: all are dropped and counted, and the match goes
// on in agreement.
func TestHostilePacketsMidMatch(t *testing.T) {
	m := newMatch(t, 2, 14, sim.LinkConfig{Latency: sim.Latency{Base: ms(25)}}, nil)
	stranger := m.net.NewEndpoint()
	if !m.runUntil(120, 5*time.Second) {
		t.Fatal("warm-up")
	}
	garbage := [][]byte{nil, {0xA1}, {0xA1, 0x03, 1, 2, 3}, make([]byte, 1200), []byte("GET / HTTP/1.1\r\n")}
	for k := range 50 {
		for _, g := range garbage {
			_ = stranger.Send(0, g)
			_ = m.nodes[1].conn.Send(0, g)
		}
		wrong := &engine.Message[engine.Slot[uint16]]{Frame: 1}
		codec, _ := wire.NewCodec[engine.Slot[uint16]]()
		p, _, _ := codec.AppendInput(nil, wire.NewKey(testToken+1), uint64(1000+k), wrong)
		_ = m.nodes[1].conn.Send(0, p)
		bad := &engine.Message[engine.Slot[uint16]]{Frame: 1 << 30, Inputs: []engine.InputRun[engine.Slot[uint16]]{{Player: 1, Start: 1 << 30, Values: []engine.Slot[uint16]{{Value: 1}}}}}
		m.sendAs(1, 0, 3, bad)
		m.run(50 * time.Millisecond)
	}
	if !m.runUntil(m.nodes[0].s.Frame()+120, 5*time.Second) {
		t.Fatal("no progress after the attack")
	}
	tr := probe.Transport(m.nodes[0].s)
	p := tr.Peers[0]
	t.Logf("dropped: unknown %d, malformed %d, wrong token %d, rejected %d, replayed %d",
		tr.Unknown, p.Malformed, p.WrongToken, p.Rejected, p.Replayed)
	if tr.Unknown == 0 || p.Malformed == 0 || p.WrongToken == 0 || p.Rejected == 0 {
		t.Errorf("hostile packets not all counted: %+v", p)
	}
	if m.count(0, isType[core.PeerLostEvent]) != 0 {
		t.Errorf("the attack disconnected the honest peer")
	}
	m.checkAgreement()
}

// TestEquivocationReported makes node 1's address send two different
// inputs of player 1 for frame 5: node 0 reports the equivocation, keeps
// the first input and stays in agreement.
func TestEquivocationReported(t *testing.T) {
	m := newMatch(t, 2, 15, sim.LinkConfig{Latency: sim.Latency{Base: ms(10)}}, nil)
	if !m.runUntil(60, 5*time.Second) {
		t.Fatal("warm-up")
	}
	for k, v := range []uint16{0x1111, 0x2222} {
		msg := &engine.Message[engine.Slot[uint16]]{Frame: m.nodes[1].s.Frame(), Inputs: []engine.InputRun[engine.Slot[uint16]]{{Player: 1, Start: 5, Values: []engine.Slot[uint16]{{Value: v}}}}}
		m.sendAs(1, 0, uint64(5+k), msg)
	}
	m.run(500 * time.Millisecond)
	var got []core.EquivocationEvent
	for _, ev := range m.nodes[0].events {
		if e, ok := ev.(core.EquivocationEvent); ok {
			got = append(got, e)
		}
	}
	if len(got) == 0 || got[0].Player != 1 || got[0].Frame != 5 || got[0].Peer != 0 {
		t.Fatalf("equivocation events %+v, want player 1 frame 5 from peer 0", got)
	}
	m.checkAgreement()
}

// TestPartialPartitionDropsAtOneFrame cuts only the link between nodes 1
// and 2, so each times the other out. Node 0 still hears both; it adopts
// whichever drop reaches it first through the engines' gossip, at the
// frame its partner agreed, stops talking to the dropped node, and the
// two survivors play on in agreement. (Which node survives depends on
// the order the declarations arrive: core has no tie-break.)
func TestPartialPartitionDropsAtOneFrame(t *testing.T) {
	m := newMatch(t, 3, 16, sim.LinkConfig{Latency: sim.Latency{Base: ms(25)}}, nil)
	if !m.runUntil(120, 5*time.Second) {
		t.Fatal("warm-up")
	}
	m.net.Cut(1, 2)
	m.net.Cut(2, 1)
	m.run(6 * time.Second)
	dropped := func(i int) map[core.PlayerHandle]core.Frame {
		d := map[core.PlayerHandle]core.Frame{}
		for _, ev := range m.nodes[i].events {
			if e, ok := ev.(core.DisconnectEvent); ok {
				d[e.Player] = e.Frame
			}
		}
		return d
	}
	d0 := dropped(0)
	if len(d0) != 1 {
		t.Fatalf("node 0 dropped %v, want exactly one of players 1 and 2", d0)
	}
	var gone, partner int
	for p := range d0 {
		gone, partner = int(p), 3-int(p)
	}
	if f, ok := dropped(partner)[core.PlayerHandle(gone)]; !ok || f != d0[core.PlayerHandle(gone)] {
		t.Fatalf("node %d dropped player %d at %v, node 0 at %d", partner, gone, dropped(partner), d0[core.PlayerHandle(gone)])
	}
	if st := probe.Transport(m.nodes[0].s).Peers[gone-1]; st.State.String() != "disconnected" {
		t.Errorf("node 0 still talks to node %d: state %v", gone, st.State)
	}
	m.nodes[gone].mute = true // it plays alone from here; compare the others
	before := m.nodes[0].s.Frame()
	m.run(2 * time.Second)
	if m.nodes[0].s.Frame()-before < 110 {
		t.Errorf("the survivors stopped after the drop")
	}
	m.checkAgreement()
}
