package endpoint

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
	"github.com/stretchr/testify/require"
)

// openMesh is a host (node 0, player 0's) whose only peer, node 1, is
// open (a spectator), and node 1 absent from the start: its process is dead until
// the test starts one with startSpectator.
func openMesh(t *testing.T) *mesh {
	t.Helper()
	m := newMesh(t, 2, link20ms, func(i int, c *Config) {
		if i == 0 {
			c.Open, c.Seat = 1, wire.SeatOf(0) // a player's host; the spectator has no seat
		}
	})
	m.nodes[1].dead = true
	_ = m.nodes[1].conn.Close()
	m.step(0)
	return m
}

// startSpectator starts a new process of node 1 at its address: a
// spectator's endpoint, which knows nothing of earlier ones.
func (m *mesh) startSpectator(t *testing.T, seed uint64) {
	t.Helper()
	conn, err := m.net.Reopen(m.nodes[1].conn.ID())
	require.NoError(t, err)
	ep, err := New[slotInput](testConfig(t, 2, seed), conn, peerAddrs(2, 1))
	require.NoError(t, err)
	m.nodes[1] = &node{ep: ep, conn: conn}
}

// An open peer that arrives long after its handshake timed out still
// comes in, and one that comes back after its session ended (its process
// restarted) too; both work in both directions.
func TestOpenPeerComesLateAndComesBack(t *testing.T) {
	m := openMesh(t)
	m.run(15*time.Second, 10*time.Millisecond)
	require.Equal(t, []EventKind{EventDisconnected}, kinds(m.nodes[0].events, 0), "the first handshake timed out")
	sent, _ := m.nodes[0].ep.Peer(0)
	m.run(25*time.Second, 10*time.Millisecond)
	idle, _ := m.nodes[0].ep.Peer(0)
	require.Equal(t, sent.HellosSent, idle.HellosSent, "no Hello goes to the absent peer after its handshake timed out")

	for round, seed := range []uint64{61, 62} {
		m.startSpectator(t, seed)
		m.run(m.net.Now()+500*time.Millisecond, time.Millisecond)
		require.Equal(t, StateConnected, m.nodes[0].ep.State(0), "round %d: host", round)
		require.Equal(t, StateConnected, m.nodes[1].ep.State(0), "round %d: spectator", round)
		require.Equal(t, EventRestarted, kinds(m.nodes[0].events, 0)[len(kinds(m.nodes[0].events, 0))-1], "round %d", round)

		now := m.net.Now()
		require.NoError(t, m.nodes[0].ep.SendTransfer(now, 0, []byte{byte(round)}))
		require.NoError(t, m.nodes[1].ep.SendTransfer(now, 0, []byte{9}))
		m.run(now+100*time.Millisecond, time.Millisecond)
		require.Equal(t, [][]byte{{byte(round)}}, m.nodes[1].rx.transfers, "round %d: host to spectator", round)
		require.Equal(t, [][]byte{{9}}, m.nodes[0].rx.transfers[len(m.nodes[0].rx.transfers)-1:], "round %d: spectator to host", round)

		// The spectator's process dies; the host finds it gone.
		require.NoError(t, m.nodes[1].conn.Close())
		m.nodes[1].dead = true
		m.run(m.net.Now()+4*time.Second, 10*time.Millisecond)
		require.Equal(t, StateDisconnected, m.nodes[0].ep.State(0), "round %d", round)
	}
	st, _ := m.nodes[0].ep.Peer(0)
	require.EqualValues(t, 2, st.Restarts)
}

// A peer that is not open does not come back after its handshake timed
// out: the match went on without it.
func TestClosedPeerDoesNotComeLate(t *testing.T) {
	m := newMesh(t, 2, link20ms, nil)
	m.nodes[1].dead = true
	_ = m.nodes[1].conn.Close()
	m.step(0)
	m.run(15*time.Second, 10*time.Millisecond)
	m.startSpectator(t, 63)
	m.run(m.net.Now()+2*time.Second, time.Millisecond)
	require.Equal(t, StateDisconnected, m.nodes[0].ep.State(0))
	require.NotContains(t, kinds(m.nodes[0].events, 0), EventRestarted)
}

