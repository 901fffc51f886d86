package lockstep

import (
	"math/rand/v2"
	"net"
	"testing"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/internal/probe"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/testenv"
	"github.com/rollstep/rollstep/transport/udp"
)

// TestRealUDP: two sessions in this process over 127.0.0.1 play 150 turns
// (600 in the soak run) of 5 ms and agree on every checksum. The game loop ticks on a real
// clock (read by the test, not the session), bounded to 30 s.
func TestRealUDP(t *testing.T) {
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
	peers := make([]*tPeer, 2)
	for i := range 2 {
		other := socks[1-i].LocalAddr().(*net.UDPAddr).AddrPort()
		conn, err := udp.New(socks[i], udp.Config{Peers: []udp.Peer{{ID: 1, Addr: other}}})
		if err != nil {
			t.Fatal(err)
		}
		p := &tPeer{rng: rand.New(rand.NewPCG(9, uint64(i)))}
		cfg := Config{Players: 2, Local: []core.PlayerHandle{core.PlayerHandle(i)},
			Peers: []rollstep.Peer{{Addr: 1, Players: []core.PlayerHandle{core.PlayerHandle(1 - i)}}}, TurnPeriod: 5 * ms}
		cfg.Transport.Token = 77
		s, err := NewSession(cfg, core.GameFunc[tState, tInput](p.step), tState{}, conn)
		if err != nil {
			t.Fatal(err)
		}
		p.sess = s
		peers[i] = p
		defer s.Close()
	}
	m := &match{t: t, peers: peers}
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	start := time.Now()
	turns := testenv.Pick[core.Frame](150, 600)
	for peers[0].sess.Frame() < turns || peers[1].sess.Frame() < turns {
		now := time.Since(start)
		if now > 30*time.Second {
			t.Fatalf("turns %d and %d after 30 s", peers[0].sess.Frame(), peers[1].sess.Frame())
		}
		for i, p := range peers {
			m.feed(i, p)
			if err := p.sess.Update(now); err != nil {
				t.Fatal(err)
			}
		}
		<-tick.C
	}
	f := m.check()
	t.Logf("%d turns in %v, D=%d", f, time.Since(start), peers[0].sess.Stats().Delay)
	// The engine's per-peer byte counters come from the endpoint: over a
	// real socket they must count what was sent and received.
	for i, p := range peers {
		st := p.sess.Stats().Peers[0]
		ps := probe.Peer(p.sess, 0)
		if st.BytesSent == 0 || st.PacketsSent == 0 || st.BytesReceived == 0 {
			t.Errorf("peer %d: engine stats count %d B in %d packets sent, %d B received", i, st.BytesSent, st.PacketsSent, st.BytesReceived)
		}
		if st.BytesSent != ps.WireBytesSent() || st.PacketsSent != ps.PacketsSent {
			t.Errorf("peer %d: engine stats %d B / %d packets sent, endpoint %d B / %d packets", i, st.BytesSent, st.PacketsSent, ps.WireBytesSent(), ps.PacketsSent)
		}
	}
}
