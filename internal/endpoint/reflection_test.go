package endpoint

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
)

// connectedN is connected for n nodes, with Config's Rand drawn from
// seeds seed+i (so two meshes with other seeds have other nonces).
func connectedN(t *testing.T, n int, seed uint64) *mesh {
	t.Helper()
	m := newMesh(t, n, link20ms, func(i int, c *Config) { *c = testConfig(t, n, seed+uint64(i)) })
	m.step(0)
	m.run(100*time.Millisecond, time.Millisecond)
	for i, nd := range m.nodes {
		for p := range n - 1 {
			require.Equal(t, StateConnected, nd.ep.State(core.PeerID(p)), "node %d, peer %d", i, p)
		}
		nd.events, nd.rx = nil, recorder{}
	}
	return m
}

// TestPacketsBoundToTheirDirection: every packet but Hello and HelloReply
// is tagged with a key of its sender, receiver and handshake. With one key
// per match, a peer's own packets reflected back to it from its peer's
// address passed the tag and the replay window (the audit stalled a
// fighter 13 s of 15 that way), a packet could be replayed to another peer
// of the match, and one of an earlier match under the same token was
// taken. Now each fails its tag, is counted as WrongToken and changes
// nothing.
func TestPacketsBoundToTheirDirection(t *testing.T) {
	m := connectedN(t, 3, 1)
	// Node 0's packet to node 1 (peer 0 of node 0 is node 1).
	p := inputPacketKey(t, m.nodes[0].ep.peers[0].txKey, 1000, 5)
	deliver := func(from, to int, peerIdx core.PeerID) PeerStats {
		t.Helper()
		before, _ := m.nodes[to].ep.Peer(peerIdx)
		rawSend(t, m.nodes[from].conn, transport.Addr(to), p)
		now := m.net.Now() + 20*time.Millisecond
		m.net.RunUntil(now)
		m.nodes[to].rx = recorder{}
		mustPoll(t)(m.nodes[to].ep.Poll(now, &m.nodes[to].rx))
		after, _ := m.nodes[to].ep.Peer(peerIdx)
		assert.Empty(t, m.nodes[to].rx.msgs, "delivered")
		assert.Equal(t, before.WrongToken+1, after.WrongToken, "WrongToken")
		assert.Equal(t, before.LastHeard, after.LastHeard, "a rejected packet marked its peer heard")
		return after
	}
	t.Run("reflected to its sender", func(t *testing.T) { deliver(1, 0, 0) })
	t.Run("replayed to another peer", func(t *testing.T) { deliver(0, 2, 0) })
	t.Run("the genuine receiver takes it", func(t *testing.T) {
		rawSend(t, m.nodes[0].conn, 1, p)
		now := m.net.Now() + 20*time.Millisecond
		m.net.RunUntil(now)
		m.nodes[1].rx = recorder{}
		mustPoll(t)(m.nodes[1].ep.Poll(now, &m.nodes[1].rx))
		assert.Len(t, m.nodes[1].rx.msgs, 1)
	})
	t.Run("replayed into a later match", func(t *testing.T) {
		later := connectedN(t, 3, 100) // same token, other nonces
		m, p = later, inputPacketKey(t, m.nodes[0].ep.peers[0].txKey, 2000, 5)
		deliver(0, 1, 0)
	})
}

// TestForwardJumpNeedsConfirmation: one authentic Hello whose sequence
// number is far ahead of the peer's (what a token holder can forge) is
// dropped and moves no window, so the genuine packets that follow still
// arrive. Before, it slid the replay window past every genuine sequence
// number and cut the link for good.
func TestForwardJumpNeedsConfirmation(t *testing.T) {
	m := connectedN(t, 2, 1)
	h := wire.Hello{Protocol: wire.Protocol, Nonce: m.nodes[0].ep.peers[0].nonce, Config: m.nodes[1].ep.Config().Digest}
	p, err := wire.AppendHello(nil, testKey, 1<<40, &h)
	require.NoError(t, err)
	rawSend(t, m.nodes[0].conn, 1, p)
	before, _ := m.nodes[1].ep.Peer(0)
	m.run(m.net.Now()+time.Second, 5*time.Millisecond)
	after, _ := m.nodes[1].ep.Peer(0)
	assert.Equal(t, uint64(1), after.Jumped-before.Jumped, "Jumped")
	assert.Equal(t, StateConnected, after.State)
	assert.Zero(t, after.WrongToken-before.WrongToken, "genuine packets failing their tag after the jump")
	assert.GreaterOrEqual(t, after.PacketsReceived-before.PacketsReceived, uint64(4), "keep-alives in the second after the forged Hello")
	assert.Greater(t, after.LastHeard, before.LastHeard+900*time.Millisecond, "the peer is still heard")
}
