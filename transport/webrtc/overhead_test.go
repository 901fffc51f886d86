package webrtc

import (
	"net"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/transport"
)

// countingConn counts the UDP payload bytes and datagrams written to a
// socket.
type countingConn struct {
	net.PacketConn
	bytes, packets atomic.Int64
}

func (c *countingConn) WriteTo(p []byte, addr net.Addr) (int, error) {
	c.bytes.Add(int64(len(p)))
	c.packets.Add(1)
	return c.PacketConn.WriteTo(p, addr)
}

// TestOverheadPerDatagram measures what a data channel adds to each
// datagram on the wire over plain UDP: SCTP's common header and DATA
// chunk header, inside a DTLS record. It sends datagrams one way, each
// after the previous has arrived (so each crosses in its own packets),
// and counts the UDP payload the sender's socket wrote, including the
// sender's share of SCTP acknowledgements.
func TestOverheadPerDatagram(t *testing.T) {
	pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
	require.NoError(t, err)
	counter := &countingConn{PacketConn: pc}
	h := newHub()
	a, err := New(Config{Self: 1, Peers: []transport.Addr{2}, Signaler: h.endpoint(1), loopback: true, socket: counter})
	require.NoError(t, err)
	defer a.Close()
	b, err := New(Config{Self: 2, Peers: []transport.Addr{1}, Signaler: h.endpoint(2), loopback: true})
	require.NoError(t, err)
	defer b.Close()
	awaitState(t, a, 2, Open, "a")
	awaitState(t, b, 1, Open, "b")
	const n = 200
	for _, size := range []int{50, transport.MaxDatagram} {
		p := make([]byte, size)
		b0, p0 := counter.bytes.Load(), counter.packets.Load()
		for range n {
			require.NoError(t, a.Send(2, p))
			got, _ := recv(t, b)
			require.Len(t, got, size)
		}
		bytes, packets := counter.bytes.Load()-b0, counter.packets.Load()-p0
		over := float64(bytes)/n - float64(size)
		t.Logf("%4d-byte datagrams: %.1f bytes of UDP payload each (%.1f over the datagram), %.2f UDP packets each",
			size, float64(bytes)/n, over, float64(packets)/n)
		// SCTP (12 + 16) and a DTLS record (13 + AEAD) at least, per
		// packet: pion's SCTP packets carry at most about 1,190 bytes of
		// data, so a 1200-byte datagram crosses as two fragments (as in
		// browsers), reassembled into one message.
		require.GreaterOrEqual(t, over, 28.0*float64(packets)/n)
		require.Less(t, over, 100.0*float64(packets)/n)
	}
}
