package fighter_test

import (
	"fmt"

	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/fixed"
	"github.com/rollstep/rollstep/rollback"
)

// Player 0 walks up to player 1, who stands still, and attacks high until
// the round ends. A rollback.SyncTest steps the game here: with every player
// local it simulates each frame, re-simulates the last two and compares,
// and it delivers the effects Step emits.
func Example() {
	s := fighter.New(2026)
	st, err := rollback.NewSyncTest[fighter.State, fighter.Input](rollback.SyncTestConfig{}, fighter.Game{}, s)
	if err != nil {
		fmt.Println(err)
		return
	}
	hits := 0
	for st.State().Last == fighter.ResultNone {
		me, them := &st.State().Fighters[0], &st.State().Fighters[1]
		b := fighter.Right
		if them.Pos.X-me.Pos.X < fixed.FromInt(30) {
			b = fighter.Attack
		}
		fx, err := st.AdvanceFrame([]fighter.Input{{Buttons: b}, {}}) // player 1 stands still
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, e := range fx {
			switch e.Effect.Kind {
			case fighter.EffectHit:
				if hits++; hits == 1 {
					fmt.Printf("frame %d: first hit for %d, %d left\n", e.Frame, e.Effect.Args[1], e.Effect.Args[2])
				}
			case fighter.EffectKO:
				fmt.Printf("frame %d: KO, round %d\n", e.Frame, e.Effect.Args[1])
			}
		}
	}
	fmt.Println("hits:", hits)
	fmt.Println("wins:", st.State().Fighters[0].Wins, "to", st.State().Fighters[1].Wins)
	// Output:
	// frame 42: first hit for 10, 90 left
	// frame 260: KO, round 1
	// hits: 10
	// wins: 1 to 0
}
