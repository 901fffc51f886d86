//go:build !js

package webrtc

import (
	"context"
	"testing"
	"time"

	pion "github.com/pion/webrtc/v4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport"
)

// relayPair starts Conns 1 and 2 that may use only candidates relayed by
// srv, authenticating with password.
func relayPair(t testing.TB, srv *turnServer, password string, timeout time.Duration) (a, b *Conn) {
	t.Helper()
	h := newHub()
	servers := []ICEServer{{URLs: []string{srv.URL}, Username: srv.User, Credential: password}}
	conns := make([]*Conn, 2)
	for i, self := range []transport.Addr{1, 2} {
		c, err := New(Config{Self: self, Peers: []transport.Addr{3 - self}, Signaler: h.endpoint(self),
			ICEServers: servers, ConnectTimeout: timeout, loopback: true, relayOnly: true})
		require.NoError(t, err)
		t.Cleanup(func() { _ = c.Close() })
		conns[i] = c
	}
	return conns[0], conns[1]
}

// selectedPair returns the candidate pair ICE selected on c's connection
// to peer a.
func selectedPair(t testing.TB, c *Conn, a transport.Addr) *pion.ICECandidatePair {
	t.Helper()
	c.mu.Lock()
	pc := c.links[a].pc
	c.mu.Unlock()
	pair, err := pc.SCTP().Transport().ICETransport().GetSelectedCandidatePair()
	require.NoError(t, err)
	require.NotNil(t, pair, "no selected candidate pair")
	return pair
}

// TestThroughTURNRelay connects two Conns that may use only relayed
// candidates, so their one path is through the TURN server: datagrams
// cross both ways, ICE selected a relay pair on each side, and the
// server's relay addresses carried the traffic.
func TestThroughTURNRelay(t *testing.T) {
	srv := startTURN(t)
	a, b := relayPair(t, srv, srv.Password, testWait)
	awaitState(t, a, 2, Open, "a")
	awaitState(t, b, 1, Open, "b")

	for _, side := range []struct {
		c    *Conn
		peer transport.Addr
	}{{a, 2}, {b, 1}} {
		pair := selectedPair(t, side.c, side.peer)
		t.Logf("peer %d: selected %s", side.peer, pair)
		assert.Equal(t, pion.ICECandidateTypeRelay, pair.Local.Typ, "the local candidate is relayed")
		assert.Equal(t, pion.ICECandidateTypeRelay, pair.Remote.Typ, "the remote candidate is relayed")
		assert.Equal(t, "127.0.0.1", pair.Local.Address)
	}

	_, _, relayedBefore, _ := srv.counts()
	require.NoError(t, a.Send(2, []byte("to b")))
	p, from := recv(t, b)
	assert.Equal(t, "to b", string(p))
	assert.Equal(t, transport.Addr(1), from)
	require.NoError(t, b.Send(1, []byte("to a")))
	p, from = recv(t, a)
	assert.Equal(t, "to a", string(p))
	assert.Equal(t, transport.Addr(2), from)

	allocations, refusals, relayed, relayBytes := srv.counts()
	t.Logf("TURN server: %d allocations, %d refused requests, %d datagrams (%d bytes) relayed",
		allocations, refusals, relayed, relayBytes)
	assert.GreaterOrEqual(t, allocations, 2, "each side allocated a relay address")
	assert.GreaterOrEqual(t, relayed-relayedBefore, 2, "the datagrams crossed the relay")
	for _, c := range []*Conn{a, b} {
		assert.Zero(t, c.Stats().BadSignals)
		c.mu.Lock()
		refused := c.turnRefused
		c.mu.Unlock()
		assert.NoError(t, refused, "the server's challenge (a 401 to the first Allocate) is no refusal")
	}
}

// counter is the game of TestMatchThroughTURNRelay: each player's inputs
// summed and mixed into the state, so any difference in the inputs a
// peer simulated shows in its checksums.
type counter struct{ Sum, Mix [2]int64 }

func counterStep(s *counter, in []core.Input[int8], _ core.Effects) {
	for p, v := range in {
		s.Sum[p] += int64(v.Value)
		s.Mix[p] = s.Mix[p]*31 + int64(v.Value) + 7
	}
}

