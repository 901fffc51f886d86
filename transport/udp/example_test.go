package udp_test

import (
	"fmt"
	"net"
	"time"

	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/udp"
)

// Two peers on loopback, each with the other in its static table, exchange
// one datagram from a game loop that ticks every millisecond.
func Example() {
	sa, _ := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	sb, _ := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	addrA := sa.LocalAddr().(*net.UDPAddr).AddrPort()
	addrB := sb.LocalAddr().(*net.UDPAddr).AddrPort()

	alice, err := udp.New(sa, udp.Config{Peers: []udp.Peer{{ID: 2, Addr: addrB}}})
	if err != nil {
		panic(err)
	}
	defer alice.Close()
	bob, err := udp.New(sb, udp.Config{Peers: []udp.Peer{{ID: 1, Addr: addrA}}})
	if err != nil {
		panic(err)
	}
	defer bob.Close()

	if err := alice.Send(2, []byte("hello")); err != nil {
		panic(err)
	}

	// Each game loop drains its Conn once per tick; Bob answers what he
	// receives.
	buf := make([]byte, transport.MaxDatagram)
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	receive := func(name string, c *udp.Conn) transport.Addr {
		for range 5000 {
			n, from, ok, err := c.Receive(buf)
			if err != nil {
				panic(err)
			}
			if ok {
				fmt.Printf("%s: %v sent %q\n", name, from, buf[:n])
				return from
			}
			<-tick.C
		}
		panic(name + ": nothing arrived")
	}
	from := receive("bob", bob)
	if err := bob.Send(from, []byte("hi")); err != nil {
		panic(err)
	}
	receive("alice", alice)
	// Output:
	// bob: peer 1 sent "hello"
	// alice: peer 2 sent "hi"
}
