package dtls

import (
	"encoding/binary"
	"net"
	"net/netip"
	"sync/atomic"
)

// DTLS 1.2 record framing (RFC 6347, section 4.1): a 13-byte header of
// content type, version, epoch, sequence number and length, then the body.
const (
	recordHeader      = 13
	contentHandshake  = 22
	epochOffset       = 3
	lengthOffset      = 11
	maxRecordsChecked = 64 // a 1500-byte datagram holds at most 115 empty records; genuine flights hold a few
)

// keepAuthenticated removes from the datagram p, in place, every record at
// epoch 0 other than a handshake record, and returns the length of what
// is left: 0 when nothing is, or when p is not a well-formed sequence of
// records. It is applied once a handshake has finished. Epoch 0 is
// plaintext, so anyone who can reach the socket can make such a record;
// pion answers an unexpected one (application data, a malformed
// ChangeCipherSpec, an unknown content type) with a fatal alert that ends
// the association for both sides. Handshake records stay, so that a peer
// that missed the last flight can still make pion resend it; pion drops
// the ones that are not a retransmission without an alert.
func keepAuthenticated(p []byte) int {
	n := 0
	for rest, i := p, 0; len(rest) > 0; i++ {
		if len(rest) < recordHeader || i == maxRecordsChecked {
			return 0
		}
		size := recordHeader + int(binary.BigEndian.Uint16(rest[lengthOffset:]))
		if size > len(rest) {
			return 0
		}
		if rest[0] == contentHandshake || binary.BigEndian.Uint16(rest[epochOffset:]) != 0 {
			n += copy(p[n:], rest[:size])
		}
		rest = rest[size:]
	}
	return n
}

// guard is the socket pion's client reads: pion's client takes every
// datagram from its socket as the server's, so guard passes only those
// from the server's address, and once the handshake has finished it
// drops the plaintext records keepAuthenticated removes.
type guard struct {
	net.PacketConn
	peer        netip.AddrPort // the server; zero for a non-UDP address (then compared as strings)
	peerString  string
	established atomic.Bool
	foreign     atomic.Uint64 // datagrams from another address
	plaintext   atomic.Uint64 // datagrams dropped whole by keepAuthenticated
}

func newGuard(pc net.PacketConn, peer net.Addr) *guard {
	g := &guard{PacketConn: pc, peerString: peer.String()}
	if u, ok := peer.(*net.UDPAddr); ok {
		g.peer = unmapped(u.AddrPort())
	}
	return g
}

// ReadFrom returns the next datagram from the server that has something
// left to read, and the error of the socket.
func (g *guard) ReadFrom(b []byte) (int, net.Addr, error) {
	for {
		n, addr, err := g.PacketConn.ReadFrom(b)
		if err != nil {
			return n, addr, err
		}
		if !g.fromPeer(addr) {
			g.foreign.Add(1)
			continue
		}
		if g.established.Load() {
			if n = keepAuthenticated(b[:n]); n == 0 {
				g.plaintext.Add(1)
				continue
			}
		}
		return n, addr, nil
	}
}

func (g *guard) fromPeer(addr net.Addr) bool {
	if u, ok := addr.(*net.UDPAddr); ok && g.peer.IsValid() {
		return unmapped(u.AddrPort()) == g.peer
	}
	return addr != nil && addr.String() == g.peerString
}

// unmapped returns ap with an IPv4-mapped IPv6 address unmapped, so that
// both spellings of one address compare equal.
func unmapped(ap netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
}
