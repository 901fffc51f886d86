package endpoint

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

// testInput is a 2-byte input.
type testInput uint16

// slotInput is what engines send: a testInput with its control word. The
// endpoints of the tests carry it (as the front ends' do), so real engines
// can sit behind them.
type slotInput = engine.Slot[testInput]

const testToken = 0x7e57_7e57_7e57_7e57

// testKey is the key of testToken.
var testKey = wire.NewKey(testToken)

// keyOf returns the key ep tagged p with, if ep sent p to peer i: testKey
// for a Hello or HelloReply, the pair's direction key otherwise.
func keyOf(ep *Endpoint[slotInput], i int, p []byte) wire.Key {
	if ep == nil || wire.PacketType(p).Handshake() {
		return testKey
	}
	return ep.peers[i].sendKey(testKey)
}

// testDigest returns the digest of a players-player match of testInput at
// 60 frames/s, as the front ends make it: of the slots its engines send
// (New refuses a Digest whose InputSize is not its element type's).
func testDigest(t testing.TB, players int) wire.ConfigDigest {
	t.Helper()
	d, err := wire.DigestOf[slotInput](players, 60, 1, [16]byte{'t', 'e', 's', 't'})
	if err != nil {
		t.Fatalf("DigestOf: %v", err)
	}
	return d
}

// testConfig returns a Config for node i of a players-player test match.
func testConfig(t testing.TB, players int, seed uint64) Config {
	return Config{Token: testToken, Digest: testDigest(t, players), Rand: rand.NewChaCha8(seedBytes(seed))}
}

func seedBytes(seed uint64) [32]byte {
	var b [32]byte
	for i := range 8 {
		b[i] = byte(seed >> (8 * i))
	}
	return b
}

// recorder is a Receiver that keeps deep copies of what it receives.
type recorder struct {
	from      []core.PeerID
	msgs      []engine.Message[slotInput]
	err       error    // returned by Receive when set
	transfers [][]byte // payloads of Transfer packets
}

func (r *recorder) ReceiveTransfer(_ time.Duration, _ core.PeerID, payload []byte) {
	r.transfers = append(r.transfers, slices.Clone(payload))
}

func (r *recorder) Receive(_ time.Duration, from core.PeerID, m *engine.Message[slotInput]) error {
	c := *m
	c.Inputs = nil
	for _, run := range m.Inputs {
		c.Inputs = append(c.Inputs, engine.InputRun[slotInput]{Player: run.Player, Start: run.Start, Values: slices.Clone(run.Values)})
	}
	c.Checksums = slices.Clone(m.Checksums)
	c.Blocks.Hashes = slices.Clone(m.Blocks.Hashes)
	r.from = append(r.from, from)
	r.msgs = append(r.msgs, c)
	return r.err
}

// node is one endpoint of a mesh on a sim.Network.
type node struct {
	ep     *Endpoint[slotInput]
	conn   *sim.Endpoint
	rx     recorder
	events []Event
	dead   bool // its process died: step skips it
}

// mesh is n fully connected endpoints on one virtual-time network.
type mesh struct {
	t     testing.TB
	net   *sim.Network
	nodes []*node
}

// newMesh makes n endpoints; cfg(i, &c) may change node i's Config.
func newMesh(t testing.TB, n int, link sim.LinkConfig, cfg func(i int, c *Config)) *mesh {
	t.Helper()
	nw, err := sim.New(sim.Config{Seed: 42, Link: link})
	if err != nil {
		t.Fatalf("sim.New: %v", err)
	}
	m := &mesh{t: t, net: nw}
	for range n {
		m.nodes = append(m.nodes, &node{conn: nw.NewEndpoint()})
	}
	for i, nd := range m.nodes {
		c := testConfig(t, n, uint64(i)+1)
		if cfg != nil {
			cfg(i, &c)
		}
		nd.ep, err = New[slotInput](c, nd.conn, peerAddrs(n, i))
		if err != nil {
			t.Fatalf("New(node %d): %v", i, err)
		}
	}
	return m
}

// peerAddrs lists the transport addresses of node self's peers in core
// order: every other node, ascending.
func peerAddrs(n, self int) []transport.Addr {
	var a []transport.Addr
	for j := range n {
		if j != self {
			a = append(a, transport.Addr(j))
		}
	}
	return a
}

// step moves the network to now and polls and ticks every node.
func (m *mesh) step(now time.Duration) {
	m.t.Helper()
	m.net.RunUntil(now)
	for i, nd := range m.nodes {
		if nd.dead {
			continue
		}
		if _, err := nd.ep.Poll(now, &nd.rx); err != nil {
			m.t.Fatalf("node %d Poll(%v): %v", i, now, err)
		}
		if err := nd.ep.Tick(now); err != nil {
			m.t.Fatalf("node %d Tick(%v): %v", i, now, err)
		}
		nd.events = append(nd.events, nd.ep.Events()...)
	}
}

// run steps from the network's now to until in steps of d.
func (m *mesh) run(until, d time.Duration) {
	for now := m.net.Now() + d; now <= until; now += d {
		m.step(now)
	}
}

// kinds returns the kinds of a node's events for peer p.
func kinds(evs []Event, p core.PeerID) []EventKind {
	var k []EventKind
	for _, e := range evs {
		if e.Peer == p {
			k = append(k, e.Kind)
		}
	}
	return k
}

// send delivers raw datagram p from conn to the address to.
func rawSend(t testing.TB, c transport.Conn, to transport.Addr, p []byte) {
	t.Helper()
	if err := c.Send(to, p); err != nil {
		t.Fatalf("Send: %v", err)
	}
}
