package udp

import (
	"errors"
	"net"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/rollstep/rollstep/transport"
)

// refusals records what a hold's fail reports.
type refusals struct{ got []refusal }

func (r *refusals) fail(to transport.Addr, n int, err error) {
	r.got = append(r.got, refusal{to: to, n: n, err: err})
}

// batchRig is a sending Conn whose peers 1..n are receiving Conns, each
// on its own loopback socket.
func batchRig(t *testing.T, n int, extra ...Peer) (*Conn, []*Conn) {
	t.Helper()
	ps := listen(t)
	cfg := Config{Peers: extra}
	var rx []*Conn
	for i := range n {
		pr := listen(t)
		cfg.Peers = append(cfg.Peers, Peer{ID: transport.Addr(i + 1), Addr: addrOf(pr)})
		r, err := New(pr, Config{Peers: []Peer{{ID: 100, Addr: addrOf(ps)}}})
		require.NoError(t, err)
		t.Cleanup(func() { r.Close() })
		rx = append(rx, r)
	}
	s, err := New(ps, cfg)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	if s.drain == nil {
		t.Skip("no drainer for this socket")
	}
	return s, rx
}

// queued reports whether c has a datagram waiting, taking what waits on
// its socket without blocking.
func queued(c *Conn) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.queue.Len() == 0 {
		c.fill()
	}
	return c.queue.Len() > 0
}

func TestHeldSendsShareOneSystemCall(t *testing.T) {
	s, rx := batchRig(t, 3)
	var r refusals
	s.hold(r.fail)
	for _, to := range []transport.Addr{1, 2, 3, 1} {
		require.NoError(t, s.Send(to, []byte{byte(to), 'x'}))
	}
	for i, c := range rx {
		assert.False(t, queued(c), "peer %d got a held datagram before the flush", i+1)
	}
	s.flush()
	st := s.snapshot()
	assert.Equal(t, uint64(1), st.SendCalls, "system calls for 4 held datagrams")
	assert.Equal(t, uint64(4), st.DatagramsOut)
	assert.Equal(t, uint64(8), st.BytesOut)
	assert.Empty(t, r.got)
	for i, c := range rx {
		want := 1
		if i == 0 {
			want = 2
		}
		for range want {
			p, from := recv(t, c)
			assert.Equal(t, []byte{byte(i + 1), 'x'}, p)
			assert.Equal(t, transport.Addr(100), from)
		}
		assert.False(t, queued(c), "peer %d got more than it was sent", i+1)
	}

	// Not held any more: each Send is its own call again.
	require.NoError(t, s.Send(2, []byte("y")))
	assert.Equal(t, uint64(2), s.snapshot().SendCalls)
	p, _ := recv(t, rx[1])
	assert.Equal(t, []byte("y"), p)
}

func TestHeldSendsPastTheBatchKeepTheirOrder(t *testing.T) {
	s, rx := batchRig(t, 1)
	s.hold(nil)
	const n = drainBatch + 4
	for i := range n {
		require.NoError(t, s.Send(1, []byte{byte(i)}))
	}
	s.flush()
	st := s.snapshot()
	assert.Equal(t, uint64(2), st.SendCalls, "a full batch is written, then the rest")
	assert.Equal(t, uint64(n), st.DatagramsOut)
	for i := range n {
		p, _ := recv(t, rx[0])
		require.Equal(t, []byte{byte(i)}, p, "datagram %d", i)
	}
}

func TestHeldSendRefusedIsReportedAndTheRestGoOut(t *testing.T) {
	// A broadcast address without SO_BROADCAST (which Go sets on its UDP
	// sockets): the kernel refuses the datagram (EACCES) at once, the
	// others of the batch go out.
	s, rx := batchRig(t, 1, Peer{ID: 9, Addr: netip.MustParseAddrPort("255.255.255.255:9")})
	require.NoError(t, unix.SetsockoptInt(s.drain.fd, unix.SOL_SOCKET, unix.SO_BROADCAST, 0))
	var r refusals
	s.hold(r.fail)
	require.NoError(t, s.Send(1, []byte("a")))
	require.NoError(t, s.Send(9, []byte("bcd")))
	require.NoError(t, s.Send(1, []byte("e")))
	s.flush()
	require.Len(t, r.got, 1)
	assert.Equal(t, transport.Addr(9), r.got[0].to)
	assert.Equal(t, 3, r.got[0].n)
	assert.True(t, errors.Is(r.got[0].err, unix.EACCES), "got %v", r.got[0].err)
	st := s.snapshot()
	assert.Equal(t, uint64(1), st.WriteErrors)
	assert.Equal(t, uint64(2), st.DatagramsOut)
	for _, want := range []string{"a", "e"} {
		p, _ := recv(t, rx[0])
		assert.Equal(t, want, string(p))
	}
}

