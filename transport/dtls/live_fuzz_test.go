package dtls

import (
	"net"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/transport"
)

// capturePC is a net.PacketConn that keeps a copy of every datagram
// written through it.
type capturePC struct {
	net.PacketConn
	mu   sync.Mutex
	sent [][]byte
}

func (c *capturePC) WriteTo(p []byte, addr net.Addr) (int, error) {
	c.mu.Lock()
	c.sent = append(c.sent, slices.Clone(p))
	c.mu.Unlock()
	return c.PacketConn.WriteTo(p, addr)
}

func (c *capturePC) captured() [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.sent)
}

// livePair is an established association over loopback, the raw sockets
// under it, a third socket, and what each side sent while they shook hands
// and exchanged a first datagram each way.
type livePair struct {
	srv, cli   *Conn
	spc, cpc   *net.UDPConn
	other      *net.UDPConn
	fromServer [][]byte
	fromClient [][]byte
	buf        []byte
	roundTrips int
}

// newLivePair sets up a livePair, closed when tb ends.
func newLivePair(tb testing.TB) *livePair {
	spc, err := net.ListenUDP("udp4", loopback)
	require.NoError(tb, err)
	cpc, err := net.ListenUDP("udp4", loopback)
	require.NoError(tb, err)
	other, err := net.ListenUDP("udp4", loopback)
	require.NoError(tb, err)
	tb.Cleanup(func() { other.Close() })
	scap, ccap := &capturePC{PacketConn: spc}, &capturePC{PacketConn: cpc}
	srv, err := Listen(scap, pskServer())
	require.NoError(tb, err)
	tb.Cleanup(func() { srv.Close() })
	lp := &livePair{srv: srv, spc: spc, cpc: cpc, other: other, buf: make([]byte, transport.MaxDatagram)}
	lp.cli = dialReady(tb, srv, ccap, pskClient())
	lp.roundTrip(tb)
	lp.fromServer, lp.fromClient = scap.captured(), ccap.captured()
	return lp
}

// roundTrip sends a datagram each way and fails tb unless exactly that
// datagram arrives: the association is up and delivered nothing else.
func (lp *livePair) roundTrip(tb testing.TB) {
	tb.Helper()
	lp.roundTrips++
	msg := []byte{'r', 't', byte(lp.roundTrips), byte(lp.roundTrips >> 8), byte(lp.roundTrips >> 16)}
	require.NoError(tb, lp.cli.Send(10, msg))
	got, _ := recv(tb, lp.srv, lp.buf)
	require.Equal(tb, msg, got, "server received")
	require.NoError(tb, lp.srv.Send(20, msg))
	got, _ = recv(tb, lp.cli, lp.buf)
	require.Equal(tb, msg, got, "client received")
}

// FuzzLiveAssociation sends one arbitrary datagram to a side of an
// established DTLS association over loopback, from the other side's
// address or from a third one, then requires a round trip: whatever the
// datagram holds (seeded with every record the handshake and the first
// exchange put on the wire, and with the plaintext attacks), it may not
// end, stall or inject into the association. The association is made
// once per fuzzing process (the fuzz function's body runs once in each) and lives through every input, so damage done
// by one input is found by the next round trip.
func FuzzLiveAssociation(f *testing.F) {
	live := newLivePair(f)
	for _, p := range live.fromClient {
		f.Add(p, true, true)
		f.Add(p, true, false)
	}
	for _, p := range live.fromServer {
		f.Add(p, false, true)
	}
	for _, a := range plaintextAttacks {
		f.Add(a.dg, true, true)
		f.Add(a.dg, false, false)
	}
	f.Fuzz(func(t *testing.T, dg []byte, toServer, fromPeer bool) {
		if len(dg) > transport.MaxDatagram {
			return
		}
		victim, spoof := live.cpc.LocalAddr(), live.spc
		if toServer {
			victim, spoof = live.spc.LocalAddr(), live.cpc
		}
		if !fromPeer {
			spoof = live.other
		}
		_, err := spoof.WriteTo(dg, victim)
		require.NoError(t, err)
		live.roundTrip(t)
		for _, c := range []*Conn{live.srv, live.cli} {
			require.Zero(t, c.snapshot().PeersClosed, "association ended")
		}
	})
}
