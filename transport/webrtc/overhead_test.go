//go:build !js

package webrtc

import (
	"bytes"
	"net"
	"strings"
	"sync"
	"testing"

	pion "github.com/pion/webrtc/v4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/transport"
)

// countingConn records the size of every UDP payload written to a socket
// that is a DTLS application-data record (content type 23), and counts
// the other writes (STUN keepalives, DTLS handshake) apart.
type countingConn struct {
	net.PacketConn
	mu          sync.Mutex
	records     map[int]int // application-data records by size
	otherPkts   int
	otherBytes  int
	recordBytes int
}

func (c *countingConn) WriteTo(p []byte, addr net.Addr) (int, error) {
	c.mu.Lock()
	if len(p) > 0 && p[0] == 23 {
		c.records[len(p)]++
		c.recordBytes += len(p)
	} else {
		c.otherPkts++
		c.otherBytes += len(p)
	}
	c.mu.Unlock()
	return c.PacketConn.WriteTo(p, addr)
}

// reset returns what was counted and starts again.
func (c *countingConn) reset() (records map[int]int, recordBytes, otherPkts, otherBytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	records, recordBytes, otherPkts, otherBytes = c.records, c.recordBytes, c.otherPkts, c.otherBytes
	c.records, c.recordBytes, c.otherPkts, c.otherBytes = map[int]int{}, 0, 0, 0
	return
}

// TestOverheadPerDatagram measures what a data channel adds to each
// datagram on the wire over plain UDP, from the UDP payloads the
// sender's socket wrote, and checks it against the sum of the headers:
// a DTLS record (13 bytes, and with AES-GCM an 8-byte explicit nonce and
// a 16-byte tag), SCTP's common header (12) and a DATA chunk header (16,
// or 20 for the I-DATA chunks of RFC 8260 that two pion peers negotiate),
// the data padded to 4 bytes, and one set per SCTP fragment. It sends
// datagrams one way, each after the previous has arrived, so each
// crosses on its own. (Native only: the socket and the stats it reads
// are pion's, not a browser's.)
func TestOverheadPerDatagram(t *testing.T) {
	pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
	require.NoError(t, err)
	counter := &countingConn{PacketConn: pc, records: map[int]int{}}
	h := newHub()
	a, err := New(Config{Self: 1, Peers: []transport.Addr{2}, Signaler: h.endpoint(1), loopback: true, socket: counter})
	require.NoError(t, err)
	defer a.Close()
	b, err := New(Config{Self: 2, Peers: []transport.Addr{1}, Signaler: h.endpoint(2), loopback: true})
	require.NoError(t, err)
	defer b.Close()
	awaitState(t, a, 2, Open, "a")
	awaitState(t, b, 1, Open, "b")

	a.mu.Lock()
	apc := a.links[2].pc
	a.mu.Unlock()
	dtlsOver, cipher := recordOverhead(t, apc)
	meta, ok := apc.SCTP().Metadata()
	require.True(t, ok, "no SCTP association metadata")
	chunkHeader := 16
	if meta.MessageInterleavingEnabled {
		chunkHeader = 20
	}
	const sctpMTU = 1191 // pion's, for the SCTP packet inside the DTLS record
	maxData := sctpMTU - 12 - chunkHeader
	maxData -= maxData % 4
	t.Logf("DTLS %s: %d bytes a record; SCTP I-DATA %v: %d + %d bytes a packet, up to %d bytes of data",
		cipher, dtlsOver, meta.MessageInterleavingEnabled, 12, chunkHeader, maxData)

	const n = 200
	for _, size := range []int{50, transport.MaxDatagram} {
		// want is the size of each record a datagram of size bytes
		// crosses in: one per fragment.
		want := map[int]int{}
		for rest := size; rest > 0; rest -= maxData {
			frag := min(rest, maxData)
			want[dtlsOver+12+chunkHeader+(frag+3)&^3] += n
		}
		p := bytes.Repeat([]byte{0x5a}, size)
		counter.reset()
		for range n {
			require.NoError(t, a.Send(2, p))
			got, _ := recv(t, b)
			require.Equal(t, p, got, "a datagram arrives whole, as one message")
		}
		records, recordBytes, otherPkts, otherBytes := counter.reset()
		fragments := 0
		for _, k := range want {
			fragments += k / n
		}
		t.Logf("%4d-byte datagrams: %d fragment(s), %.1f bytes of UDP payload each, %.1f over the datagram; records by size %v; %d other packets (%d bytes)",
			size, fragments, float64(recordBytes)/n, float64(recordBytes)/n-float64(size), records, otherPkts, otherBytes)
		// Each datagram crossed in records of exactly the expected sizes.
		// Now and then SCTP writes one record more (seen: one the size of
		// a last fragment, in about one run of three; 5 of 400 records
		// when other tests loaded both cores, a retransmission when
		// SCTP's timer fires before the SACK is read), which the average
		// above includes; STUN keepalives are counted apart.
		extra := 0
		for sz, k := range records {
			extra += k - want[sz]
		}
		for sz, k := range want {
			assert.GreaterOrEqual(t, records[sz], k, "%d-byte records for %d-byte datagrams", sz, size)
		}
		assert.LessOrEqual(t, extra, n/20, "records beyond one per fragment")
	}
}

// recordOverhead returns the bytes a DTLS application-data record adds to
// its plaintext under pc's negotiated cipher suite, and the suite.
func recordOverhead(t *testing.T, pc *pion.PeerConnection) (int, string) {
	t.Helper()
	cipher := ""
	for _, s := range pc.GetStats() {
		if ts, ok := s.(pion.TransportStats); ok && ts.DTLSCipher != "" {
			cipher = ts.DTLSCipher
		}
	}
	switch {
	case strings.Contains(cipher, "GCM"), strings.HasSuffix(cipher, "_CCM"):
		return 13 + 8 + 16, cipher
	case strings.HasSuffix(cipher, "_CCM_8"):
		return 13 + 8 + 8, cipher
	}
	t.Fatalf("cipher suite %q: no fixed record overhead", cipher)
	return 0, ""
}
