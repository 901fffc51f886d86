package simlink_test

import (
	"fmt"
	"time"

	"github.com/rollstep/rollstep/internal/simlink"
	"github.com/rollstep/rollstep/transport/sim"
)

// A Shaper decides what a link does to each datagram without a network or
// a clock: the caller says when the datagram was sent and gets back when it
// arrives. Here a 1,000-byte-per-second link 50 ms long carries three
// 72-byte datagrams (100 bytes with IP and UDP headers) sent together.
func ExampleShaper() {
	link := sim.LinkConfig{Latency: sim.Latency{Base: 50 * time.Millisecond}, Bandwidth: 1000, QueueLimit: 250}
	s, err := simlink.NewShaper(link, 1, 0, 1)
	if err != nil {
		panic(err)
	}
	for range 3 {
		f := s.Decide(0, 72)
		if f.Dropped() {
			fmt.Println("dropped:", f.Drop)
			continue
		}
		fmt.Println("arrives at", f.At)
	}
	// Output:
	// arrives at 150ms
	// arrives at 250ms
	// dropped: queue
}
