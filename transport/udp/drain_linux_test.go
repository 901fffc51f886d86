package udp

import (
	"encoding/binary"
	"errors"
	"net"
	"net/netip"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/transporttest"
)

// pollReadable waits up to d for c's socket to become readable (poll(2)),
// for a Conn that drains its socket in Receive.
func pollReadable(c *Conn, d time.Duration) {
	c.mu.Lock()
	closed := c.closed
	fds := []unix.PollFd{{Fd: int32(c.drain.fd), Events: unix.POLLIN}}
	c.mu.Unlock()
	if !closed { // poll(2) of a closed descriptor returns at once (POLLNVAL)
		_, _ = unix.Poll(fds, int(d/time.Millisecond)+1)
	}
}

func TestConformanceReaderGoroutine(t *testing.T) {
	// The reader goroutine that other platforms use, on a *net.UDPConn.
	transporttest.TestConn(t, func(t *testing.T) transporttest.Pair {
		a, b := newPair(t, Config{reader: true}, Config{reader: true})
		if a.drain != nil || b.drain != nil {
			t.Fatal("Config.reader did not select the reader goroutine")
		}
		return transporttest.Pair{A: a, B: b, ToB: 2, ToA: 1, Settle: func() { settle(a, b) }}
	})
}

// TestDrainTakesBacklogsInBatches sends more datagrams than one recvmmsg
// call takes and receives them all, in order, from the game loop's
// Receive calls alone, with no goroutine.
func TestDrainTakesBacklogsInBatches(t *testing.T) {
	a, b := newPair(t, Config{}, Config{})
	if b.drain == nil {
		t.Fatal("a *net.UDPConn on Linux should drain in Receive")
	}
	select {
	case <-b.done:
	default:
		t.Fatal("a draining Conn has a reader goroutine running")
	}
	const n = 3*drainBatch + 5
	for i := range n {
		if err := a.Send(2, []byte{byte(i), 0xAA}); err != nil {
			t.Fatal(err)
		}
	}
	for want := range n {
		got, from := recv(t, b)
		if from != 1 || len(got) != 2 || got[0] != byte(want) || got[1] != 0xAA {
			t.Fatalf("datagram %d: %x from %v, want [%02x aa] from peer 1", want, got, from, want)
		}
	}
	if st := b.snapshot(); st.DatagramsIn != n || st.ReadErrors != 0 {
		t.Errorf("DatagramsIn %d, ReadErrors %d; want %d and 0", st.DatagramsIn, st.ReadErrors, n)
	}
}

// TestSourceOf parses the raw socket addresses the kernel writes.
func TestSourceOf(t *testing.T) {
	v4 := make([]byte, unix.SizeofSockaddrInet4)
	binary.NativeEndian.PutUint16(v4, unix.AF_INET)
	binary.BigEndian.PutUint16(v4[2:], 4000)
	copy(v4[4:], []byte{10, 0, 0, 7})
	v6 := make([]byte, unix.SizeofSockaddrInet6)
	binary.NativeEndian.PutUint16(v6, unix.AF_INET6)
	binary.BigEndian.PutUint16(v6[2:], 5000)
	ip6 := netip.MustParseAddr("2001:db8::9")
	copy(v6[8:], ip6.AsSlice())
	binary.NativeEndian.PutUint32(v6[24:], 3) // a scope, dropped
	unixSock := make([]byte, 16)
	binary.NativeEndian.PutUint16(unixSock, unix.AF_UNIX)
	for _, tc := range []struct {
		sa   []byte
		want netip.AddrPort
	}{
		{v4, netip.MustParseAddrPort("10.0.0.7:4000")},
		{v6, netip.AddrPortFrom(ip6, 5000)},
		{v4[:6], netip.AddrPort{}},
		{v6[:20], netip.AddrPort{}},
		{unixSock, netip.AddrPort{}},
		{nil, netip.AddrPort{}},
	} {
		if got := sourceOf(tc.sa); got != tc.want {
			t.Errorf("sourceOf(% x) = %v, want %v", tc.sa, got, tc.want)
		}
	}
}

// TestDrainStopsWhenSocketClosedUnderneath closes the drainer's own
// descriptor behind the Conn's back: Receive then reports the Conn closed,
// wrapping the socket's error, and keeps doing so.
func TestDrainStopsWhenSocketClosedUnderneath(t *testing.T) {
	_, b := newPair(t, Config{}, Config{})
	if err := unix.Close(b.drain.fd); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		_, _, ok, err := b.Receive(make([]byte, 10))
		if ok || !errors.Is(err, transport.ErrClosed) || !errors.Is(err, unix.EBADF) {
			t.Fatalf("Receive: got (ok=%v, err=%v), want transport.ErrClosed wrapping EBADF", ok, err)
		}
	}
	b.drain.fd = -1 // let Cleanup's Close fail harmlessly, not close a reused number
}

// TestDrainSendsFromIPv6Sockets checks the dual-stack case: an AF_INET6
// socket sends to an IPv4 peer as its IPv4-mapped address.
func TestDrainSendsFromIPv6Sockets(t *testing.T) {
	pa, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv6unspecified})
	if err != nil {
		t.Skipf("no dual-stack socket here: %v", err)
	}
	pb := listen(t) // IPv4
	port := uint16(pa.LocalAddr().(*net.UDPAddr).Port)
	a, err := New(pa, Config{Peers: []Peer{{ID: 2, Addr: addrOf(pb)}}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := New(pb, Config{Peers: []Peer{{ID: 1, Addr: netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port)}}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if a.drain == nil || !a.drain.inet6 {
		t.Fatal("the [::] socket should drain as AF_INET6")
	}
	if err := a.Send(2, []byte("v6 to v4")); err != nil {
		t.Fatal(err)
	}
	if got, from := recv(t, b); string(got) != "v6 to v4" || from != 1 {
		t.Fatalf("got %q from %v", got, from)
	}
	if err := b.Send(1, []byte("back")); err != nil {
		t.Fatal(err)
	}
	if got, from := recv(t, a); string(got) != "back" || from != 2 {
		t.Fatalf("reply: got %q from %v (the mapped source must match the IPv4 peer)", got, from)
	}
}
