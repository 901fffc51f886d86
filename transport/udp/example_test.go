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

	// Bob's game loop: drain the Conn once per tick.
	buf := make([]byte, transport.MaxDatagram)
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for range 5000 {
		n, from, ok, err := bob.Receive(buf)
		if err != nil {
			panic(err)
		}
		if ok {
			fmt.Printf("%v sent %q\n", from, buf[:n])
			break
		}
		<-tick.C
	}
	got, _ := bob.Addr(1)
	fmt.Println("peer 1 is at the address alice listens on:", got == addrA)
	fmt.Println("datagrams in:", bob.Stats().DatagramsIn)
	// Output:
	// peer 1 sent "hello"
	// peer 1 is at the address alice listens on: true
	// datagrams in: 1
}
