package endpoint

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
)

// connected returns a 2-node mesh on 20 ms links whose handshake is done,
// at virtual time 100 ms.
func connected(t *testing.T) *mesh {
	t.Helper()
	m := newMesh(t, 2, link20ms, nil)
	m.step(0)
	m.run(100*time.Millisecond, time.Millisecond)
	for i, nd := range m.nodes {
		if nd.ep.State(0) != StateConnected {
			t.Fatalf("node %d: handshake incomplete", i)
		}
		nd.events = nil
	}
	return m
}

// inputPacket encodes an input packet carrying input v of player 0 for
// frame 0, tagged with the key of token (which no peer accepts an input
// packet under: see pairPacket).
func inputPacket(t testing.TB, token, seq uint64, v testInput) []byte {
	t.Helper()
	return inputPacketKey(t, wire.NewKey(token), seq, v)
}

// inputPacketKey is inputPacket tagged with key.
func inputPacketKey(t testing.TB, key wire.Key, seq uint64, v testInput) []byte {
	t.Helper()
	c, err := wire.NewCodec[slotInput]()
	if err != nil {
		t.Fatal(err)
	}
	msg := engine.Message[slotInput]{Inputs: []engine.InputRun[slotInput]{{Player: 0, Values: []slotInput{{Value: v}}}}}
	p, _, err := c.AppendInput(nil, key, seq, &msg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// pairPacket is an input packet that node 0 of a connected mesh could have
// sent node 1: tagged with node 0's direction key to it.
func pairPacket(t testing.TB, m *mesh, seq uint64, v testInput) []byte {
	t.Helper()
	return inputPacketKey(t, m.nodes[0].ep.peers[0].txKey, seq, v)
}

func TestHostile(t *testing.T) {
	t.Run("wrong token", func(t *testing.T) {
		m := connected(t)
		before, _ := m.nodes[1].ep.Peer(0)
		for seq := range uint64(10) {
			rawSend(t, m.nodes[0].conn, 1, inputPacket(t, testToken+1, 1000+seq, 9))
		}
		m.net.RunUntil(m.net.Now() + 20*time.Millisecond)
		m.nodes[1].rx = recorder{}
		mustPoll(t)(m.nodes[1].ep.Poll(m.net.Now(), &m.nodes[1].rx))
		after, _ := m.nodes[1].ep.Peer(0)
		if got := after.WrongToken - before.WrongToken; got != 10 {
			t.Errorf("WrongToken grew by %d, want 10", got)
		}
		if len(m.nodes[1].rx.msgs) != 0 || after.LastHeard != before.LastHeard {
			t.Errorf("a wrong-token packet was delivered (%d) or marked the peer heard (%v -> %v)",
				len(m.nodes[1].rx.msgs), before.LastHeard, after.LastHeard)
		}
		// The forged sequence numbers did not touch the window: real
		// traffic still flows.
		m.run(m.net.Now()+time.Second, 5*time.Millisecond)
		if st := m.nodes[1].ep.State(0); st != StateConnected {
			t.Errorf("state after forged packets = %v, want connected", st)
		}
	})
	t.Run("garbage", func(t *testing.T) {
		m := connected(t)
		rng := rand.New(rand.NewPCG(1, 2))
		valid := pairPacket(t, m, 5000, 3)
		var sent int
		send := func(p []byte) { rawSend(t, m.nodes[0].conn, 1, p); sent++ }
		send(nil)
		for n := range len(valid) { // every strict prefix
			send(valid[:n])
		}
		for range 200 {
			p := make([]byte, rng.IntN(transport.MaxDatagram+1))
			for i := range p {
				p[i] = byte(rng.Uint32())
			}
			if len(p) > 0 && rng.IntN(2) == 0 {
				p[0] = 0xA1 // past the magic check
			}
			send(p)
		}
		m.net.RunUntil(m.net.Now() + 20*time.Millisecond)
		before, _ := m.nodes[1].ep.Peer(0)
		mustPoll(t)(m.nodes[1].ep.Poll(m.net.Now(), &m.nodes[1].rx))
		after, _ := m.nodes[1].ep.Peer(0)
		dropped := after.Malformed + after.WrongToken - before.Malformed - before.WrongToken
		if dropped != uint64(sent) || len(m.nodes[1].rx.msgs) != 0 {
			t.Errorf("dropped %d of %d garbage datagrams, delivered %d", dropped, sent, len(m.nodes[1].rx.msgs))
		}
		if got := after.PacketsReceived - before.PacketsReceived; got != uint64(sent) {
			t.Errorf("PacketsReceived grew by %d, want %d", got, sent)
		}
	})
	t.Run("replayed", func(t *testing.T) {
		m := connected(t)
		rx := &m.nodes[1].rx
		deliver := func(p []byte) {
			rawSend(t, m.nodes[0].conn, 1, p)
			now := m.net.Now() + 20*time.Millisecond
			m.net.RunUntil(now)
			*rx = recorder{}
			mustPoll(t)(m.nodes[1].ep.Poll(now, rx))
		}
		deliver(pairPacket(t, m, 1000, 5))
		if len(rx.msgs) != 1 {
			t.Fatalf("fresh packet: %d messages delivered, want 1", len(rx.msgs))
		}
		for _, seq := range []uint64{1000, 999 - wire.ReplayWindowSize, 0} {
			deliver(pairPacket(t, m, seq, 5))
			if len(rx.msgs) != 0 {
				t.Errorf("sequence %d replayed: delivered", seq)
			}
		}
		if s, _ := m.nodes[1].ep.Peer(0); s.Replayed != 3 {
			t.Errorf("Replayed = %d, want 3", s.Replayed)
		}
	})
	t.Run("early input", func(t *testing.T) {
		m := newMesh(t, 2, link20ms, nil)
		rawSend(t, m.nodes[0].conn, 1, inputPacket(t, testToken, 1000, 5))
		m.net.RunUntil(20 * time.Millisecond)
		mustPoll(t)(m.nodes[1].ep.Poll(20*time.Millisecond, &m.nodes[1].rx))
		s, _ := m.nodes[1].ep.Peer(0)
		if len(m.nodes[1].rx.msgs) != 0 || s.Early != 1 || s.Heard {
			t.Errorf("input before the handshake: delivered %d, Early %d, Heard %v; want 0, 1, false",
				len(m.nodes[1].rx.msgs), s.Early, s.Heard)
		}
	})
	t.Run("unknown source", func(t *testing.T) {
		m := connected(t)
		stranger := m.net.NewEndpoint() // address 2, in nobody's table
		h := wire.Hello{Protocol: wire.Protocol, Config: m.nodes[1].ep.Config().Digest}
		for i := range 5000 {
			h.Nonce = uint64(i)
			p, _ := wire.AppendHello(nil, testKey, uint64(i), &h)
			rawSend(t, stranger, 1, p)
		}
		m.run(m.net.Now()+200*time.Millisecond, time.Millisecond)
		st := m.nodes[1].ep.Stats()
		// The inbox holds at most 1024 (sim.Config.InboxLimit's default); the rest
		// were dropped by the network, not by the endpoint.
		if st.Unknown != 1024 || st.UnknownBytes != 1024*wire.HelloSize {
			t.Errorf("Unknown = %d (%d bytes), want 1024 (%d bytes)", st.Unknown, st.UnknownBytes, 1024*wire.HelloSize)
		}
		if st.PollLimited == 0 {
			t.Errorf("PollLimited = 0: a Poll read more than MaxPoll datagrams")
		}
		if got := m.net.Inbound(stranger.ID()).Delivered.Packets; got != 0 {
			t.Errorf("the stranger received %d datagrams, want 0", got)
		}
		if s, _ := m.nodes[1].ep.Peer(0); s.State != StateConnected {
			t.Errorf("peer 0 state = %v, want connected", s.State)
		}
	})
}

// forgetConn is a scriptConn that records Forget calls.
type forgetConn struct {
	scriptConn
	forgot []transport.Addr
}

func (c *forgetConn) Forget(id transport.Addr) error { c.forgot = append(c.forgot, id); return nil }

func TestForgetStranger(t *testing.T) {
	conn := &forgetConn{scriptConn: scriptConn{from: 7}}
	ep, err := New[slotInput](testConfig(t, 2, 1), conn, []transport.Addr{1})
	if err != nil {
		t.Fatal(err)
	}
	h := wire.Hello{Protocol: wire.Protocol, Config: testDigest(t, 2)}
	good, _ := wire.AppendHello(nil, testKey, 0, &h)
	wrong, _ := wire.AppendHello(nil, wire.NewKey(testToken+1), 0, &h)
	for _, tc := range []struct {
		name   string
		p      []byte
		forget bool
	}{
		{"garbage", []byte("garbage"), true},
		{"wrong token", wrong, true},
		{"right token", good, true}, // no Rebinder: nobody it could be
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn.forgot = nil
			conn.queue = [][]byte{tc.p}
			mustPoll(t)(ep.Poll(0, nil))
			if got := len(conn.forgot) == 1 && conn.forgot[0] == 7; got != tc.forget {
				t.Errorf("forgot %v, want forget %v", conn.forgot, tc.forget)
			}
			if len(conn.sent) != 0 {
				t.Errorf("answered a stranger with %d datagrams", len(conn.sent))
			}
		})
	}
}

