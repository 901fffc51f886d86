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

// A periodic spike, as the CLI's -spike H/S/P flag gives it, on a link with
// a 50 ms base latency: datagrams sent in the first 600 ms of every 2 s take
// 400 ms, and later ones queue behind them.
func ExampleParseSpike() {
	spike, err := sim.ParseSpike("400ms/600ms/2s")
	if err != nil {
		panic(err)
	}
	fmt.Println(spike.Height, spike.Length, spike.Period)

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

	_, err = sim.ParseSpike("400ms")
	fmt.Println(errors.Is(err, sim.ErrSyntax))
	_, err = sim.ParseSpike("400ms/3s/2s")
	fmt.Println(errors.Is(err, sim.ErrSpikeLength))
	// Output:
	// 400ms 600ms 2s
	// sent at 0ms, arrived at 400ms
	// sent at 500ms, arrived at 900ms
	// sent at 700ms, arrived at 900ms
	// sent at 1500ms, arrived at 1.55s
	// true
	// true
}

// ParseLatency reads the profiles the CLI accepts.
func ExampleParseLatency() {
	for _, s := range []string{"50ms", "50ms±10ms", "50ms~10ms spike 400ms/600ms/2s", "5ms±10ms"} {
		l, err := sim.ParseLatency(s)
		fmt.Println(l, err)
	}
	// Output:
	// 50ms <nil>
	// 50ms±10ms <nil>
	// 50ms±10ms spike 400ms/600ms/2s <nil>
	// 0s sim: ParseLatency "5ms±10ms": Latency.Jitter = 10ms (base 5ms): value out of range
}

// A partition drops datagrams both ways until it heals.
func ExampleNetwork_Partition() {
	net, _ := sim.New(sim.Config{})
	a, b := net.NewEndpoint(), net.NewEndpoint()
	net.Partition([]transport.Addr{a.ID()}, []transport.Addr{b.ID()})
	a.Send(b.ID(), []byte("lost"))
	b.Send(a.ID(), []byte("lost"))
	net.RunUntilIdle()
	fmt.Println(a.Pending(), b.Pending(), net.Stats(a.ID(), b.ID()).Dropped.Packets)

	net.Heal()
	a.Send(b.ID(), []byte("arrives"))
	net.RunUntilIdle()
	fmt.Println(a.Pending(), b.Pending())
	// Output:
	// 0 0 1
	// 0 1
}
