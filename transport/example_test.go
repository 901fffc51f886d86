package transport_test

import (
	"errors"
	"fmt"

	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

// pump is the receive half of a host's game loop: it drains every datagram
// that has arrived into one reused buffer, without allocating.
func pump(c transport.Conn, buf []byte, handle func(from transport.Addr, p []byte)) error {
	for {
		n, from, ok, err := c.Receive(buf)
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		handle(from, buf[:n])
	}
}

// A game loop sends through a Conn, lets time pass, and drains what arrived.
// Here the Conn is a transport/sim endpoint, so time is virtual.
func Example() {
	net, _ := sim.New(sim.Config{})
	var host, guest transport.Conn = net.NewEndpoint(), net.NewEndpoint()
	const guestID = transport.Addr(1) // sim numbers endpoints in creation order

	msg := []byte("input 1")
	host.Send(guestID, msg)
	copy(msg, "XXXXXXX") // Send did not retain msg: reusing it is safe
	host.Send(guestID, []byte("input 2"))
	net.Advance(0)

	buf := make([]byte, transport.MaxDatagram)
	pump(guest, buf, func(from transport.Addr, p []byte) {
		fmt.Printf("%v sent %q\n", from, p)
	})

	err := host.Send(guestID, make([]byte, transport.MaxDatagram+1))
	fmt.Println(errors.Is(err, transport.ErrDatagramTooLarge), err)

	guest.Close()
	fmt.Println(pump(guest, buf, nil))
	// Output:
	// peer 0 sent "input 1"
	// peer 0 sent "input 2"
	// true transport: datagram too large: 1201 bytes, over the 1200-byte limit
	// transport: use of closed connection
}
