package webrtc_test

import (
	"context"
	"fmt"
	"time"

	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/webrtc"
)

// pipe is an in-memory Signaler pair for the example; a game uses a
// lobby.Match.
type pipe struct {
	self transport.Addr
	in   chan []byte
	out  chan []byte
}

func (p *pipe) Send(_ transport.Addr, b []byte) error {
	p.out <- append([]byte(nil), b...)
	return nil
}

func (p *pipe) Receive(ctx context.Context) (transport.Addr, []byte, error) {
	select {
	case b := <-p.in:
		return 3 - p.self, b, nil // the other of peers 1 and 2
	case <-ctx.Done():
		return 0, nil, ctx.Err()
	}
}

// Two Conns in one process connect through an in-memory Signaler (with no
// ICE servers: host candidates) and exchange a datagram each way.
func Example() {
	ab, ba := make(chan []byte, 64), make(chan []byte, 64)
	a, err := webrtc.New(webrtc.Config{Self: 1, Peers: []transport.Addr{2}, Signaler: &pipe{self: 1, in: ba, out: ab}})
	if err != nil {
		panic(err)
	}
	defer a.Close()
	b, err := webrtc.New(webrtc.Config{Self: 2, Peers: []transport.Addr{1}, Signaler: &pipe{self: 2, in: ab, out: ba}})
	if err != nil {
		panic(err)
	}
	defer b.Close()

	buf := make([]byte, transport.MaxDatagram)
	exchange := func(from, to *webrtc.Conn, addr transport.Addr, msg string) {
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			_ = from.Send(addr, []byte(msg)) // lost until the channel opens
			n, sender, ok, err := to.Receive(buf)
			if err != nil {
				panic(err)
			}
			if ok {
				fmt.Printf("%v got %q\n", sender, buf[:n])
				return
			}
			time.Sleep(10 * time.Millisecond) // a game loop's frame
		}
		fmt.Println("no connection")
	}
	exchange(a, b, 2, "hello from 1")
	exchange(b, a, 1, "hello from 2")
	// Output:
	// peer 1 got "hello from 1"
	// peer 2 got "hello from 2"
}
