package sim_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

// Two endpoints 50 ms apart: nothing arrives until virtual time reaches the
// arrival, and the counters include the 28-byte IP+UDP header.
func Example() {
	net, err := sim.New(sim.Config{Seed: 1, Link: sim.LinkConfig{Latency: sim.Latency{Base: 50 * time.Millisecond}}})
	if err != nil {
		panic(err)
	}
	alice, bob := net.NewEndpoint(), net.NewEndpoint()
	alice.Send(bob.ID(), []byte("hello"))

	buf := make([]byte, transport.MaxDatagram)
	net.Advance(49 * time.Millisecond)
	_, _, ok, _ := bob.Receive(buf)
	fmt.Println(net.Now(), ok)

	net.Advance(time.Millisecond)
	n, from, ok, _ := bob.Receive(buf)
	fmt.Println(net.Now(), ok, from, string(buf[:n]))

	st := net.Stats(alice.ID(), bob.ID())
	fmt.Println("delivered:", st.Delivered.Packets, "datagram,", st.Delivered.Bytes, "bytes")
	// Output:
	// 49ms false
	// 50ms true peer 0 hello
	// delivered: 1 datagram, 33 bytes
}

// A periodic spike on a link with a 50 ms base latency: datagrams sent in
// the first 600 ms of every 2 s take 400 ms, and later ones queue behind
// them. Its String form is the one the CLI's -spike H/S/P flag reads.
func ExampleSpike() {
	spike := sim.Spike{Height: 400 * time.Millisecond, Length: 600 * time.Millisecond, Period: 2 * time.Second}
	fmt.Println(spike)

	net, _ := sim.New(sim.Config{Link: sim.LinkConfig{Latency: sim.Latency{Base: 50 * time.Millisecond, Spike: spike}}})
	a, b := net.NewEndpoint(), net.NewEndpoint()
	sends := []time.Duration{0, 500 * time.Millisecond, 700 * time.Millisecond, 1500 * time.Millisecond}
	buf := make([]byte, transport.MaxDatagram)
	for {
		// Jump to whichever comes first: the next send or the next arrival.
		next, arriving := net.Next()
		if len(sends) > 0 && (!arriving || sends[0] < next) {
			net.RunUntil(sends[0])
			a.Send(b.ID(), []byte{byte(sends[0] / (100 * time.Millisecond))})
			sends = sends[1:]
			continue
		}
		if !arriving {
			break
		}
		net.RunUntil(next)
		for {
			n, _, ok, _ := b.Receive(buf)
			if !ok {
				break
			}
			fmt.Printf("sent at %dms, arrived at %v\n", int(buf[:n][0])*100, net.Now())
		}
	}

	_, err := sim.New(sim.Config{Link: sim.LinkConfig{Latency: sim.Latency{Spike: sim.Spike{Height: time.Second, Length: 3 * time.Second, Period: 2 * time.Second}}}})
	fmt.Println(errors.Is(err, transport.ErrInvalidConfig))
	fmt.Println(err)
	// Output:
	// 400ms/600ms/2s
	// sent at 0ms, arrived at 400ms
	// sent at 500ms, arrived at 900ms
	// sent at 700ms, arrived at 900ms
	// sent at 1500ms, arrived at 1.55s
	// true
	// transport: invalid config: sim.Config.Link.Latency.Spike.Length: 3s exceeds Period 2s
}

// A partition drops datagrams both ways until it heals.
func ExampleNetwork_Partition() {
	net, _ := sim.New(sim.Config{})
	a, b := net.NewEndpoint(), net.NewEndpoint()
	net.Partition([]transport.Addr{a.ID()}, []transport.Addr{b.ID()})
	a.Send(b.ID(), []byte("lost"))
	b.Send(a.ID(), []byte("lost"))
	net.RunUntilIdle()
	buf := make([]byte, transport.MaxDatagram)
	_, _, okA, _ := a.Receive(buf)
	_, _, okB, _ := b.Receive(buf)
	fmt.Println(okA, okB, net.Stats(a.ID(), b.ID()).Dropped.Packets)

	net.Heal()
	a.Send(b.ID(), []byte("arrives"))
	net.RunUntilIdle()
	n, _, ok, _ := b.Receive(buf)
	fmt.Println(ok, string(buf[:n]))
	// Output:
	// false false 1
	// true arrives
}
