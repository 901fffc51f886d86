package negotiate_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/rollstep/rollstep/internal/negotiate"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

// The authority offers the match; a follower adopts it and builds its
// initial state from it. Half the datagrams are lost: the offer is
// repeated until acknowledged.
func ExampleNewOffer() {
	net, err := sim.New(sim.Config{Seed: 2, Link: sim.LinkConfig{Latency: sim.Latency{Base: 20 * time.Millisecond}, Loss: 0.5}})
	if err != nil {
		panic(err)
	}
	host, guest := net.NewEndpoint(), net.NewEndpoint()
	offer := negotiate.MatchConfig{Players: 2, TickRate: 10, Seed: 42, Params: []byte("map=canyon")}
	nc := negotiate.NegotiationConfig{Token: 9}
	a, err := negotiate.NewOffer(host, nc, []transport.Addr{guest.ID()}, offer)
	if err != nil {
		panic(err)
	}
	var seed uint64
	f, err := negotiate.NewAccept(guest, nc, host.ID(), func(m negotiate.MatchConfig) error {
		fmt.Printf("adopting %s, seed %d\n", m.Params, m.Seed)
		seed = m.Seed // build the initial state from it
		return nil
	})
	if err != nil {
		panic(err)
	}
	for now := time.Duration(0); ; now += 10 * time.Millisecond {
		net.RunUntil(now)
		da, erra := a.Update(now)
		df, errf := f.Update(now)
		if erra != nil || errf != nil {
			panic(errors.Join(erra, errf))
		}
		if da && df {
			break
		}
	}
	fmt.Println("agreed:", a.Config().Digest() == f.Config().Digest(), "seed:", seed)
	// Output:
	// adopting map=canyon, seed 42
	// agreed: true seed: 42
}