// Replayed Hellos of earlier spectator processes, and Hellos without the
// match token, open no session with an open peer: a new process still
// comes in after them.
func TestOpenPeerRefusesReplays(t *testing.T) {
	m := openMesh(t)
	m.run(15*time.Second, 10*time.Millisecond)
	key, wrong := wire.NewKey(testToken), wire.NewKey(testToken+1)
	r := rand.New(rand.NewPCG(6, 6))
	for k := range 20 {
		h := wire.Hello{Protocol: wire.Protocol, Nonce: r.Uint64(), Config: testDigest(t, 2)}
		p, err := wire.AppendHello(nil, key, uint64(k), &h)
		require.NoError(t, err)
		q, err := wire.AppendHello(nil, wrong, uint64(k), &h)
		require.NoError(t, err)
		conn, err := m.net.Reopen(m.nodes[1].conn.ID())
		require.NoError(t, err)
		rawSend(t, conn, m.nodes[0].conn.ID(), p)
		rawSend(t, conn, m.nodes[0].conn.ID(), q)
		m.run(m.net.Now()+50*time.Millisecond, time.Millisecond)
		require.NoError(t, conn.Close())
	}
	require.NotContains(t, kinds(m.nodes[0].events, 0), EventRestarted)
	require.Equal(t, StateDisconnected, m.nodes[0].ep.State(0))
	st, _ := m.nodes[0].ep.Peer(0)
	require.Positive(t, st.WrongToken)

	m.startSpectator(t, 64)
	m.run(m.net.Now()+500*time.Millisecond, time.Millisecond)
	require.Equal(t, StateConnected, m.nodes[0].ep.State(0))
	require.Equal(t, StateConnected, m.nodes[1].ep.State(0))
}

// An open seat (a player's peer in Config.Open) is taken at once by a
// new process of that seat with the match token and Rejoin, even while
// this endpoint still sends it the Hellos of its first handshake; a
// process of another seat, or one without the token, takes nothing.
func TestOpenSeatIsTakenOnlyByItsPlayer(t *testing.T) {
	for _, tc := range []struct {
		name  string
		seat  core.PlayerHandle
		token uint64
		taken bool
	}{
		{"its player", 1, testToken, true},
		{"another seat", 2, testToken, false},
		{"wrong token", 1, testToken + 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newMesh(t, 2, link20ms, func(i int, c *Config) {
				if i == 0 {
					c.Open, c.Seat, c.Seats = 1, wire.SeatOf(0), []wire.Seat{wire.SeatOf(1)}
				}
			})
			m.nodes[1].dead = true
			_ = m.nodes[1].conn.Close()
			m.step(0)
			m.run(2*time.Second, 10*time.Millisecond)
			conn, err := m.net.Reopen(m.nodes[1].conn.ID())
			require.NoError(t, err)
			c := testConfig(t, 2, 65)
			c.Token, c.Rejoin = tc.token, true
			c.Seat, c.Seats = wire.SeatOf(tc.seat), []wire.Seat{wire.SeatOf(0)}
			ep, err := New[slotInput](c, conn, peerAddrs(2, 1))
			require.NoError(t, err)
			m.nodes[1] = &node{ep: ep, conn: conn}
			m.run(m.net.Now()+time.Second, time.Millisecond)
			st, _ := m.nodes[0].ep.Peer(0)
			if !tc.taken {
				require.NotContains(t, kinds(m.nodes[0].events, 0), EventRestarted)
				require.Equal(t, StateHandshaking, m.nodes[0].ep.State(0))
				require.Positive(t, st.WrongSeat+st.WrongToken)
				return
			}
			require.Contains(t, kinds(m.nodes[0].events, 0), EventRestarted)
			require.Equal(t, StateConnected, m.nodes[0].ep.State(0))
			require.Equal(t, StateConnected, m.nodes[1].ep.State(0))
			now := m.net.Now()
			require.NoError(t, m.nodes[0].ep.SendTransfer(now, 0, []byte{5}))
			m.run(now+100*time.Millisecond, time.Millisecond)
			require.Equal(t, [][]byte{{5}}, m.nodes[1].rx.transfers)
		})
	}
}

