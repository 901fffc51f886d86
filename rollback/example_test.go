package rollback_test

import (
	"errors"
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

// score is the whole game state: each player's total.
type score struct {
	Total [2]int32
}

// adder adds every player's input to its total.
type adder struct{}

func (adder) Step(s *score, in []core.Input[int16], fx core.Effects) {
	for p, i := range in {
		s.Total[p] += int32(i.Value)
	}
}

// Two sessions play over a simulated network with 50 ms of one-way
// latency. Each game loop sets its player's input and calls Update on
// every rendered frame (120 per second here); the sessions predict the
// other player's input, roll back when a prediction was wrong, and agree
// on every confirmed frame.
func Example() {
	net, _ := sim.New(sim.Config{Seed: 1, Link: sim.LinkConfig{Latency: sim.Latency{Base: 50 * time.Millisecond}}})
	var sessions [2]*rollstep.Session[score, int16]
	for i := range sessions {
		conn := net.NewEndpoint() // transport.Addr i
		cfg := rollstep.Config{
			Mode:  rollstep.Rollback,
			Local: []core.PlayerHandle{core.PlayerHandle(i)},
			Peers: []rollstep.Peer{{Addr: transport.Addr(1 - i), Players: []core.PlayerHandle{core.PlayerHandle(1 - i)}}},
		}
		cfg.Transport.Token = 42
		cfg.Transport.Rand = rand.NewChaCha8([32]byte{byte(i)}) // handshake nonces; nil means crypto/rand
		s, err := rollstep.NewSession[score, int16](cfg, adder{}, score{}, conn)
		if err != nil {
			panic(err)
		}
		sessions[i] = s
	}
	for now := time.Duration(0); now <= 3*time.Second; now += time.Second / 120 {
		net.RunUntil(now)
		for i, s := range sessions {
			_ = s.AddLocalInput(core.PlayerHandle(i), int16(1+i)) // player 0 adds 1, player 1 adds 2
			if err := s.Update(now); err != nil {
				panic(err)
			}
			for _, ev := range s.Events() {
				if _, ok := ev.(core.StartedEvent); ok {
					fmt.Printf("session %d started\n", i)
				}
			}
		}
	}
	for i, s := range sessions {
		f, _ := s.ConfirmedFrame()
		st := s.Stats()
		fmt.Printf("session %d: over 150 frames confirmed: %v, desyncs: %d, rolled back: %v\n", i, f > 150, st.Desyncs, st.Rollbacks > 0)
	}
	// Output:
	// session 0 started
	// session 1 started
	// session 0: over 150 frames confirmed: true, desyncs: 0, rolled back: true
	// session 1: over 150 frames confirmed: true, desyncs: 0, rolled back: true
}

// flaky keeps a counter outside the state: a classic determinism bug.
type flaky struct{ calls *int32 }

func (g flaky) Step(s *score, in []core.Input[int16], fx core.Effects) {
	*g.calls++
	s.Total[0] += int32(in[0].Value)
	if s.Total[0] > 100 {
		s.Total[1] = *g.calls // differs when the frame is re-simulated
	}
}

// A sync test re-simulates every frame and names the first frame and
// field whose re-simulation differs. AdvanceFrame takes one input per
// player, in handle order.
func ExampleNewSyncTest() {
	var calls int32
	st, err := rollback.NewSyncTest[score, int16](rollback.SyncTestConfig{CheckDistance: 2}, flaky{&calls}, score{})
	if err != nil {
		panic(err)
	}
	for range 60 {
		if _, err = st.AdvanceFrame([]int16{10, 10}); err != nil {
			break
		}
	}
	var se *rollback.SyncTestError
	if errors.As(err, &se) {
		fmt.Println("frame", se.Frame, "fields", se.Paths)
	}
	// Output:
	// frame 10 fields [Total[1]]
}

// A host records a replay of its match from the session's input log:
// after every Update it moves the newly confirmed frames into a
// replay Recorder (rec.AddLog(s) does the same in one call). The
// replay holds exactly the inputs each frame's final simulation used, so
// it reproduces the match.
func Example_readLog() {
	net, _ := sim.New(sim.Config{Seed: 2, Link: sim.LinkConfig{Latency: sim.Latency{Base: 30 * time.Millisecond}}})
	var sessions [2]*rollstep.Session[score, int16]
	for i := range sessions {
		cfg := rollstep.Config{
			Mode:         rollstep.Rollback,
			Local:        []core.PlayerHandle{core.PlayerHandle(i)},
			Peers:        []rollstep.Peer{{Addr: transport.Addr(1 - i), Players: []core.PlayerHandle{core.PlayerHandle(1 - i)}}},
			LogRetention: 60, // more frames than are confirmed between two Updates
		}
		cfg.Transport.Token, cfg.Transport.Rand = 42, rand.NewChaCha8([32]byte{byte(i)})
		sessions[i], _ = rollstep.NewSession[score, int16](cfg, adder{}, score{}, net.NewEndpoint())
	}
	build := core.GameVersion("adder 1.0")
	// The session's Players and TickRate.
	rec, _ := replay.NewRecorder(replay.Config{Game: build, Players: 2, TickRate: 60}, core.Game[score, int16](adder{}), &score{})
	var in []core.Input[int16]
	for now := time.Duration(0); now <= 2*time.Second; now += time.Second / 120 {
		net.RunUntil(now)
		for i, s := range sessions {
			_ = s.AddLocalInput(core.PlayerHandle(i), int16(now/(100*time.Millisecond))%3) // player input
			_ = s.Update(now)
		}
		s := sessions[0]
		_, end := s.LogRange()
		for f := rec.Frames(); f < end; f++ {
			in, _ = s.ReadLog(f, in[:0])
			_ = rec.Add(in)
		}
	}
	f, _ := sessions[0].ConfirmedFrame()
	fmt.Println("recorded every confirmed frame:", rec.Frames() == f+1, rec.Frames() > 100)
	fmt.Println("verify:", replay.VerifyData(rec.Bytes(), build, core.Game[score, int16](adder{})))
	// Output:
	// recorded every confirmed frame: true true
	// verify: <nil>
}