func TestSendReturnsTheSocketsRefusal(t *testing.T) {
	// Send's raw sendto (not held): the refusal comes back as the errno,
	// counted; a datagram the socket takes returns a nil error, not a
	// zero errno.
	s, rx := batchRig(t, 1, Peer{ID: 9, Addr: netip.MustParseAddrPort("255.255.255.255:9")})
	require.NoError(t, unix.SetsockoptInt(s.drain.fd, unix.SOL_SOCKET, unix.SO_BROADCAST, 0))
	err := s.Send(9, []byte("bcd"))
	assert.True(t, errors.Is(err, unix.EACCES), "got %v", err)
	require.NoError(t, s.Send(1, []byte("a")))
	st := s.snapshot()
	assert.Equal(t, uint64(1), st.WriteErrors)
	assert.Equal(t, uint64(1), st.DatagramsOut)
	assert.Equal(t, uint64(2), st.SendCalls)
	p, _ := recv(t, rx[0])
	assert.Equal(t, "a", string(p))
}

func TestHeldSendsOfAClosedConnAreDropped(t *testing.T) {
	s, rx := batchRig(t, 1)
	var r refusals
	s.hold(r.fail)
	require.NoError(t, s.Send(1, []byte("a")))
	require.NoError(t, s.Close())
	s.flush()
	assert.Empty(t, r.got)
	assert.Zero(t, s.snapshot().DatagramsOut)
	assert.False(t, queued(rx[0]))
	assert.ErrorIs(t, s.Send(1, []byte("b")), transport.ErrClosed)
	s.hold(r.fail) // a closed Conn does not hold
	assert.ErrorIs(t, s.Send(1, []byte("c")), transport.ErrClosed)
	s.flush()
}

func TestHeldSendToAnUnboundPeerIsDropped(t *testing.T) {
	s, rx := batchRig(t, 1, Peer{ID: 7})
	s.hold(nil)
	require.NoError(t, s.Send(7, []byte("lost")))
	require.NoError(t, s.Send(1, []byte("kept")))
	assert.ErrorIs(t, s.Send(8, []byte("?")), transport.ErrUnknownPeer)
	s.flush()
	st := s.snapshot()
	assert.Equal(t, uint64(1), st.DroppedUnbound)
	assert.Equal(t, uint64(1), st.DatagramsOut)
	p, _ := recv(t, rx[0])
	assert.Equal(t, "kept", string(p))
}

func TestHeldSendsOverIPv6(t *testing.T) {
	// A dual-stack socket sends to an IPv6 peer and to an IPv4 one (as
	// ::ffff:a.b.c.d) in one batch.
	ps, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv6unspecified})
	if err != nil {
		t.Skipf("no IPv6 socket: %v", err)
	}
	p6, err := net.ListenUDP("udp6", &net.UDPAddr{IP: net.IPv6loopback})
	if err != nil {
		ps.Close()
		t.Skipf("no IPv6 loopback: %v", err)
	}
	p4 := listen(t)
	port := addrOf(ps).Port()
	s, err := New(ps, Config{Peers: []Peer{{ID: 1, Addr: addrOf(p6)}, {ID: 2, Addr: addrOf(p4)}}})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	if s.drain == nil || !s.drain.inet6 {
		t.Skip("not a dual-stack drained socket")
	}
	var rx []*Conn
	for _, rc := range []struct {
		pc   *net.UDPConn
		from netip.Addr
	}{{p6, netip.IPv6Loopback()}, {p4, netip.MustParseAddr("127.0.0.1")}} {
		c, err := New(rc.pc, Config{Peers: []Peer{{ID: 100, Addr: netip.AddrPortFrom(rc.from, port)}}})
		require.NoError(t, err)
		t.Cleanup(func() { c.Close() })
		rx = append(rx, c)
	}
	var r refusals
	s.hold(r.fail)
	require.NoError(t, s.Send(1, []byte("six")))
	require.NoError(t, s.Send(2, []byte("four")))
	s.flush()
	assert.Empty(t, r.got)
	assert.Equal(t, uint64(1), s.snapshot().SendCalls)
	for i, want := range []string{"six", "four"} {
		p, from := recv(t, rx[i])
		assert.Equal(t, want, string(p))
		assert.Equal(t, transport.Addr(100), from)
	}
}

func TestHeldSendsAllocateNothing(t *testing.T) {
	s, rx := batchRig(t, 3)
	var r refusals
	fail := r.fail
	p := make([]byte, 40)
	buf := make([]byte, transport.MaxDatagram)
	allocs := testing.AllocsPerRun(100, func() {
		s.hold(fail)
		for to := range transport.Addr(3) {
			_ = s.Send(to+1, p)
		}
		s.flush()
		for _, c := range rx {
			_, _, _, _ = c.Receive(buf)
		}
	})
	assert.Zero(t, allocs)
	assert.Empty(t, r.got)
}
