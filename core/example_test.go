package core_test

import (
	"fmt"

	"github.com/rollstep/rollstep/core"
)

// tally is a tiny game state: each player's presses are added up.
type tally struct {
	Presses [2]int32
}

// step is the game's Step: a confirmed or predicted press scores a point
// and a sound; a disconnected player scores nothing.
func step(s *tally, in []core.Input[bool], fx core.Effects) {
	for p, i := range in {
		if i.Status != core.InputDisconnected && i.Value {
			s.Presses[p]++
			fx.Emit(core.Effect{Kind: 1, Args: [3]int64{int64(p)}})
		}
	}
}

// sounds is an Effects that prints what a Step emits, as a game's unit
// test might record it.
type sounds struct{}

func (sounds) Emit(e core.Effect) bool {
	fmt.Printf("sound %d for player %d\n", e.Kind, e.Args[0])
	return true
}

// A game is a function of the state, one input per player and the
// effects it emits; a unit test can step it directly.
func Example() {
	game := core.GameFunc[tally, bool](step)
	var s tally
	game.Step(&s, []core.Input[bool]{
		{Value: true, Status: core.InputConfirmed},
		{Value: true, Status: core.InputDisconnected},
	}, sounds{})
	game.Step(&s, []core.Input[bool]{
		{Value: true, Status: core.InputPredicted},
		{Value: false, Status: core.InputConfirmed},
	}, sounds{})
	fmt.Println(s.Presses)
	// Output:
	// sound 1 for player 0
	// sound 1 for player 0
	// [2 0]
}
