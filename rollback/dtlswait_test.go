package rollback

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/transport/dtls"
)

// TestDTLSListenerNeedsNoWait: a session over a DTLS listener is updated
// from the start, before its client has dialed; it waits for the client's
// handshake inside Update, as a UDP session waits for Hellos, and the
// match plays once the client is there. Update used to fail with
// "transport: unknown peer 1" until the DTLS handshake had finished, so
// the caller needed a wait loop of its own.
func TestDTLSListenerNeedsNoWait(t *testing.T) {
	if testing.Short() {
		t.Skip("real sockets and a real clock")
	}
	var socks [2]*net.UDPConn
	for i := range socks {
		s, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Skipf("no loopback UDP: %v", err)
		}
		socks[i] = s
	}
	key := []byte("a per-match key for the wait test")
	psk := func([]byte) ([]byte, error) { return key, nil }
	srv, err := dtls.Listen(socks[0], dtls.Config{PSK: psk, FirstPeer: 1})
	require.NoError(t, err)
	m := &match{t: t, input: defaultInput}
	for range 2 {
		m.nodes = append(m.nodes, &node{game: newRecGame(1 << 12)})
	}
	m.nodes[0].s, err = NewSession[pair, uint16](testConfig(2, 0, 12), m.nodes[0].game, pair{}, srv)
	require.NoError(t, err)
	t.Cleanup(func() { _ = m.nodes[0].s.Close() })
	dialed := make(chan *dtls.Conn, 1)
	dialing := false
	start := time.Now()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		now := time.Since(start)
		require.Less(t, now, 20*time.Second, "the match did not play")
		if now > 200*time.Millisecond && !dialing {
			dialing = true
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				c, err := dtls.Dial(ctx, socks[1], socks[0].LocalAddr(), dtls.Config{PSK: psk, PSKIdentity: []byte("p1")})
				if err != nil {
					t.Errorf("Dial: %v", err)
				}
				dialed <- c
			}()
		}
		select {
		case c := <-dialed:
			require.NotNil(t, c, "the client's handshake failed")
			m.nodes[1].s, err = NewSession[pair, uint16](testConfig(2, 1, 12), m.nodes[1].game, pair{}, c)
			require.NoError(t, err)
			t.Cleanup(func() { _ = m.nodes[1].s.Close() })
		default:
		}
		done := true
		for i, nd := range m.nodes {
			if nd.s == nil {
				done = false
				continue
			}
			_ = nd.s.AddLocalInput(core.PlayerHandle(i), m.input(core.PlayerHandle(i), nd.s.Frame()))
			require.NoError(t, nd.s.Update(now), "node %d Update at %v", i, now)
			nd.events = keep(nd.events, nd.s.Events())
			if c, ok := nd.s.ConfirmedFrame(); !ok || c < 30 {
				done = false
			}
		}
		if done {
			break
		}
		<-tick.C
	}
	m.checkAgreement()
}
