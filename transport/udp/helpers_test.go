package udp

import (
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/rollstep/rollstep/transport"
)

// settleWait bounds one settle call when datagrams are missing, as when a
// peer has closed; on loopback a datagram sent is already in the
// receiver's socket buffer, so the reader normally catches up at once.
const settleWait = 20 * time.Millisecond

// listen opens a UDP socket on an ephemeral loopback port.
func listen(t testing.TB) *net.UDPConn {
	t.Helper()
	pc, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatalf("ListenUDP: %v", err)
	}
	return pc
}

func addrOf(pc *net.UDPConn) netip.AddrPort {
	return pc.LocalAddr().(*net.UDPAddr).AddrPort()
}

// newPair returns two Conns on loopback: a knows b as peer 2, b knows a as
// peer 1. Both are closed at the end of the test.
func newPair(t testing.TB, cfgA, cfgB Config) (a, b *Conn) {
	t.Helper()
	pa, pb := listen(t), listen(t)
	cfgA.Peers = append(cfgA.Peers, Peer{ID: 2, Addr: addrOf(pb)})
	cfgB.Peers = append(cfgB.Peers, Peer{ID: 1, Addr: addrOf(pa)})
	a, err := New(pa, cfgA)
	if err != nil {
		t.Fatalf("New(a): %v", err)
	}
	b, err = New(pb, cfgB)
	if err != nil {
		t.Fatalf("New(b): %v", err)
	}
	t.Cleanup(func() { a.Close(); b.Close() })
	return a, b
}

// awaitData waits up to d for datagrams to reach c: the reader
// goroutine's notification or, when c drains its socket in Receive, the
// socket becoming readable, after which it takes what waits into the
// queue. It is an event wait, not a sleep.
func awaitData(c *Conn, d time.Duration) {
	if c.drain == nil {
		timer := time.NewTimer(d)
		defer timer.Stop()
		select {
		case <-c.arrived:
		case <-timer.C:
		}
		return
	}
	pollReadable(c, d)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.readErr == nil && !c.closed {
		c.fill()
	}
}

// settle waits until each Conn has seen every datagram the other sent, or
// settleWait passes. It waits on the reader's notifications, not a sleep.
func settle(a, b *Conn) {
	deadline := time.Now().Add(settleWait)
	for {
		sa, sb := a.snapshot(), b.snapshot()
		if sa.Arrived() >= sb.DatagramsOut && sb.Arrived() >= sa.DatagramsOut {
			return
		}
		left := time.Until(deadline)
		if left <= 0 {
			return
		}
		if sa.Arrived() < sb.DatagramsOut {
			awaitData(a, left)
		} else {
			awaitData(b, left)
		}
	}
}

// waitArrived waits until c has taken at least n datagrams off its socket,
// failing the test after a generous deadline.
func waitArrived(t testing.TB, c *Conn, n uint64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for c.snapshot().Arrived() < n {
		if time.Now().After(deadline) {
			t.Fatalf("after 5s: %d datagrams arrived, want %d", c.snapshot().Arrived(), n)
		}
		awaitData(c, time.Until(deadline))
	}
}

// recv returns the next queued datagram of c, failing the test if none
// arrives in time.
func recv(t testing.TB, c *Conn) ([]byte, transport.Addr) {
	t.Helper()
	buf := make([]byte, transport.MaxDatagram)
	deadline := time.Now().Add(5 * time.Second)
	for {
		n, from, ok, err := c.Receive(buf)
		if err != nil {
			t.Fatalf("Receive: %v", err)
		}
		if ok {
			return buf[:n], from
		}
		if time.Now().After(deadline) {
			t.Fatal("Receive: nothing after 5s")
		}
		awaitData(c, time.Until(deadline))
	}
}

// wrapped hides the *net.UDPConn type of a socket behind net.PacketConn.
type wrapped struct{ net.PacketConn }
