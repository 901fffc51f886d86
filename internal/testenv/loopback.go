package testenv

import (
	"net"
	"net/netip"
	"testing"
)

// Loopback returns a UDP socket on a free port of 127.0.0.1 and its
// address, closed when t ends (a Conn built over it may close it first).
// It skips t on a machine without loopback UDP.
func Loopback(t testing.TB) (*net.UDPConn, netip.AddrPort) {
	t.Helper()
	s, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Skip("no loopback UDP:", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, s.LocalAddr().(*net.UDPAddr).AddrPort()
}
