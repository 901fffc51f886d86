package core_test

import (
	"fmt"
	"time"

	"github.com/rollstep/rollstep/core"
)

// counter is a tiny game state: each player's input is added to its total.
type counter struct {
	Total [2]int32
}

type counterGame struct{}

func (counterGame) Step(s *counter, in []core.Input[int32], fx *core.Effects) {
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
	cfg := func(local, remote core.PlayerHandle) core.Config {
		c := core.DefaultConfig()
		c.Local = []core.PlayerHandle{local}
		c.Peers = [][]core.PlayerHandle{{remote}}
		c.InputDelay = 0
		return c
	}
	a, _ := core.NewEngine[counter, int32](cfg(0, 1), counterGame{}, &counter{})
	b, _ := core.NewEngine[counter, int32](cfg(1, 0), counterGame{}, &counter{})

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
