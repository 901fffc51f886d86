package rts_test

import (
	"fmt"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/rts"
	"github.com/rollstep/rollstep/fixed"
)

// Two players with one unit each, 36 world units apart. Player 0 clicks
// its unit onto the enemy: it closes in at rts.Speed per tick until it is
// within rts.AttackRange (after 40 ticks), then hits every rts.Cooldown
// ticks; the enemy, which has no orders, picks it as its foe and hits
// back. The attacker struck first, so it lands the 13th hit first.
func Example() {
	s, err := rts.New(2, 2, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	s.Units[0].Pos, s.Units[1].Pos = rts.Base(0, 2), rts.Base(0, 2)
	s.Units[1].Pos.X += fixed.FromInt(36)
	s.Units[0].Goal, s.Units[1].Goal = s.Units[0].Pos, s.Units[1].Pos

	attack := rts.Command{Kind: rts.KindAttack, X: int16(s.Units[1].Pos.X.Int()), Y: int16(s.Units[1].Pos.Y.Int())}
	in := []core.Input[rts.Command]{{Value: attack, Status: core.InputConfirmed}, {Status: core.InputConfirmed}}
	var fx silent
	for s.Deaths == 0 {
		rts.Game{}.Step(&s, in, fx)
		in[0].Value = rts.Command{} // one click
		if s.Tick%40 == 0 {
			fmt.Printf("tick %d: %v apart, HP %d vs %d\n", s.Tick, s.Units[1].Pos.Sub(s.Units[0].Pos).Length(), s.Units[0].HP, s.Units[1].HP)
		}
	}
	fmt.Printf("tick %d: unit 1 dead: %v, unit 0 has %d HP\n", s.Tick, !s.Units[1].Alive(), s.Units[0].HP)
	// Output:
	// tick 40: 6 apart, HP 100 vs 100
	// tick 80: 6 apart, HP 60 vs 60
	// tick 120: 6 apart, HP 20 vs 20
	// tick 137: unit 1 dead: true, unit 0 has 4 HP
}

// silent is an Effects that plays nothing: the example only shows the
// state.
type silent struct{}

func (silent) Emit(core.Effect) bool { return true }
