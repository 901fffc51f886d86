package lockstep_test

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/rollstep/rollstep"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/replay"
	"github.com/rollstep/rollstep/rollback"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

// Counter is a tiny game state: the sum of every order given.
type Counter struct {
	Turn int32
	Sum  int32
}

// Order is a command; the zero Order is "no command".
type Order struct{ Add int32 }

func step(s *Counter, in []core.Input[Order], _ core.Effects) {
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
	var sessions []*rollstep.Session[Counter, Order]
	for i := range 2 {
		cfg := rollstep.Config{
			Mode:       rollstep.Lockstep,
			Players:    2,
			Local:      []core.PlayerHandle{core.PlayerHandle(i)},
			Peers:      []rollstep.Peer{{Addr: conns[1-i].ID(), Players: []core.PlayerHandle{core.PlayerHandle(1 - i)}}},
			TurnPeriod: 100 * time.Millisecond,
		}
		cfg.Transport.Rand = rand.NewChaCha8([32]byte{byte(i)}) // reproducible handshake nonces
		s, err := rollstep.NewSession(cfg, core.GameFunc[Counter, Order](step), Counter{}, conns[i])
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
		fmt.Printf("peer %d: D=%d period=%v sum=%d desyncs=%d\n", i, st.Delay, st.Period, s.State().Sum, st.Desyncs)
	}
	// Output:
	// peer 0: D=2 period=100ms sum=3 desyncs=0
	// peer 1: D=2 period=100ms sum=3 desyncs=0
}

// A match paused for a second, whose game steps twice a turn, recorded
// into a replay one Step at a time: ReadSteps gives no Step for a paused
// turn and two for the others, so the replay ends where the match did.
func Example_readSteps() {
	net, _ := sim.New(sim.Config{Seed: 2, Link: sim.LinkConfig{Latency: sim.Latency{Base: 30 * time.Millisecond}}})
	conns := []*sim.Endpoint{net.NewEndpoint(), net.NewEndpoint()}
	game, build := core.GameFunc[Counter, Order](step), core.GameVersion("counter")
	var sessions []*rollstep.Session[Counter, Order]
	for i := range 2 {
		cfg := rollstep.Config{Mode: rollstep.Lockstep, Players: 2, Local: []core.PlayerHandle{core.PlayerHandle(i)},
			Peers:      []rollstep.Peer{{Addr: conns[1-i].ID(), Players: []core.PlayerHandle{core.PlayerHandle(1 - i)}}},
			TurnPeriod: 50 * time.Millisecond, TicksPerTurn: 2, LogRetention: 16}
		cfg.Transport.Rand = rand.NewChaCha8([32]byte{byte(i)})
		s, _ := rollstep.NewSession(cfg, game, Counter{}, conns[i])
		sessions = append(sessions, s)
	}
	rec, _ := replay.NewRecorder(replay.Config{Game: build, Players: 2, TickRate: 20}, core.Game[Counter, Order](game), &Counter{})
	var next core.Frame // the next turn to record
	var steps []core.Input[Order]
	for now := time.Duration(0); now <= 4*time.Second; now += 10 * time.Millisecond {
		net.RunUntil(now)
		for i, s := range sessions {
			if now == time.Second && i == 0 {
				_ = s.Pause(0)
			}
			if now == 2*time.Second && i == 1 {
				_ = s.Resume(1)
			}
			if now%(200*time.Millisecond) == 0 {
				_ = s.AddLocalInput(core.PlayerHandle(i), Order{Add: 1})
			}
			_ = s.Update(now)
		}
		// After every Update: one replay frame per Step of the game.
		for _, end := sessions[0].LogRange(); next < end; next++ {
			steps, _ = sessions[0].ReadSteps(next, steps[:0])
			for k := 0; k < len(steps); k += 2 { // 2 players
				_ = rec.Add(steps[k : k+2])
			}
		}
	}
	s := sessions[0]
	st := s.Stats()
	fmt.Printf("turns %d, played %d, replay frames %d\n", st.Frame, st.Played, rec.Frames())
	fmt.Printf("session %+v, replay %+v\n", *s.State(), *rec.State())
	fmt.Println("verify:", replay.VerifyData(rec.Bytes(), build, core.Game[Counter, Order](game)))
	// Output:
	// turns 78, played 57, replay frames 114
	// session {Turn:114 Sum:38}, replay {Turn:114 Sum:38}
	// verify: <nil>
}

// A spectator watches a lockstep match 10 turns behind its host, which
// never waits for it; it replays the match's pause too.
func Example_spectators() {
	net, err := sim.New(sim.Config{Seed: 3, Link: sim.LinkConfig{Latency: sim.Latency{Base: 40 * time.Millisecond}}})
	if err != nil {
		panic(err)
	}
	conns := []*sim.Endpoint{net.NewEndpoint(), net.NewEndpoint()}
	watcher := net.NewEndpoint()
	var sessions []*rollstep.Session[Counter, Order]
	for i := range 2 {
		cfg := rollstep.Config{
			Mode:       rollstep.Lockstep,
			Local:      []core.PlayerHandle{core.PlayerHandle(i)},
			Peers:      []rollstep.Peer{{Addr: conns[1-i].ID(), Players: []core.PlayerHandle{core.PlayerHandle(1 - i)}}},
			TurnPeriod: 100 * time.Millisecond,
		}
		if i == 0 { // the host of the stream
			cfg.Spectators = []transport.Addr{watcher.ID()}
			cfg.SpectatorDelay = 10
		}
		cfg.Transport.Rand = rand.NewChaCha8([32]byte{byte(i)})
		s, err := rollstep.NewSession(cfg, core.GameFunc[Counter, Order](step), Counter{}, conns[i])
		if err != nil {
			panic(err)
		}
		sessions = append(sessions, s)
	}
	// The spectator plays any mode's stream: its tick rate is the turn rate.
	sp, err := rollback.NewSpectator(rollback.SpectatorConfig{Host: conns[0].ID(), Players: 2, TickRate: 10,
		Transport: transport.Config{Rand: rand.NewChaCha8([32]byte{9})}}, core.GameFunc[Counter, Order](step), Counter{}, watcher)
	if err != nil {
		panic(err)
	}
	for now := time.Duration(0); now <= 20*time.Second; now += 10 * time.Millisecond {
		net.RunUntil(now)
		for i, s := range sessions {
			switch now {
			case 3 * time.Second:
				_ = s.AddLocalInput(core.PlayerHandle(i), Order{Add: 1})
			case 5 * time.Second:
				if i == 1 {
					_ = s.Pause(1)
				}
			case 8 * time.Second:
				if i == 0 {
					_ = s.Resume(0)
				}
			}
			if err := s.Update(now); err != nil {
				panic(err)
			}
		}
		if err := sp.Update(now); err != nil {
			panic(err)
		}
		for _, ev := range sp.Events() {
			if e, ok := ev.(core.PauseEvent); ok {
				fmt.Printf("spectator: turn %d paused %v by player %d\n", e.Frame, e.Paused, e.Player)
			}
		}
	}
	host := sessions[0]
	fmt.Printf("host at turn %d, spectator at turn %d; sums %d and %d\n", host.Frame(), sp.Frame(), host.State().Sum, sp.State().Sum)
	// Output:
	// spectator: turn 50 paused true by player 1
	// spectator: turn 79 paused false by player 0
	// host at turn 198, spectator at turn 188; sums 2 and 2
}
