package rollback

import (
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/simlink"
	"github.com/rollstep/rollstep/internal/testenv"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
	"github.com/rollstep/rollstep/transport/udp"
)

// shapedConn applies a simlink.Shaper (transport/sim's link model) to the datagrams a real Conn sends, on
// the real clock, as cmd/rollstep proxy does between two sockets: each
// datagram is dropped, or held until its arrival time and then sent. The
// held datagrams leave when the game loop next calls Send or Receive.
type shapedConn struct {
	transport.Conn
	shaper simlink.Shaper
	clock  func() time.Duration
	held   []heldDatagram
}

type heldDatagram struct {
	at time.Duration
	to transport.Addr
	p  []byte
}

func (c *shapedConn) flush() {
	now, k := c.clock(), 0
	for _, h := range c.held {
		if h.at <= now {
			_ = c.Conn.Send(h.to, h.p)
		} else {
			c.held[k] = h
			k++
		}
	}
	c.held = c.held[:k]
}

func (c *shapedConn) Send(to transport.Addr, p []byte) error {
	c.flush()
	f := c.shaper.Decide(c.clock(), len(p))
	if f.Dropped() {
		return nil
	}
	for range 1 + btoi(f.Duplicate) {
		c.held = append(c.held, heldDatagram{at: f.At, to: to, p: append([]byte(nil), p...)})
	}
	return nil
}

func (c *shapedConn) Receive(buf []byte) (int, transport.Addr, bool, error) {
	c.flush()
	return c.Conn.Receive(buf)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// playUDP plays 150 frames (600 in the soak run) at 200 frames/s between
// two sessions over real UDP sockets on 127.0.0.1, driven by a ticker and
// the real clock, each sending through link, and requires identical
// checksums at every confirmed frame within 30 s.
func playUDP(t *testing.T, link sim.LinkConfig) {
	if testing.Short() {
		t.Skip("real sockets and a real clock")
	}
	frames := testenv.Pick[core.Frame](150, 600)
	var socks [2]*net.UDPConn
	var addrs [2]netip.AddrPort
	for i := range socks {
		s, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Skipf("no loopback UDP: %v", err)
		}
		socks[i], addrs[i] = s, s.LocalAddr().(*net.UDPAddr).AddrPort()
	}
	start := time.Now()
	clock := func() time.Duration { return time.Since(start) }
	m := &match{t: t, input: defaultInput}
	for i := range 2 {
		uc, err := udp.New(socks[i], udp.Config{Peers: []udp.Peer{{ID: transport.Addr(1 - i), Addr: addrs[1-i]}}})
		if err != nil {
			t.Fatalf("udp.New: %v", err)
		}
		shaper, err := simlink.NewShaper(link, 9, transport.Addr(i), transport.Addr(1-i))
		if err != nil {
			t.Fatal(err)
		}
		nd := &node{game: newRecGame(1 << 12)}
		c := testConfig(2, i, 77)
		c.TickRate = 200
		nd.s, err = NewSession[pair, uint16](c, nd.game, pair{}, &shapedConn{Conn: uc, shaper: shaper, clock: clock})
		if err != nil {
			t.Fatalf("NewSession: %v", err)
		}
		m.nodes = append(m.nodes, nd)
	}
	defer func() {
		for _, nd := range m.nodes {
			_ = nd.s.Close()
		}
	}()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		now := clock()
		if now > 30*time.Second {
			t.Fatalf("%d frames not confirmed in 30 s: frames %d and %d", frames, m.nodes[0].s.Frame(), m.nodes[1].s.Frame())
		}
		done := true
		for i, nd := range m.nodes {
			p := core.PlayerHandle(i)
			_ = nd.s.AddLocalInput(p, m.input(p, nd.s.Frame()))
			if err := nd.s.Update(now); err != nil {
				t.Fatalf("node %d Update: %v", i, err)
			}
			nd.events = keep(nd.events, nd.s.Events())
			if c, ok := nd.s.ConfirmedFrame(); !ok || c < frames {
				done = false
			}
		}
		if done {
			break
		}
		<-tick.C
	}
	n := m.checkAgreement()
	st := m.nodes[0].s.Stats()
	t.Logf("%d frames agreed in %v; node 0: RTT %v, %d rollbacks, stall %v, %d bytes sent",
		n, clock().Round(time.Millisecond), st.Peers[0].RTT, st.Rollbacks, st.Stall, st.Peers[0].BytesSent)
	if n < int(frames)+1 {
		t.Errorf("compared %d frames, want %d", n, frames+1)
	}
}

func TestRealUDPLoopback(t *testing.T) { playUDP(t, sim.LinkConfig{}) }

// TestRealUDPShaped adds the impairments cmd/rollstep proxy
// applies (the same simlink.Shaper): 50 ms one way and 5 % loss.
func TestRealUDPShaped(t *testing.T) {
	playUDP(t, sim.LinkConfig{Latency: sim.Latency{Base: 50 * time.Millisecond}, Loss: 0.05})
}
