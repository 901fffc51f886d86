package udp

import (
	"testing"

	"github.com/rollstep/rollstep/transport/transporttest"
)

func TestConformance(t *testing.T) {
	transporttest.TestConn(t, func(t *testing.T) transporttest.Pair {
		a, b := newPair(t, Config{}, Config{})
		return transporttest.Pair{A: a, B: b, ToB: 2, ToA: 1, Settle: func() { settle(a, b) }}
	})
}

func TestConformanceGenericPacketConn(t *testing.T) {
	// A net.PacketConn that is not a *net.UDPConn takes the generic path.
	transporttest.TestConn(t, func(t *testing.T) transporttest.Pair {
		pa, pb := listen(t), listen(t)
		a, err := New(wrapped{pa}, Config{Peers: []Peer{{ID: 2, Addr: addrOf(pb)}}})
		if err != nil {
			t.Fatal(err)
		}
		b, err := New(wrapped{pb}, Config{Peers: []Peer{{ID: 1, Addr: addrOf(pa)}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close(); b.Close() })
		return transporttest.Pair{A: a, B: b, ToB: 2, ToA: 1, Settle: func() { settle(a, b) }}
	})
}
