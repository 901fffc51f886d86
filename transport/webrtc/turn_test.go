//go:build !js

package webrtc

import (
	"net"
	"sync"
	"testing"

	"github.com/pion/turn/v5"
	"github.com/stretchr/testify/require"
)

// turnRealm, turnUser and turnPassword are the long-term credential of
// the test TURN server's one user.
const (
	turnRealm    = "rollstep.test"
	turnUser     = "player"
	turnPassword = "correct horse"
)

// turnServer is a pion TURN server on loopback, for tests: its relay
// addresses are on 127.0.0.1 too, so two Conns that may use only relayed
// candidates reach each other through it alone.
type turnServer struct {
	// URL is the server's address as an ICE server URL, and User and
	// Password its user's credential.
	URL, User, Password string

	mu          sync.Mutex
	allocations int // allocations created
	refusals    int // requests whose credential the server refused
	relayed     int // datagrams the relay addresses sent to a peer
	relayBytes  int // and their bytes
}

// counts returns what the server counted so far.
func (s *turnServer) counts() (allocations, refusals, relayed, relayBytes int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.allocations, s.refusals, s.relayed, s.relayBytes
}

// startTURN runs a TURN server on 127.0.0.1 over UDP until the test
// ends.
func startTURN(t testing.TB) *turnServer {
	t.Helper()
	pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
	require.NoError(t, err)
	s := &turnServer{URL: "turn:" + pc.LocalAddr().String() + "?transport=udp", User: turnUser, Password: turnPassword}
	key := turn.GenerateAuthKey(turnUser, turnRealm, turnPassword)
	srv, err := turn.NewServer(turn.ServerConfig{
		Realm: turnRealm,
		AuthHandler: func(ra *turn.RequestAttributes) (string, []byte, bool) {
			if ra.Username != turnUser {
				return "", nil, false
			}
			return ra.Username, key, true
		},
		EventHandler: turn.EventHandler{
			OnAuth: func(_, _ net.Addr, _, _, _, _ string, ok bool) {
				if !ok {
					s.mu.Lock()
					s.refusals++
					s.mu.Unlock()
				}
			},
			OnAllocationCreated: func(_, _ net.Addr, _, _, _ string, _ net.Addr, _ int) {
				s.mu.Lock()
				s.allocations++
				s.mu.Unlock()
			},
		},
		PacketConnConfigs: []turn.PacketConnConfig{{
			PacketConn: pc,
			RelayAddressGenerator: &countingRelays{s: s,
				RelayAddressGeneratorStatic: turn.RelayAddressGeneratorStatic{RelayAddress: net.IPv4(127, 0, 0, 1), Address: "127.0.0.1"}},
		}},
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	return s
}

// countingRelays allocates relay addresses on 127.0.0.1 whose sockets
// count what they send on to the peer: traffic that crossed the relay.
type countingRelays struct {
	turn.RelayAddressGeneratorStatic
	s *turnServer
}

func (g *countingRelays) AllocatePacketConn(cfg turn.AllocateListenerConfig) (net.PacketConn, net.Addr, error) {
	pc, addr, err := g.RelayAddressGeneratorStatic.AllocatePacketConn(cfg)
	if err != nil {
		return nil, nil, err
	}
	return &relaySocket{PacketConn: pc, s: g.s}, addr, nil
}

// relaySocket is a relay address's socket that counts its writes.
type relaySocket struct {
	net.PacketConn
	s *turnServer
}

func (c *relaySocket) WriteTo(p []byte, addr net.Addr) (int, error) {
	c.s.mu.Lock()
	c.s.relayed++
	c.s.relayBytes += len(p)
	c.s.mu.Unlock()
	return c.PacketConn.WriteTo(p, addr)
}
