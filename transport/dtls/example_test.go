package dtls_test

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/dtls"
)

// A server and a client on loopback, authenticated with a per-match
// pre-shared key, exchange one encrypted datagram.
func Example() {
	key := []byte("per-match key from the matchmaker")
	ps, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		panic(err)
	}
	server, err := dtls.Listen(ps, dtls.Config{
		PSK: func(identity []byte) ([]byte, error) {
			return key, nil // look up the key for this identity's match
		},
		FirstPeer: 1,
	})
	if err != nil {
		panic(err)
	}
	defer server.Close()

	pc, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		panic(err)
	}
	client, err := dtls.Dial(context.Background(), pc, ps.LocalAddr(), dtls.Config{
		PSK:         func([]byte) ([]byte, error) { return key, nil },
		PSKIdentity: []byte("player-2"),
	})
	if err != nil {
		panic(err)
	}
	defer client.Close()

	// One game loop drives both ends: the client sends each tick until
	// the server has heard it (a datagram may be lost, here while the
	// server finishes its side of the handshake), and the server drains
	// its Conn.
	buf := make([]byte, transport.MaxDatagram)
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for range 5000 {
		if err := client.Send(0, []byte("hello")); err != nil { // peer 0: the server
			panic(err)
		}
		n, from, ok, err := server.Receive(buf)
		if err != nil {
			panic(err)
		}
		if ok {
			info, _ := server.Peer(from)
			fmt.Printf("%v (identity %q) sent %q\n", from, info.Identity, buf[:n])
			break
		}
		<-tick.C
	}
	// Output:
	// peer 1 (identity "player-2") sent "hello"
}
