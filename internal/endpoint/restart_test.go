package endpoint

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
	"github.com/stretchr/testify/require"
)

// seatedMesh is a connected two-node mesh whose nodes name their seats
// (player i on node i), as sessions configure them.
func seatedMesh(t *testing.T) *mesh {
	t.Helper()
	m := newMesh(t, 2, link20ms, func(i int, c *Config) {
		c.Seat, c.Seats = wire.SeatOf(core.PlayerHandle(i)), []wire.Seat{wire.SeatOf(core.PlayerHandle(1 - i))}
	})
	m.step(0)
	m.run(100*time.Millisecond, time.Millisecond)
	for i, nd := range m.nodes {
		require.Equal(t, StateConnected, nd.ep.State(0), "node %d", i)
		nd.events = nil
	}
	return m
}

// restartNode replaces node i's process: its socket closes, a new one
// opens at the same address, and a new endpoint with Rejoin set (and
// cfg's changes) starts there.
func (m *mesh) restartNode(t *testing.T, i int, seed uint64, cfg func(c *Config)) {
	t.Helper()
	nd := m.nodes[i]
	_ = nd.conn.Close() // the old process may have died already
	conn, err := m.net.Reopen(nd.conn.ID())
	require.NoError(t, err)
	c := testConfig(t, len(m.nodes), seed)
	c.Seat, c.Seats, c.Rejoin = wire.SeatOf(core.PlayerHandle(i)), []wire.Seat{wire.SeatOf(core.PlayerHandle(1 - i))}, true
	if cfg != nil {
		cfg(&c)
	}
	ep, err := New[slotInput](c, conn, peerAddrs(len(m.nodes), i))
	require.NoError(t, err)
	m.nodes[i] = &node{ep: ep, conn: conn}
}

// A restarted process of a seat comes back: the survivor raises
// EventRestarted once the new process proves itself, and both directions
// work under the new keys, whether the survivor had already dropped the
// old process or only found it silent.
func TestRestartReconnects(t *testing.T) {
	for _, down := range []time.Duration{300 * time.Millisecond, 4 * time.Second} {
		t.Run(down.String(), func(t *testing.T) {
			m := seatedMesh(t)
			require.NoError(t, m.nodes[1].conn.Close()) // the process dies
			m.nodes[1].dead = true
			m.run(m.net.Now()+down, time.Millisecond)
			m.restartNode(t, 1, 77, nil)
			m.run(m.net.Now()+300*time.Millisecond, time.Millisecond)

			require.Contains(t, kinds(m.nodes[0].events, 0), EventRestarted)
			require.Equal(t, StateConnected, m.nodes[0].ep.State(0))
			require.Equal(t, StateConnected, m.nodes[1].ep.State(0))
			st, _ := m.nodes[0].ep.Peer(0)
			require.EqualValues(t, 1, st.Restarts)

			requireBothWays(t, m)
		})
	}
}

// Nobody without the match token can open a restart, a new process can
// only take its own seat, and a replayed Rejoin Hello (of an earlier
// restart) opens one that never completes: the live peer keeps its keys
// and its packets keep counting.
func TestRestartRefusals(t *testing.T) {
	t.Run("wrong token", func(t *testing.T) {
		m := seatedMesh(t)
		m.restartNode(t, 1, 78, func(c *Config) { c.Token = testToken + 1 })
		m.run(m.net.Now()+2*time.Second, time.Millisecond)
		require.NotContains(t, kinds(m.nodes[0].events, 0), EventRestarted)
		require.Equal(t, StateHandshaking, m.nodes[1].ep.State(0))
		st, _ := m.nodes[0].ep.Peer(0)
		require.Zero(t, st.Restarts)
		require.Positive(t, st.WrongToken)
	})
	t.Run("another seat", func(t *testing.T) {
		m := seatedMesh(t)
		m.restartNode(t, 1, 79, func(c *Config) { c.Seat, c.Seats = wire.SeatOf(0), []wire.Seat{wire.SeatOf(1)} }) // node 0's seat
		m.run(m.net.Now()+2*time.Second, time.Millisecond)
		require.NotContains(t, kinds(m.nodes[0].events, 0), EventRestarted)
		st, _ := m.nodes[0].ep.Peer(0)
		require.Zero(t, st.Restarts)
		require.Positive(t, st.WrongSeat)
	})
	t.Run("replayed hello", func(t *testing.T) {
		m := seatedMesh(t)
		key := wire.NewKey(testToken)
		r := rand.New(rand.NewPCG(5, 5))
		for k := range 20 {
			// What an on-path attacker could replay: Rejoin Hellos of some
			// process of seat 1, with the match's digest, from its address.
			h := wire.Hello{Protocol: wire.Protocol, Nonce: r.Uint64(), Config: testDigest(t, 2), Seat: wire.SeatOf(1), Rejoin: true}
			p, err := wire.AppendHello(nil, key, uint64(k), &h)
			require.NoError(t, err)
			rawSend(t, m.nodes[1].conn, m.nodes[0].conn.ID(), p)
			m.run(m.net.Now()+50*time.Millisecond, time.Millisecond)
		}
		before, _ := m.nodes[0].ep.Peer(0)
		m.run(m.net.Now()+time.Second, time.Millisecond)
		after, _ := m.nodes[0].ep.Peer(0)
		require.NotContains(t, kinds(m.nodes[0].events, 0), EventRestarted)
		require.Equal(t, StateConnected, m.nodes[0].ep.State(0))
		require.Zero(t, after.Restarts)
		require.Greater(t, after.PacketsReceived, before.PacketsReceived, "the live peer is still heard")
		require.Equal(t, before.WrongToken, after.WrongToken, "the live peer's packets still pass")
	})
}

