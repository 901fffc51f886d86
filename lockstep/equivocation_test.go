package lockstep

import (
	"bytes"
	"testing"
	"time"

	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/probe"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

// tapConn is a peer's sim.Endpoint that keeps a copy of every datagram
// the peer sends, so that a test can decode one and send it again altered
// from the peer's address.
type tapConn struct {
	*sim.Endpoint
	sent [][]byte // every datagram sent, oldest first
}

// Send records p and sends it.
func (c *tapConn) Send(to transport.Addr, p []byte) error {
	c.sent = append(c.sent, bytes.Clone(p))
	return c.Endpoint.Send(to, p)
}

// TestEquivocationReported: peer 1's address sends its input for a turn
// a second time with a different value, right after the first. Peer 0
// reports a core.EquivocationEvent naming the peer, the player and the
// turn; the first value stands, so both peers still agree on every turn,
// the equivocated one included.
func TestEquivocationReported(t *testing.T) {
	m := newMatch(t, 2, 17, sim.LinkConfig{Latency: sim.Latency{Base: 20 * ms}}, Config{TurnPeriod: 50 * ms})
	// Rebuild peer 1 over a tap before its first Update (as
	// TestRefusedConfig does), to see what it sends.
	tap := &tapConn{Endpoint: m.peers[1].conn}
	s, err := NewSession(m.peers[1].cfg, core.GameFunc[tState, tInput](m.peers[1].step), tState{}, transport.Conn(tap))
	if err != nil {
		t.Fatal(err)
	}
	m.peers[1].sess = s
	m.run(3 * time.Second)

	// Find the newest turn of player 1 that peer 1 has sent, its value,
	// and peer 1's newest sequence number towards peer 0.
	key, _, ok := probe.PeerKeys(s, 0) // peer 1's key towards peer 0
	if !ok {
		t.Fatal("peer 1 has no key for peer 0 after 3 s")
	}
	var window wire.ReplayWindow // expands peer 1's sequence numbers
	codec, err := wire.NewCodec[engine.Slot[tInput]]()
	if err != nil {
		t.Fatal(err)
	}
	var (
		msg     engine.Message[engine.Slot[tInput]]
		lastSeq uint64
		sent    = map[core.Frame]engine.Slot[tInput]{} // player 1's input of each turn
	)
	target := core.Frame(-1)                             // the newest turn in sent
	hello := wire.NewKey(m.peers[1].cfg.Transport.Token) // Hellos and HelloReplies
	for _, p := range tap.sent {
		k := key
		if wire.PacketType(p).Handshake() {
			k = hello
		}
		h, err := wire.ParseHeader(p, k, &window)
		if err != nil {
			t.Fatalf("peer 1 sent a datagram that does not parse: %v", err)
		}
		_ = window.Accept(h.Seq)
		lastSeq = max(lastSeq, h.Seq)
		if h.Type != wire.TypeInput {
			continue
		}
		if _, err := codec.DecodeInput(p, key, &window, &msg); err != nil {
			t.Fatalf("DecodeInput: %v", err)
		}
		for _, r := range msg.Inputs {
			if r.Player != 1 {
				t.Fatalf("peer 1 sent inputs of player %d", r.Player)
			}
			for k, v := range r.Values {
				f := r.Start + core.Frame(k)
				if prev, ok := sent[f]; ok && prev != v {
					t.Fatalf("honest peer 1 sent two values for turn %d: %+v and %+v", f, prev, v)
				}
				sent[f] = v
				target = max(target, f)
			}
		}
	}
	if target < 0 {
		t.Fatal("peer 1 sent no input in 3 s")
	}
	first := sent[target]
	if first.Value == (tInput{}) {
		t.Fatalf("turn %d carries no command: replacing it would prove nothing", target)
	}
	if f := m.peers[0].sess.Frame(); f > target {
		t.Fatalf("peer 0 already ran turn %d (at turn %d): the first value could not be overruled", target, f)
	}

	// The forgery: the same envelope with another command value, in a
	// message of its own under peer 1's next sequence number. The link is
	// lossless with a constant latency, so it arrives right after the
	// datagram that carried the first value.
	forged := first
	forged.Value.Val ^= 0x5a5a5a5a
	bad := &engine.Message[engine.Slot[tInput]]{Frame: s.Frame(), Inputs: []engine.InputRun[engine.Slot[tInput]]{
		{Player: 1, Start: target, Values: []engine.Slot[tInput]{forged}},
	}}
	p, _, err := codec.AppendInput(nil, key, lastSeq+1, bad)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.peers[1].conn.Send(m.peers[0].conn.ID(), p); err != nil {
		t.Fatal(err)
	}
	m.run(m.now + 3*time.Second)

	var got []core.EquivocationEvent
	for _, ev := range m.peers[0].events {
		if e, ok := ev.(core.EquivocationEvent); ok {
			got = append(got, e)
		}
	}
	want := core.EquivocationEvent{Peer: peerID(0, 1), Player: 1, Frame: target}
	if len(got) != 1 || got[0] != want {
		t.Fatalf("peer 0: equivocation events %+v, want [%+v]", got, want)
	}
	if n := m.peers[0].sess.Stats().Equivocations; n != 1 {
		t.Errorf("peer 0: Stats().Equivocations = %d, want 1", n)
	}
	for _, ev := range m.peers[1].events {
		if e, ok := ev.(core.EquivocationEvent); ok {
			t.Errorf("peer 1: %+v, want none", e)
		}
	}
	// Peer 1 ran turn target with the first value; equal checksums at
	// every turn mean peer 0 did too.
	if f := m.check(); f < target+40 {
		t.Fatalf("peers at turn %d only, equivocation at turn %d", f, target)
	}
}