// A restarted process at a new address (its NAT mapped it elsewhere) is
// moved to, once its seat's session ended: its Rejoin Hello rebinds the
// peer and the restart handshake runs there. A live peer is never moved
// by one, nor a peer of another seat.
func TestRestartFromNewAddress(t *testing.T) {
	cfg := testConfig(t, 2, 1)
	cfg.Seat, cfg.Seats = wire.SeatOf(0), []wire.Seat{wire.SeatOf(1)}
	conn := &rebindConn{forgetConn: forgetConn{scriptConn: scriptConn{from: 1}}}
	ep, err := New[slotInput](cfg, conn, []transport.Addr{1})
	require.NoError(t, err)
	scriptedHandshake(t, ep, &conn.scriptConn, ms, nil)
	rejoin := func(seat core.PlayerHandle, seq uint64) []byte {
		h := wire.Hello{Protocol: wire.Protocol, Nonce: 555, Config: cfg.Digest, Seat: wire.SeatOf(seat), Rejoin: true}
		p, err := wire.AppendHello(nil, testKey, seq, &h)
		require.NoError(t, err)
		return p
	}

	mustNil(t, ep.Tick(600*ms))
	require.Equal(t, StateInterrupted, ep.State(0))
	conn.from, conn.queue = 7, [][]byte{rejoin(1, 0)}
	mustPoll(t)(ep.Poll(700*ms, nil))
	require.Empty(t, conn.rebinds, "an interrupted peer may still be alive where it is")

	mustNil(t, ep.Tick(4*time.Second))
	require.Equal(t, StateDisconnected, ep.State(0))
	conn.from, conn.queue = 8, [][]byte{rejoin(0, 1)} // this endpoint's own seat
	mustPoll(t)(ep.Poll(4*time.Second, nil))
	require.Empty(t, conn.rebinds, "another seat's Hello")

	conn.from, conn.queue, conn.sent, conn.sentTo = 7, [][]byte{rejoin(1, 2)}, nil, nil
	mustPoll(t)(ep.Poll(4*time.Second+ms, nil))
	require.Equal(t, [][2]transport.Addr{{1, 7}}, conn.rebinds)
	require.Len(t, conn.sent, 1, "the restart reply")
	require.NotNil(t, ep.peers[0].restart, "a pending restart, which only the new process's proof completes")
	require.Equal(t, StateDisconnected, ep.State(0))
}

// Spectators' processes at addresses the host does not know (behind
// NATs) take the free spectator places, first to first: while the places
// still wait for a first Hello, and after their handshakes timed out.
func TestSpectatorFromNewAddress(t *testing.T) {
	for _, late := range []bool{false, true} {
		t.Run(fmt.Sprintf("late=%v", late), func(t *testing.T) {
			cfg := testConfig(t, 2, 1)
			cfg.Seat, cfg.Open = wire.SeatOf(0), 0b11
			conn := &rebindConn{forgetConn: forgetConn{scriptConn: scriptConn{from: 1}}}
			ep, err := New[slotInput](cfg, conn, []transport.Addr{1, 2})
			require.NoError(t, err)
			mustNil(t, ep.Tick(0))
			now := time.Duration(0)
			if late {
				now = 11 * time.Second
				mustNil(t, ep.Tick(now)) // nobody came: the places' handshakes time out
				require.Equal(t, StateDisconnected, ep.State(0))
			}
			for k, from := range []transport.Addr{7, 8} {
				h := wire.Hello{Protocol: wire.Protocol, Nonce: 777 + uint64(k), Config: cfg.Digest}
				p, err := wire.AppendHello(nil, testKey, 0, &h)
				require.NoError(t, err)
				conn.from, conn.queue = from, [][]byte{p}
				now += ms
				mustPoll(t)(ep.Poll(now, nil))
			}
			require.Equal(t, [][2]transport.Addr{{1, 7}, {2, 8}}, conn.rebinds)
			if late {
				require.NotNil(t, ep.peers[0].restart, "a restart handshake at the new address")
				require.NotNil(t, ep.peers[1].restart)
			} else {
				require.True(t, ep.peers[0].helloSeen, "the first handshake at the new address")
				require.True(t, ep.peers[1].helloSeen)
			}
		})
	}
}

// A spectator that starts while its host's process is down meets the
// host's new process (Rejoin): the new process takes only restart
// replies, so the spectator answers its Hello as a survivor would, even
// when it took a Hello of the dead process first. Before, each ignored
// what the other needed until the handshakes timed out.
func TestSpectatorMeetsARestartedHost(t *testing.T) {
	for _, sawOld := range []bool{false, true} {
		t.Run(fmt.Sprintf("sawOld=%v", sawOld), func(t *testing.T) {
			m := openMesh(t)
			m.run(time.Second, 10*time.Millisecond)
			if sawOld {
				m.startSpectator(t, 72)
				for k := 0; !m.nodes[1].ep.peers[0].helloSeen; k++ {
					require.Less(t, k, 1000)
					m.run(m.net.Now()+time.Millisecond, time.Millisecond)
				}
				require.Equal(t, StateHandshaking, m.nodes[1].ep.State(0))
				m.nodes[0].dead = true // before the spectator's reply arrives
			}
			m.restartNode(t, 0, 71, func(c *Config) { c.Open, c.Seat, c.Seats = 1, wire.SeatOf(0), nil })
			m.run(m.net.Now()+300*time.Millisecond, 10*time.Millisecond)
			if !sawOld {
				m.startSpectator(t, 72)
			}
			m.run(m.net.Now()+time.Second, time.Millisecond)
			require.Equal(t, StateConnected, m.nodes[0].ep.State(0), "host")
			require.Equal(t, StateConnected, m.nodes[1].ep.State(0), "spectator")
			requireBothWays(t, m)
		})
	}
}
