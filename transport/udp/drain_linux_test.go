package udp

import (
	"encoding/binary"
	"net/netip"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/rollstep/rollstep/transport/transporttest"
)

// pollReadable waits up to d for c's socket to become readable (poll(2)),
// for a Conn that drains its socket in Receive.
func pollReadable(c *Conn, d time.Duration) {
	fds := []unix.PollFd{{Events: unix.POLLIN}}
	_ = c.drain.raw.Control(func(fd uintptr) {
		fds[0].Fd = int32(fd)
		_, _ = unix.Poll(fds, int(d/time.Millisecond)+1)
	})
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
