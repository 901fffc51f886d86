package rollstep_test

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/sim"
)

// Score is a tiny game state.
type Score struct{ Points int32 }

// Press is a player's input: whether the button is down.
type Press struct{ Down uint8 }

func score(s *Score, in []core.Input[Press], _ core.Effects) {
	for _, x := range in {
		s.Points += int32(x.Value.Down)
	}
}

// The same game in each mode, between two peers 30 ms apart: each player
// holds the button down until its session reaches frame 30, then lets go.
// Lockstep runs 10 turns per second, the others 60 frames.
func Example() {
	for _, mode := range []rollstep.Mode{rollstep.Lockstep, rollstep.Rollback, rollstep.Auto} {
		net, err := sim.New(sim.Config{Seed: 1, Link: sim.LinkConfig{Latency: sim.Latency{Base: 30 * time.Millisecond}}})
		if err != nil {
			panic(err)
		}
		conns := []*sim.Endpoint{net.NewEndpoint(), net.NewEndpoint()}
		var sessions []*rollstep.Session[Score, Press]
		for i := range 2 {
			cfg := rollstep.Config{
				Mode:    mode,
				Players: 2,
				Local:   []core.PlayerHandle{core.PlayerHandle(i)},
				Peers:   []rollstep.Peer{{Addr: conns[1-i].ID(), Players: []core.PlayerHandle{core.PlayerHandle(1 - i)}}},
				// The button is held state, as rollback inputs always are.
				Inputs: rollstep.Held,
			}
			cfg.Transport.Rand = rand.NewChaCha8([32]byte{byte(i)})
			s, err := rollstep.NewSession(cfg, core.GameFunc[Score, Press](score), Score{}, conns[i])
			if err != nil {
				panic(err)
			}
			sessions = append(sessions, s)
		}
		for now := time.Duration(0); now <= 6*time.Second; now += 4 * time.Millisecond {
			net.RunUntil(now)
			for i, s := range sessions {
				down := uint8(0)
				if s.Frame() < 30 {
					down = 1
				}
				_ = s.AddLocalInput(core.PlayerHandle(i), Press{Down: down})
				if err := s.Update(now); err != nil {
					panic(err)
				}
			}
		}
		a, b := sessions[0], sessions[1]
		fmt.Printf("%-8v points %d/%d, desyncs %d\n", mode, a.State().Points, b.State().Points,
			a.Stats().Desyncs+b.Stats().Desyncs)
	}
	// Output:
	// lockstep points 62/62, desyncs 0
	// rollback points 60/60, desyncs 0
	// auto     points 60/60, desyncs 0
}

// Three peers, each in its own mode, play one match: every mode speaks
// the same protocol. Each game ends the match at frame 240 (EndAt); every
// session plays exactly to that frame, confirms it with the others, and
// reports Ended, so nobody is stranded by the first to stop.
func Example_mixedModes() {
	net, err := sim.New(sim.Config{Seed: 2, Link: sim.LinkConfig{Latency: sim.Latency{Base: 20 * time.Millisecond}, Loss: 0.05}})
	if err != nil {
		panic(err)
	}
	modes := []rollstep.Mode{rollstep.Rollback, rollstep.Lockstep, rollstep.Auto}
	var conns []*sim.Endpoint
	for range modes {
		conns = append(conns, net.NewEndpoint())
	}
	var sessions []*rollstep.Session[Score, Press]
	for i, mode := range modes {
		cfg := rollstep.Config{Mode: mode, TickRate: 60, Local: []core.PlayerHandle{core.PlayerHandle(i)}, Inputs: rollstep.Held}
		for j := range modes {
			if j != i {
				cfg.Peers = append(cfg.Peers, rollstep.Peer{Addr: conns[j].ID(), Players: []core.PlayerHandle{core.PlayerHandle(j)}})
			}
		}
		cfg.Transport.Rand = rand.NewChaCha8([32]byte{byte(i), 2})
		s, err := rollstep.NewSession(cfg, core.GameFunc[Score, Press](score), Score{}, conns[i])
		if err != nil {
			panic(err)
		}
		if err := s.EndAt(240); err != nil {
			panic(err)
		}
		sessions = append(sessions, s)
	}
	for now := time.Duration(0); now <= 20*time.Second; now += 4 * time.Millisecond {
		net.RunUntil(now)
		for i, s := range sessions {
			_ = s.AddLocalInput(core.PlayerHandle(i), Press{Down: uint8(s.Frame() / 40 % 2)})
			if err := s.Update(now); err != nil {
				panic(err)
			}
		}
	}
	for i, s := range sessions {
		fmt.Printf("%-8v frame %d, points %d, ended %v, desyncs %d\n", modes[i], s.Frame(), s.State().Points, s.Ended(), s.Stats().Desyncs)
	}
	// Output:
	// rollback frame 240, points 355, ended true, desyncs 0
	// lockstep frame 240, points 355, ended true, desyncs 0
	// auto     frame 240, points 355, ended true, desyncs 0
}
