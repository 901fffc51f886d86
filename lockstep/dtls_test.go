package lockstep

import (
	"context"
	"math/rand/v2"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/dtls"
)

// TestDTLSLeaveIsClean: two lockstep sessions over DTLS on loopback play
// 60 turns; then the dialer closes its session, which ends the DTLS
// association too. The listener's session sees the peer leave and plays
// on: Update never returns an error (a send to the gone association would
// be ErrUnknownPeer, which the endpoint counts and does not return).
func TestDTLSLeaveIsClean(t *testing.T) {
	if testing.Short() {
		t.Skip("real sockets and a real clock")
	}
	var socks [2]*net.UDPConn
	for i := range socks {
		s, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Skip("no loopback UDP:", err)
		}
		socks[i] = s
	}
	key := []byte("a per-match key for the leave test")
	psk := func([]byte) ([]byte, error) { return key, nil }
	srv, err := dtls.Listen(socks[0], dtls.Config{PSK: psk, FirstPeer: 1})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cli, err := dtls.Dial(ctx, socks[1], socks[0].LocalAddr(), dtls.Config{PSK: psk, PSKIdentity: []byte("p1")})
	require.NoError(t, err)
	peers := make([]*tPeer, 2)
	for i, conn := range []transport.Conn{srv, cli} {
		p := &tPeer{rng: rand.New(rand.NewPCG(10, uint64(i)))}
		cfg := Config{Players: 2, Local: []core.PlayerHandle{core.PlayerHandle(i)},
			Peers: []rollstep.Peer{{Addr: transport.Addr(1 - i), Players: []core.PlayerHandle{core.PlayerHandle(1 - i)}}}, TurnPeriod: 5 * ms}
		cfg.Transport.Token = 78
		p.sess, err = NewSession(cfg, core.GameFunc[tState, tInput](p.step), tState{}, conn)
		require.NoError(t, err)
		peers[i] = p
	}
	t.Cleanup(func() { _ = peers[0].sess.Close() })
	m := &match{t: t, peers: peers}
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	start := time.Now()
	var closedAt time.Duration
	for {
		now := time.Since(start)
		require.Less(t, now, 30*time.Second, "turns %d and %d", peers[0].sess.Frame(), peers[1].sess.Frame())
		if closedAt == 0 && peers[0].sess.Frame() >= 60 && peers[1].sess.Frame() >= 60 {
			require.NoError(t, peers[1].sess.Close())
			peers[1].dead, closedAt = true, now
		}
		for i, p := range peers {
			if p.dead {
				continue
			}
			m.feed(i, p)
			require.NoError(t, p.sess.Update(now), "peer %d Update at %v", i, now)
			p.collect(now)
		}
		if closedAt > 0 && now-closedAt > 500*ms {
			break
		}
		<-tick.C
	}
	require.Len(t, peerEvents(peers[0], endpoint.EventLeft), 1, "the listener did not see its peer leave")
	require.Greater(t, peers[0].sess.Frame(), core.Frame(70), "the listener stopped after its peer left")
}
