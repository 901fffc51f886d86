package rollstep_test

import (
	"fmt"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/sim"
)

// Duel is the whole state of a fighting game: two fighters on a line.
type Duel struct{ X, HP [2]int32 }

// Pad is what one player holds during a frame.
type Pad struct {
	Move  int8 // -1 left, 0, 1 right
	Punch bool
}

// step runs one frame: fighters walk, and a punch within reach hurts.
func step(d *Duel, in []core.Input[Pad], _ core.Effects) {
	for p, pad := range in {
		d.X[p] += int32(pad.Value.Move)
		if o := 1 - p; pad.Value.Punch && max(d.X[p]-d.X[o], d.X[o]-d.X[p]) <= 2 {
			d.HP[o]--
		}
	}
}

// Two players fight over a simulated 40 ms link: in rollback, then lockstep.
func Example_duel() {
	for _, mode := range []rollstep.Mode{rollstep.Rollback, rollstep.Lockstep} {
		net, _ := sim.New(sim.Config{Seed: 1, Link: sim.LinkConfig{Latency: sim.Latency{Base: 40 * time.Millisecond}}})
		conns, peers := []*sim.Endpoint{net.NewEndpoint(), net.NewEndpoint()}, []*rollstep.Session[Duel, Pad]{}
		for i, conn := range conns {
			cfg := rollstep.Config{Mode: mode, TickRate: 60, Inputs: rollstep.Held, Local: []core.PlayerHandle{core.PlayerHandle(i)},
				Peers: []rollstep.Peer{{Addr: conns[1-i].ID(), Players: []core.PlayerHandle{core.PlayerHandle(1 - i)}}}, Game: core.GameVersion("duel 1")}
			s, err := rollstep.NewSession(cfg, core.GameFunc[Duel, Pad](step), Duel{X: [2]int32{0, 9}, HP: [2]int32{50, 50}}, conn)
			if err != nil {
				panic(err)
			}
			peers = append(peers, s)
			_ = s.EndAt(600) // an agreed end: ten seconds at 60 frames per second
		}
		for now := time.Duration(0); !peers[0].Ended() || !peers[1].Ended(); now += time.Second / 60 {
			net.RunUntil(now)
			for i, s := range peers {
				_ = s.AddLocalInput(core.PlayerHandle(i), []Pad{{Move: 1, Punch: true}, {Punch: true}}[i]) // read the pad here
				if err := s.Update(now); err != nil {
					panic(err)
				}
			}
		}
		fmt.Printf("%v, frame %d: HP %v on peer 0, %v on peer 1\n", mode, peers[0].Frame(), peers[0].State().HP, peers[1].State().HP)
	}
	// Output:
	// rollback, frame 600: HP [45 45] on peer 0, [45 45] on peer 1
	// lockstep, frame 600: HP [45 45] on peer 0, [45 45] on peer 1
}