// Restart makes a live endpoint's session with a peer start over as a
// restarted process's would: the peer sees EventRestarted, and both
// directions work under the new keys.
func TestRestartOfOwnSession(t *testing.T) {
	m := seatedMesh(t)
	now := m.net.Now()
	require.NoError(t, m.nodes[1].ep.Restart(now, 0))
	require.ErrorIs(t, m.nodes[1].ep.Restart(now, 5), ErrUnknownPeer)
	require.Equal(t, StateHandshaking, m.nodes[1].ep.State(0))
	m.run(now+300*time.Millisecond, time.Millisecond)
	require.Contains(t, kinds(m.nodes[0].events, 0), EventRestarted)
	require.Equal(t, StateConnected, m.nodes[1].ep.State(0))
	requireBothWays(t, m)
}

// Two endpoints that both start their session with each other over (two
// sides of a split that both yield to a third peer, or two processes that
// restarted together) connect again: the one with the lower seat answers
// the other's Rejoin Hellos as a survivor would, so neither waits for the
// other to answer first. The lower seat sees EventRestarted, the higher
// EventConnected, and both directions work under the new keys.
func TestRestartOfBothSides(t *testing.T) {
	for _, first := range []int{0, 1} {
		t.Run(fmt.Sprintf("node %d first", first), func(t *testing.T) {
			m := seatedMesh(t)
			now := m.net.Now()
			require.NoError(t, m.nodes[first].ep.Restart(now, 0))
			m.run(now+20*time.Millisecond, time.Millisecond)
			now = m.net.Now()
			require.NoError(t, m.nodes[1-first].ep.Restart(now, 0))
			m.run(now+500*time.Millisecond, time.Millisecond)
			require.Equal(t, StateConnected, m.nodes[0].ep.State(0))
			require.Equal(t, StateConnected, m.nodes[1].ep.State(0))
			require.Contains(t, kinds(m.nodes[0].events, 0), EventRestarted)
			require.Contains(t, kinds(m.nodes[1].events, 0), EventConnected)
			requireBothWays(t, m)
		})
	}
}

