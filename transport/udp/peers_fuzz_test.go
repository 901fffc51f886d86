package udp

import (
	"net/netip"
	"testing"

	"github.com/rollstep/rollstep/transport"
)

// checkTable fails t unless t's invariants hold: byID and byAddr hold the
// same pairs for bound peers, provisional counts the provisional entries
// and stays within maxUnknown, and arrivals stays bounded.
func checkTable(t *testing.T, pt *peerTable) {
	t.Helper()
	prov := 0
	for id, e := range pt.byID {
		if e.provisional {
			prov++
		}
		if e.addr.IsValid() {
			if got, ok := pt.byAddr[e.addr]; !ok || got != id {
				t.Fatalf("peer %v at %v: byAddr has %v, %v", id, e.addr, got, ok)
			}
		}
	}
	for a, id := range pt.byAddr {
		if e, ok := pt.byID[id]; !ok || e.addr != a {
			t.Fatalf("byAddr[%v] = %v, whose entry is %+v, %v", a, id, e, ok)
		}
	}
	if prov != pt.provisional || prov > pt.maxUnknown {
		t.Fatalf("%d provisional entries, count %d, max %d", prov, pt.provisional, pt.maxUnknown)
	}
	if len(pt.arrivals) > 2*pt.maxUnknown+1 {
		t.Fatalf("arrivals holds %d Addrs for at most %d provisional peers", len(pt.arrivals), pt.maxUnknown)
	}
}

// FuzzPeerTable drives the table a Conn keeps with an arbitrary sequence
// of what the network and the layer above do: datagrams from up to 64
// addresses, and confirm, rebind, forget and bind of any Addr. Each
// byte of ops is one step. The invariants hold after every step, a known
// address always maps to its peer, and a new address is always given a
// Addr: a flood of sources never locks one out.
func FuzzPeerTable(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, uint8(3))
	f.Add([]byte{0, 0x40, 0x81, 0xc2, 1, 0x41}, uint8(1))
	f.Add([]byte{0xff, 0xfe, 0x3f, 0x7f, 0xbf}, uint8(8))
	f.Fuzz(func(t *testing.T, ops []byte, max uint8) {
		if max == 0 {
			return
		}
		pt := newPeerTable(Config{Peers: []Peer{{ID: 1, Addr: addrN(200)}, {ID: 2}},
			AcceptUnknown: true, MaxUnknown: int(max), FirstUnknown: 10})
		c := &Conn{peers: pt, done: make(chan struct{})}
		for _, op := range ops {
			n := op & 0x3f
			id := transport.Addr(n % 16)
			switch op >> 6 {
			case 0: // a datagram from address n
				a := addrN(int(n))
				got, ok := c.peers.lookup(a)
				if !ok {
					t.Fatalf("a datagram from %v got no Addr", a)
				}
				if again, _ := c.peers.lookup(a); again != got {
					t.Fatalf("%v is %v, then %v", a, got, again)
				}
			case 1:
				_ = c.confirm(id)
			case 2:
				_ = c.rebind(id, transport.Addr(n/16+10))
			case 3:
				if n%2 == 0 {
					_ = c.forget(id)
				} else {
					_ = c.bind(id, addrN(int(n)+64))
				}
			}
			checkTable(t, &c.peers)
		}
	})
}

// addrN is the n-th test address.
func addrN(n int) netip.AddrPort {
	return netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, byte(n >> 8), byte(n)}), 7000)
}