// rebindConn is a scriptConn that records Forget and Rebind calls.
type rebindConn struct {
	forgetConn
	rebinds [][2]transport.Addr
}

func (c *rebindConn) Rebind(id, from transport.Addr) error {
	c.rebinds = append(c.rebinds, [2]transport.Addr{id, from})
	return nil
}

func TestRebind(t *testing.T) {
	cfg := testConfig(t, 2, 1)
	conn := &rebindConn{forgetConn: forgetConn{scriptConn: scriptConn{from: 1}}}
	ep, err := New[slotInput](cfg, conn, []transport.Addr{1})
	if err != nil {
		t.Fatal(err)
	}
	// Handshake with the scripted peer at address 1; its Hello nonce is 99.
	p1 := scriptedHandshake(t, ep, &conn.scriptConn, ms, nil)
	hello := wire.Hello{Protocol: wire.Protocol, Nonce: 99, Config: cfg.Digest}
	// Its captured first Hello, replayed from address 7 while it is
	// connected: before, this moved the peer to the attacker's address.
	conn.from, conn.queue = 7, [][]byte{p1}
	mustPoll(t)(ep.Poll(2*ms, nil))
	if s, _ := ep.Peer(0); len(conn.rebinds) != 0 || !slices.Equal(conn.forgot, []transport.Addr{7}) || s.RebindsRefused != 1 {
		t.Fatalf("a replayed Hello of a connected peer: rebinds %v, forgot %v, RebindsRefused %d", conn.rebinds, conn.forgot, s.RebindsRefused)
	}
	conn.from, conn.forgot = 1, nil
	// The peer falls silent, then its Hellos arrive from address 7.
	mustNil(t, ep.Tick(600*ms))
	if ep.State(0) != StateInterrupted {
		t.Fatalf("state %v, want interrupted", ep.State(0))
	}
	s, _ := ep.Peer(0)
	if s.HellosSent != 2 {
		t.Errorf("HellosSent = %d while interrupted, want 2 (the Hello is repeated)", s.HellosSent)
	}
	conn.from = 7
	other := hello
	other.Nonce = 100
	p3, _ := wire.AppendHello(nil, testKey, 2, &other)
	conn.queue = [][]byte{p3}
	mustPoll(t)(ep.Poll(700*ms, nil))
	if len(conn.rebinds) != 0 || !slices.Equal(conn.forgot, []transport.Addr{7}) || ep.State(0) != StateInterrupted {
		t.Fatalf("a Hello with another nonce: rebinds %v, forgot %v, state %v", conn.rebinds, conn.forgot, ep.State(0))
	}
	// The captured first Hello, replayed from address 7: older than the
	// peer's reply, so it moves nothing.
	conn.forgot, conn.queue = nil, [][]byte{p1}
	mustPoll(t)(ep.Poll(705*ms, nil))
	if s, _ := ep.Peer(0); len(conn.rebinds) != 0 || !slices.Equal(conn.forgot, []transport.Addr{7}) || s.RebindsRefused != 2 {
		t.Fatalf("a replayed Hello: rebinds %v, forgot %v, RebindsRefused %d", conn.rebinds, conn.forgot, s.RebindsRefused)
	}
	p4, _ := wire.AppendHello(nil, testKey, 3, &hello)
	conn.queue = [][]byte{p4}
	conn.sent = nil
	mustPoll(t)(ep.Poll(710*ms, nil))
	if want := [][2]transport.Addr{{1, 7}}; len(conn.rebinds) != 1 || conn.rebinds[0] != want[0] {
		t.Errorf("rebinds = %v, want %v", conn.rebinds, want)
	}
	if ep.State(0) != StateConnected || len(conn.sent) != 1 {
		t.Errorf("after the rebind: state %v, %d answers; want connected, 1", ep.State(0), len(conn.sent))
	}
	if evs := ep.Events(); len(evs) < 2 || evs[len(evs)-1].Kind != EventResumed {
		t.Errorf("events = %v, want ... interrupted, resumed", evs)
	}
}