// Both sides start over and their handshakes cross. The higher seat
// connects through the lower seat's answer; its proof is lost; a Hello
// the lower sent before it answered reaches it, and it answers; its next
// packet, under the keys it connected with, reaches the lower seat right
// after that answer. Both sides end up under the keys of the one
// handshake. (When the lower seat's answer carried a fresh nonce instead
// of the one of its own Hellos, the higher took that Hello for another
// restart and answered it as a survivor; the lower connected through that
// answer, then the packet under the first keys proved its own pending
// answer, and each side was left with the other's keys of a different
// handshake.)
func TestRestartOfBothSidesCrossed(t *testing.T) {
	m := seatedMesh(t)
	lo, hi := m.nodes[0], m.nodes[1]
	loID, hiID := lo.conn.ID(), hi.conn.ID()
	now := m.net.Now()
	require.NoError(t, lo.ep.Restart(now, 0))
	require.NoError(t, hi.ep.Restart(now, 0))
	m.net.Cut(loID, hiID)
	m.run(now+150*time.Millisecond, time.Millisecond)
	r := lo.ep.peers[0].restart
	require.NotNil(t, r, "the lower seat answers the higher's Hellos")
	// The answer reaches the higher seat, whose proof is lost.
	m.net.Cut(hiID, loID)
	q := &lo.ep.peers[0]
	reply := wire.HelloReply{Status: wire.ReplyAccept, Protocol: wire.Protocol, Nonce: r.theirs, Config: testDigest(t, 2), Replier: r.ours}
	p, err := wire.AppendHelloReply(nil, testKey, q.seq+1, &reply)
	require.NoError(t, err)
	m.net.Restore(loID, hiID)
	rawSend(t, lo.conn, hiID, p)
	m.net.Cut(loID, hiID)
	m.run(m.net.Now()+30*time.Millisecond, time.Millisecond)
	require.Equal(t, StateConnected, hi.ep.State(0))
	// The lower seat's own Hello, sent before it answered, arrives.
	m.net.Heal()
	hello := wire.Hello{Protocol: wire.Protocol, Nonce: q.nonce, Config: testDigest(t, 2), Seat: wire.SeatOf(0), Rejoin: true}
	p, err = wire.AppendHello(nil, testKey, q.seq+2, &hello)
	require.NoError(t, err)
	rawSend(t, lo.conn, hiID, p)
	replies := hi.ep.peers[0].st.RepliesSent
	for k := 0; hi.ep.peers[0].st.RepliesSent == replies; k++ { // the higher seat answers it
		require.Less(t, k, 100, "the higher seat never answered the Hello")
		m.step(m.net.Now() + time.Millisecond)
	}
	require.NoError(t, hi.ep.SendTransfer(m.net.Now(), 0, []byte{9}))
	m.run(m.net.Now()+time.Second, time.Millisecond)

	require.Equal(t, StateConnected, lo.ep.State(0))
	require.Equal(t, StateConnected, hi.ep.State(0))
	require.Equal(t, lo.ep.peers[0].txKey, hi.ep.peers[0].rxKey, "lower to higher")
	require.Equal(t, hi.ep.peers[0].txKey, lo.ep.peers[0].rxKey, "higher to lower")
	requireBothWays(t, m)
}

// Both sides start over, but one side's handshake times out before the
// other starts (the link was down): whichever seat timed out, the pair
// connects once the other starts over. The lower seat answers even after
// its timeout; the higher one starts its handshake over when the lower's
// Hello arrives.
func TestRestartOfBothSidesAfterATimeout(t *testing.T) {
	for _, first := range []int{0, 1} {
		t.Run(fmt.Sprintf("node %d timed out", first), func(t *testing.T) {
			m := seatedMesh(t)
			a, b := m.nodes[0].conn.ID(), m.nodes[1].conn.ID()
			m.net.Cut(a, b)
			m.net.Cut(b, a)
			now := m.net.Now()
			require.NoError(t, m.nodes[first].ep.Restart(now, 0))
			m.run(now+DefaultHandshakeTimeout+time.Second, 5*time.Millisecond)
			require.Equal(t, StateDisconnected, m.nodes[first].ep.State(0), "its handshake timed out")
			m.net.Heal()
			require.NoError(t, m.nodes[1-first].ep.Restart(m.net.Now(), 0))
			m.run(m.net.Now()+time.Second, time.Millisecond)
			for i, nd := range m.nodes {
				require.Equal(t, StateConnected, nd.ep.State(0), "node %d", i)
				require.Equal(t, nd.ep.peers[0].txKey, m.nodes[1-i].ep.peers[0].rxKey, "node %d's keys", i)
			}
		})
	}
}

// requireBothWays sends a Transfer each way between the two nodes of m
// and requires each to arrive once, under whatever keys they hold.
func requireBothWays(t *testing.T, m *mesh) {
	t.Helper()
	for _, nd := range m.nodes {
		nd.rx.transfers = nil
	}
	now := m.net.Now()
	require.NoError(t, m.nodes[0].ep.SendTransfer(now, 0, []byte{7}))
	require.NoError(t, m.nodes[1].ep.SendTransfer(now, 0, []byte{8}))
	m.run(now+100*time.Millisecond, time.Millisecond)
	require.Equal(t, [][]byte{{7}}, m.nodes[1].rx.transfers, "node 0 to node 1")
	require.Equal(t, [][]byte{{8}}, m.nodes[0].rx.transfers, "node 1 to node 0")
}

