package dtls

import (
	"context"
	"net"
	"testing"

	piondtls "github.com/pion/dtls/v3"

	"github.com/rollstep/rollstep/transport"
)

// BenchmarkHandshake measures a complete handshake on loopback, client
// Dial to established association, in each mode.
func BenchmarkHandshake(b *testing.B) {
	modes := []struct {
		name string
		make func(t testing.TB) (server, client Config)
	}{
		{"PSK", func(testing.TB) (Config, Config) { return pskServer(), pskClient() }},
		{"Certificate", certPair},
	}
	for _, mode := range modes {
		b.Run(mode.name, func(b *testing.B) {
			scfg, ccfg := mode.make(b)
			scfg.MaxPeers = 1 << 20
			srv := listen(b, scfg)
			b.ReportAllocs()
			for b.Loop() {
				pc, err := net.ListenUDP("udp4", loopback)
				if err != nil {
					b.Fatal(err)
				}
				c, err := Dial(context.Background(), pc, srv.local, ccfg)
				if err != nil {
					b.Fatal(err)
				}
				c.Close()
			}
		})
	}
}

// BenchmarkSendReceive measures one datagram from client to server:
// encrypt, write, read, decrypt, queue and Receive. It reports the
// measured record overhead in bytes per datagram.
func BenchmarkSendReceive(b *testing.B) {
	for _, size := range []int{64, transport.MaxDatagram} {
		for _, suite := range []piondtls.CipherSuiteID{piondtls.TLS_PSK_WITH_AES_128_GCM_SHA256, piondtls.TLS_PSK_WITH_AES_128_CCM_8} {
			b.Run(map[int]string{64: "64B", transport.MaxDatagram: "1200B"}[size]+"/"+suiteName(suite), func(b *testing.B) {
				scfg, ccfg := pskServer(), pskClient()
				scfg.CipherSuites = []piondtls.CipherSuiteID{suite}
				ccfg.CipherSuites = scfg.CipherSuites
				srv := listen(b, scfg)
				pc := newCounting(b)
				cli := dialReady(b, srv, pc, ccfg)
				p, buf := make([]byte, size), make([]byte, transport.MaxDatagram)
				pc.reset()
				b.ReportAllocs()
				b.SetBytes(int64(size))
				for b.Loop() {
					if err := cli.Send(10, p); err != nil {
						b.Fatal(err)
					}
					recv(b, srv, buf)
				}
				w := pc.written()
				total := 0
				for _, n := range w {
					total += n - size
				}
				b.ReportMetric(float64(total)/float64(len(w)), "overhead-B/datagram")
			})
		}
	}
}

// suiteName is a short name of a cipher suite for benchmark names.
func suiteName(s piondtls.CipherSuiteID) string {
	switch s {
	case piondtls.TLS_PSK_WITH_AES_128_GCM_SHA256:
		return "gcm"
	case piondtls.TLS_PSK_WITH_AES_128_CCM_8:
		return "ccm8"
	}
	return s.String()
}
