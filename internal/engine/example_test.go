package engine_test

import (
	"fmt"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
)

// counter is a tiny game state: each player's input is added to its total.
type counter struct {
	Total [2]int32
}

type counterGame struct{}

func (counterGame) Step(s *counter, in []core.Input[int32], fx core.Effects) {
	for p, i := range in {
		s.Total[p] += i.Value
		if i.Value > 0 {
			fx.Emit(core.Effect{Kind: uint32(p + 1)})
		}
	}
}

// Two engines, one player each, exchange messages directly (a transport
// would encode them). Engine a predicts player 1's input for frame 0 as
// zero, then b's message corrects it: a rolls back, re-simulates frame 0,
// simulates frame 1, and reports only effects it has not delivered before
// (player 0's effect of frame 0 was already delivered).
func Example() {
	cfg := func(local, remote core.PlayerHandle) engine.Config {
		c := engine.DefaultConfig()
		c.Local = []core.PlayerHandle{local}
		c.Peers = [][]core.PlayerHandle{{remote}}
		c.InputDelay = 0
		return c
	}
	a, _ := engine.NewEngine[counter, int32](cfg(0, 1), counterGame{}, &counter{})
	b, _ := engine.NewEngine[counter, int32](cfg(1, 0), counterGame{}, &counter{})

	now := time.Duration(0)
	_ = a.AddLocalInput(0, 1)
	ra := a.Advance(now) // frame 0 with player 1 predicted
	fmt.Println("a stepped", ra.Stepped, "totals", a.State().Total)

	_ = b.AddLocalInput(1, 5)
	rb := b.Advance(now)
	_ = a.Receive(now, 0, rb.Messages[0].Message)

	_ = a.AddLocalInput(0, 1)
	ra = a.Advance(now + 16*time.Millisecond)
	fmt.Println("a rolled back from frame", ra.LoadedFrame, "re-simulated", ra.Resimulated)
	fmt.Println("totals", a.State().Total)
	for _, fe := range ra.Effects {
		fmt.Println("play effect", fe.Effect.Kind, "of frame", fe.Frame)
	}
	// Output:
	// a stepped true totals [1 0]
	// a rolled back from frame 0 re-simulated 1
	// totals [2 10]
	// play effect 2 of frame 0
	// play effect 1 of frame 1
	// play effect 2 of frame 1
}

// Player 0 pauses the match at frame 2 and resumes it at frame 4: each
// command rides player 0's input of that frame, so every engine skips the
// game's Step on the same frames (the totals stop while the frames go on)
// and reports the same PauseEvents once the frames are confirmed. Engine
// b first predicts frame 2 without the command (totals 3), then rolls it
// back when the command arrives.
func ExampleEngine_Pause() {
	cfg := func(local, remote core.PlayerHandle) engine.Config {
		c := engine.DefaultConfig()
		c.Local = []core.PlayerHandle{local}
		c.Peers = [][]core.PlayerHandle{{remote}}
		c.InputDelay, c.Prediction, c.MaxPrediction = 0, 1, 1
		return c
	}
	a, _ := engine.NewEngine[counter, int32](cfg(0, 1), counterGame{}, &counter{})
	b, _ := engine.NewEngine[counter, int32](cfg(1, 0), counterGame{}, &counter{})
	for f := core.Frame(0); f < 6; f++ {
		switch f {
		case 2:
			_ = a.Pause(0)
		case 4:
			_ = a.Resume(0)
		}
		now := time.Duration(f) * 16 * time.Millisecond
		_ = a.AddLocalInput(0, 1)
		_ = b.AddLocalInput(1, 1)
		ra, rb := a.Advance(now), b.Advance(now)
		_ = b.Receive(now, 0, ra.Messages[0].Message)
		_ = a.Receive(now, 0, rb.Messages[0].Message)
		fmt.Println("frame", f, "totals", b.State().Total, "paused", b.Control().Paused)
		for _, ev := range rb.Events {
			fmt.Printf("  b: %T%+v\n", ev, ev)
		}
	}
	// Output:
	// frame 0 totals [0 1] paused false
	// frame 1 totals [2 2] paused false
	// frame 2 totals [3 3] paused false
	// frame 3 totals [2 2] paused true
	//   b: core.PauseEvent{Frame:2 Player:0 Paused:true}
	// frame 4 totals [2 2] paused true
	// frame 5 totals [4 4] paused false
	//   b: core.PauseEvent{Frame:4 Player:0 Paused:false}
}