// dropFirstSession is a Conn that loses the first datagram it is given
// that is not a handshake's.
type dropFirstSession struct {
	transport.Conn
	dropped bool
}

func (c *dropFirstSession) Send(to transport.Addr, p []byte) error {
	if !c.dropped && !wire.PacketType(p).Handshake() {
		c.dropped = true
		return nil
	}
	return c.Conn.Send(to, p)
}

// A new process connects through its peer's restart reply, and the
// packet that proves it to the peer is lost, while the peer, finding the
// old process silent, repeats its Hellos and the new process answers
// them. Answers are no session packets: the new process's next
// keep-alive proves it, and the peer takes it before it would have
// dropped the old process. (A Hello or reply sent put off the keep-alive
// for good, so the peer never took the new process.)
func TestRestartProofLost(t *testing.T) {
	m := seatedMesh(t)
	now := m.net.Now()
	// Both sides started over once (a split both yielded), so the peer's
	// Hellos say Rejoin, which the new process answers.
	require.NoError(t, m.nodes[0].ep.Restart(now, 0))
	require.NoError(t, m.nodes[1].ep.Restart(now, 0))
	m.run(now+30*time.Second, 5*time.Millisecond) // the old process numbers many packets
	require.Equal(t, StateConnected, m.nodes[0].ep.State(0))
	require.NoError(t, m.nodes[1].conn.Close()) // the process dies
	m.nodes[1].dead = true
	m.run(m.net.Now()+800*time.Millisecond, time.Millisecond)
	require.Equal(t, StateInterrupted, m.nodes[0].ep.State(0))

	conn, err := m.net.Reopen(m.nodes[1].conn.ID())
	require.NoError(t, err)
	c := testConfig(t, 2, 81)
	c.Seat, c.Seats, c.Rejoin = wire.SeatOf(1), []wire.Seat{wire.SeatOf(0)}, true
	drop := &dropFirstSession{Conn: conn}
	ep, err := New[slotInput](c, drop, peerAddrs(2, 1))
	require.NoError(t, err)
	m.nodes[1] = &node{ep: ep, conn: conn}
	m.nodes[0].events = nil
	m.run(m.net.Now()+time.Second, time.Millisecond)

	require.True(t, drop.dropped, "the proof was lost")
	require.Contains(t, kinds(m.nodes[0].events, 0), EventRestarted)
	require.Equal(t, StateConnected, m.nodes[0].ep.State(0))
	requireBothWays(t, m)
}

// A new process's round trips are measured afresh: the old process's
// estimate, grown while a latency spike lasted, would otherwise stay for
// seconds after the spike ended and the old process died, and everything
// timed by it (a rejoin transfer's retransmissions, the return lead)
// would wait that long.
func TestRestartMeasuresRTTAfresh(t *testing.T) {
	m := seatedMesh(t)
	slow := sim.LinkConfig{Latency: sim.Latency{Base: time.Second}}
	require.NoError(t, m.net.SetLink(0, 1, slow))
	require.NoError(t, m.net.SetLink(1, 0, slow))
	m.run(m.net.Now()+10*time.Second, 5*time.Millisecond)
	st, _ := m.nodes[0].ep.Peer(0)
	require.Greater(t, st.RTT, time.Second, "the spike's round trips")

	require.NoError(t, m.nodes[1].conn.Close()) // the process dies as the spike ends
	m.nodes[1].dead = true
	require.NoError(t, m.net.SetLink(0, 1, link20ms))
	require.NoError(t, m.net.SetLink(1, 0, link20ms))
	m.run(m.net.Now()+300*time.Millisecond, time.Millisecond)
	m.restartNode(t, 1, 83, nil)
	m.nodes[0].events = nil
	m.run(m.net.Now()+3*time.Second, time.Millisecond)

	require.Contains(t, kinds(m.nodes[0].events, 0), EventRestarted)
	st, _ = m.nodes[0].ep.Peer(0)
	require.Positive(t, st.RTTSamples)
	require.Less(t, st.RTT, 100*time.Millisecond, "the new process's round trips (40 ms), not the old one's")
}
