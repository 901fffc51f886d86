package lockstep_test

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/lockstep"
	"github.com/rollstep/rollstep/transport/sim"
)

// Counter is a tiny game state: the sum of every order given.
type Counter struct {
	Turn int32
	Sum  int32
}

// Order is a command; the zero Order is "no command".
type Order struct{ Add int32 }

func step(s *Counter, in []core.Input[Order], _ *core.Effects) {
	s.Turn++
	for _, x := range in {
		s.Sum += x.Value.Add
	}
}

// Two peers 150 ms apart play 100 ms turns. The delay controller settles
// at D = 2, which covers the latency, so turns keep their 100 ms pace; both
// peers apply both orders at the same turn.
func Example() {
	net, err := sim.New(sim.Config{Seed: 1, Link: sim.LinkConfig{Latency: sim.Latency{Base: 150 * time.Millisecond}}})
	if err != nil {
		panic(err)
	}
	conns := []*sim.Endpoint{net.NewEndpoint(), net.NewEndpoint()}
	var sessions []*lockstep.Session[Counter, Order]
	for i := range 2 {
		cfg := lockstep.Config{
			Players:    2,
			Local:      []core.PlayerHandle{core.PlayerHandle(i)},
			Peers:      []lockstep.Peer{{Addr: conns[1-i].ID(), Players: []core.PlayerHandle{core.PlayerHandle(1 - i)}}},
			TurnPeriod: 100 * time.Millisecond,
		}
		cfg.Transport.Rand = rand.NewChaCha8([32]byte{byte(i)}) // reproducible handshake nonces
		s, err := lockstep.NewSession(cfg, core.GameFunc[Counter, Order](step), Counter{}, conns[i])
		if err != nil {
			panic(err)
		}
		sessions = append(sessions, s)
	}
	// The host loop, on virtual time: deliver what arrived, give inputs,
	// update, render.
	for now := time.Duration(0); now <= 30*time.Second; now += 10 * time.Millisecond {
		net.RunUntil(now)
		for i, s := range sessions {
			if now == 10*time.Second {
				_ = s.AddLocalInput(core.PlayerHandle(i), Order{Add: int32(i + 1)})
			}
			if err := s.Update(now); err != nil {
				panic(err)
			}
			_, _, _ = s.Previous(), s.State(), s.Fraction() // render
		}
	}
	for i, s := range sessions {
		st := s.Stats()
		fmt.Printf("peer %d: D=%d period=%v sum=%d desyncs=%d\n", i, st.Delay, st.TurnPeriod, s.State().Sum, st.Engine.Desyncs)
	}
	// Output:
	// peer 0: D=2 period=100ms sum=3 desyncs=0
	// peer 1: D=2 period=100ms sum=3 desyncs=0
}
