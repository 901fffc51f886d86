package dtls

import (
	"bytes"
	"net"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCookieEchoVerifies: in a real handshake the server's
// HelloVerifyRequest carries a cookie and the client's second ClientHello
// echoes it, which marks the client's source as verified; a first
// ClientHello carries none.
func TestCookieEchoVerifies(t *testing.T) {
	spc, err := net.ListenUDP("udp4", loopback)
	require.NoError(t, err)
	cpc, err := net.ListenUDP("udp4", loopback)
	require.NoError(t, err)
	scap, ccap := &capturePC{PacketConn: spc}, &capturePC{PacketConn: cpc}
	srv, err := Listen(scap, pskServer())
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	dialReady(t, srv, ccap, pskClient())
	require.True(t, srv.mux.verified(cpc.LocalAddr()), "the client's source is not verified")

	var cookie []byte
	for _, p := range scap.captured() {
		if c := helloVerifyCookie(p); c != nil {
			cookie = c
		}
	}
	require.NotEmpty(t, cookie, "no HelloVerifyRequest among the server's datagrams")
	var hellos [][]byte
	for _, p := range ccap.captured() {
		if _, ok := clientHelloCookie(p); ok {
			hellos = append(hellos, p)
		}
	}
	require.GreaterOrEqual(t, len(hellos), 2, "the client's ClientHellos")
	first, _ := clientHelloCookie(hellos[0])
	require.Empty(t, first, "the first ClientHello's cookie")
	require.True(t, echoes(hellos[len(hellos)-1], cookie), "the last ClientHello does not echo the cookie")
	require.False(t, echoes(hellos[0], cookie), "the first ClientHello echoes the cookie")
}

// FuzzCookies feeds arbitrary datagrams to the parsers that read the
// cookie out of a HelloVerifyRequest and a ClientHello: they never panic,
// and what they return lies inside the datagram.
func FuzzCookies(f *testing.F) {
	hvr := []byte{22, 0xfe, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 23,
		3, 0, 0, 11, 0, 0, 0, 0, 0, 0, 0, 11, 0xfe, 0xff, 8, 1, 2, 3, 4, 5, 6, 7, 8}
	f.Add(hvr)
	f.Add(hvr[:30])
	f.Add(plaintextRecord(22, 1, []byte{1, 0, 0, 40, 0, 0, 0, 0, 0, 0, 0, 40}))
	f.Fuzz(func(t *testing.T, p []byte) {
		inside := func(b []byte) {
			if len(b) > 0 && !bytes.Contains(p, b) {
				t.Fatalf("%x is not part of the datagram", b)
			}
		}
		inside(helloVerifyCookie(p))
		c, _ := clientHelloCookie(p)
		inside(c)
		_ = echoes(p, c)
	})
}