// TestMatchThroughTURNRelay plays a short Rollback match over two Conns
// whose only path is the TURN relay: both sessions reach the agreed end
// with the same state and the same checksums, and no desync.
func TestMatchThroughTURNRelay(t *testing.T) {
	srv := startTURN(t)
	a, b := relayPair(t, srv, srv.Password, testWait)
	conns := []*Conn{a, b}
	const (
		rate = 240 // frames a second: a short match on the real clock
		end  = 300
	)
	sessions := make([]*rollstep.Session[counter, int8], 2)
	for i, c := range conns {
		self, other := core.PlayerHandle(i), core.PlayerHandle(1-i)
		cfg := rollstep.Config{Mode: rollstep.Rollback, TickRate: rate, Inputs: rollstep.Held,
			Local: []core.PlayerHandle{self},
			Peers: []rollstep.Peer{{Addr: transport.Addr(2 - i), Players: []core.PlayerHandle{other}}},
			Game:  core.GameVersion("webrtc over turn"), Transport: MatchTransport(0x7e11)}
		s, err := rollstep.NewSession(cfg, core.GameFunc[counter, int8](counterStep), counter{}, c)
		require.NoError(t, err)
		t.Cleanup(func() { _ = s.Close() })
		require.NoError(t, s.EndAt(end))
		sessions[i] = s
	}
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	start := time.Now()
	tick := time.NewTicker(time.Second / (2 * rate)) // the game loops' polling, on the real clock
	defer tick.Stop()
	for !sessions[0].Ended() || !sessions[1].Ended() {
		select {
		case <-tick.C:
		case <-ctx.Done():
			t.Fatalf("the match did not end: frames %d and %d", sessions[0].Frame(), sessions[1].Frame())
		}
		now := time.Since(start)
		for i, s := range sessions {
			f := s.Frame()
			_ = s.AddLocalInput(core.PlayerHandle(i), int8(int(f)*(i+3)%17-8))
			require.NoError(t, s.Update(now), "peer %d", i)
			CheckLifeCycle(t, i, s)
		}
	}
	s0, s1 := sessions[0], sessions[1]
	require.Equal(t, core.Frame(end), s0.Frame())
	require.Equal(t, core.Frame(end), s1.Frame())
	assert.Equal(t, *s0.State(), *s1.State(), "the peers agree on the final state")
	assert.NotZero(t, s0.State().Mix, "the inputs reached the game")
	compared := 0
	for f := core.Frame(0); f < end; f++ {
		x, ok0 := s0.Checksum(f)
		y, ok1 := s1.Checksum(f)
		if ok0 && ok1 {
			assert.Equal(t, x, y, "frame %d", f)
			compared++
		}
	}
	assert.Positive(t, compared, "some checksums to compare")
	assert.Zero(t, s0.Stats().Desyncs+s1.Stats().Desyncs)
	for i, c := range conns {
		pair := selectedPair(t, c, transport.Addr(2-i))
		assert.Equal(t, pion.ICECandidateTypeRelay, pair.Local.Typ)
	}
	_, _, relayed, relayBytes := srv.counts()
	t.Logf("%d checksums compared; TURN relayed %d datagrams, %d bytes, in %v", compared, relayed, relayBytes, time.Since(start))
	assert.Greater(t, relayed, end, "the match's packets crossed the relay")
}

// TestTURNWrongPassword connects two relay-only Conns whose TURN
// credential is wrong: the server refuses both allocations, so neither
// side gathers a candidate, and each fails as soon as its gathering ends
// (long before the generous ConnectTimeout), saying the TURN server
// refused the credential.
func TestTURNWrongPassword(t *testing.T) {
	srv := startTURN(t)
	a, b := relayPair(t, srv, "wrong "+srv.Password, testWait)
	for _, side := range []struct {
		c    *Conn
		peer transport.Addr
	}{{a, 2}, {b, 1}} {
		awaitState(t, side.c, side.peer, Failed, "the peer of "+side.peer.String())
		_, err := side.c.PeerState(side.peer)
		t.Logf("%v", err)
		var ce *ConnectError
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, "TURN allocation refused", ce.Reason)
		assert.Equal(t, side.peer, ce.Peer)
		assert.ErrorContains(t, err, "TURN server 127.0.0.1:")
		assert.ErrorContains(t, err, "refused the credential: error 401")
		assert.NotErrorIs(t, err, context.DeadlineExceeded, "it failed before the timeout")
	}
	allocations, refusals, _, _ := srv.counts()
	assert.Zero(t, allocations)
	assert.GreaterOrEqual(t, refusals, 2, "the server refused each side")
}

// TestRelayOnlyWithoutTURN has two relay-only Conns and no TURN server:
// neither gathers a candidate, and each fails as soon as gathering ends,
// with Reason "ICE failed", and not as a TURN refusal.
func TestRelayOnlyWithoutTURN(t *testing.T) {
	h := newHub()
	for _, self := range []transport.Addr{1, 2} {
		c, err := New(Config{Self: self, Peers: []transport.Addr{3 - self}, Signaler: h.endpoint(self),
			ConnectTimeout: testWait, loopback: true, relayOnly: true})
		require.NoError(t, err)
		t.Cleanup(func() { _ = c.Close() })
		awaitState(t, c, 3-self, Failed, "relay-only without TURN")
		_, err = c.PeerState(3 - self)
		var ce *ConnectError
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, "ICE failed", ce.Reason)
		assert.ErrorIs(t, err, errNoCandidates)
	}
}
