package dtls

import (
	"encoding/binary"
	"net"
	"sync"
	"testing"
	"time"

	piondtls "github.com/pion/dtls/v3"

	"github.com/rollstep/rollstep/transport"
)

// counting is a net.PacketConn that records the size of every datagram
// written, to measure the DTLS record overhead.
type counting struct {
	net.PacketConn
	mu    sync.Mutex
	sizes []int
}

func (c *counting) WriteTo(p []byte, addr net.Addr) (int, error) {
	c.mu.Lock()
	c.sizes = append(c.sizes, len(p))
	c.mu.Unlock()
	return c.PacketConn.WriteTo(p, addr)
}

// reset forgets the sizes recorded so far (the handshake's).
func (c *counting) reset() {
	c.mu.Lock()
	c.sizes = c.sizes[:0]
	c.mu.Unlock()
}

func (c *counting) written() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]int(nil), c.sizes...)
}

func newCounting(t testing.TB) *counting {
	t.Helper()
	pc, err := net.ListenUDP("udp4", loopback)
	if err != nil {
		t.Fatal(err)
	}
	return &counting{PacketConn: pc}
}

// TestThousandDatagrams completes a handshake and echoes 1,000 numbered
// datagrams of varying size through the server, checking each one.
func TestThousandDatagrams(t *testing.T) {
	const total, window = 1000, 50 // a window keeps the socket buffers from overflowing
	srv := listen(t, pskServer())
	cli := dialReady(t, srv, nil, pskClient())
	start := time.Now()
	sbuf, cbuf := make([]byte, transport.MaxDatagram), make([]byte, transport.MaxDatagram)
	for base := 0; base < total; base += window {
		for i := base; i < base+window; i++ {
			p := make([]byte, size(i))
			binary.BigEndian.PutUint32(p, uint32(i))
			if err := cli.Send(10, p); err != nil {
				t.Fatalf("datagram %d: Send: %v", i, err)
			}
		}
		for i := base; i < base+window; i++ {
			got, from := recv(t, srv, sbuf)
			if len(got) != size(i) || binary.BigEndian.Uint32(got) != uint32(i) {
				t.Fatalf("server: datagram %d: got %d bytes numbered %d", i, len(got), binary.BigEndian.Uint32(got))
			}
			if err := srv.Send(from, got); err != nil {
				t.Fatalf("datagram %d: echo: %v", i, err)
			}
		}
		for i := base; i < base+window; i++ {
			if got, _ := recv(t, cli, cbuf); binary.BigEndian.Uint32(got) != uint32(i) {
				t.Fatalf("client: echo %d: got number %d", i, binary.BigEndian.Uint32(got))
			}
		}
	}
	s := srv.snapshot()
	if s.DatagramsIn != total || s.DatagramsOut != total || s.DroppedFull != 0 {
		t.Fatalf("server stats: got in=%d out=%d dropped=%d, want %d, %d, 0", s.DatagramsIn, s.DatagramsOut, s.DroppedFull, total, total)
	}
	t.Logf("%d datagrams echoed in %v", total, time.Since(start).Round(time.Millisecond))
}

// measureOverhead sends datagrams of several sizes over a fresh
// association and returns the bytes each added on the wire.
func measureOverhead(t testing.TB, suite piondtls.CipherSuiteID) map[int]int {
	t.Helper()
	scfg, ccfg := pskServer(), pskClient()
	scfg.CipherSuites = []piondtls.CipherSuiteID{suite}
	ccfg.CipherSuites = scfg.CipherSuites
	return measureOverheadWith(t, scfg, ccfg)
}

// measureOverheadWith is measureOverhead for a given pair of configs.
func measureOverheadWith(t testing.TB, scfg, ccfg Config) map[int]int {
	t.Helper()
	srv := listen(t, scfg)
	pc := newCounting(t)
	cli := dialReady(t, srv, pc, ccfg)
	overhead := map[int]int{}
	buf := make([]byte, transport.MaxDatagram)
	for _, size := range []int{0, 16, 64, 200, transport.MaxDatagram} {
		pc.reset()
		if err := cli.Send(10, make([]byte, size)); err != nil {
			t.Fatal(err)
		}
		recv(t, srv, buf)
		w := pc.written()
		if len(w) != 1 {
			t.Fatalf("%d-byte datagram: got %d writes, want 1", size, len(w))
		}
		overhead[size] = w[0] - size
	}
	return overhead
}

func TestRecordOverhead(t *testing.T) {
	tests := []struct {
		name  string
		suite piondtls.CipherSuiteID
		want  int
	}{
		{"PSK_AES_128_GCM", piondtls.TLS_PSK_WITH_AES_128_GCM_SHA256, 37}, // 13 header + 8 nonce + 16 tag
		{"PSK_AES_128_CCM_8", piondtls.TLS_PSK_WITH_AES_128_CCM_8, 29},    // 13 header + 8 nonce + 8 tag
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for size, got := range measureOverhead(t, tt.suite) {
				if got != tt.want {
					t.Errorf("%d-byte datagram: got %d bytes of overhead, want %d", size, got, tt.want)
				}
			}
		})
	}
}

// size is the length of datagram i: 4 to transport.MaxDatagram bytes.
func size(i int) int { return 4 + (i*37)%(transport.MaxDatagram-3) }

// TestDefaultSuitesFitIPv6MinimumMTU checks that with the default cipher
// suites, PSK and certificates, a datagram of transport.MaxDatagram bytes
// leaves as at most 1232 bytes of UDP payload: 1280 (IPv6's minimum MTU)
// less 40 of IPv6 and 8 of UDP header, so it is never fragmented.
func TestDefaultSuitesFitIPv6MinimumMTU(t *testing.T) {
	scert, ccert := certPair(t)
	for _, tt := range []struct {
		name       string
		scfg, ccfg Config
	}{
		{"psk", pskServer(), pskClient()},
		{"certificates", scert, ccert},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := measureOverheadWith(t, tt.scfg, tt.ccfg)
			if n := transport.MaxDatagram + o[transport.MaxDatagram]; n > 1232 {
				t.Errorf("a %d-byte datagram takes %d bytes of UDP payload, want at most 1232", transport.MaxDatagram, n)
			}
		})
	}
}
