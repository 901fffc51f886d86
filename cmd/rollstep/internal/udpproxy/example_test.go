package udpproxy_test

import (
	"fmt"
	"time"

	"github.com/rollstep/rollstep/cmd/rollstep/internal/udpproxy"
	"github.com/rollstep/rollstep/transport/sim"
)

// The Scheduler on an injected clock: a 40 ms link up, 10 ms down. The
// caller says when each datagram was read; Next and Pop say when to write
// it. The Proxy driver does the same with a real clock and real sockets.
func ExampleScheduler() {
	up := sim.LinkConfig{Latency: sim.Latency{Base: 40 * time.Millisecond}}
	down := sim.LinkConfig{Latency: sim.Latency{Base: 10 * time.Millisecond}}
	s, err := udpproxy.NewScheduler(up, down, 1)
	if err != nil {
		panic(err)
	}
	s.Submit(0, udpproxy.Up, 0, []byte("ping"))
	s.Submit(20*time.Millisecond, udpproxy.Down, 0, []byte("pong"))
	for {
		next, ok := s.Next()
		if !ok {
			break
		}
		d, _ := s.Pop(next)
		fmt.Println(d.At, d.Dir, string(d.Payload))
	}
	// Output:
	// 30ms down pong
	// 40ms up ping
}
