package rts

import (
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
)

// play runs ticks ticks of a match of bots with every input confirmed (no
// network) and returns the final state and the deaths reported as effects.
func play(t testing.TB, players, count, ticks int, seed uint64) (*State, int) {
	t.Helper()
	s, err := New(players, count, seed)
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]*Bot, players)
	for p := range bots {
		bots[p] = NewBot(p, 4, seed)
	}
	in := make([]core.Input[Command], players)
	fx := engine.NewEffectList(0) // zero capacity: effects are counted, then dropped
	died := 0
	for range ticks {
		for p, b := range bots {
			in[p] = core.Input[Command]{Value: b.Next(&s), Status: core.InputConfirmed}
		}
		before := s.Deaths
		Game{}.Step(&s, in, fx)
		died += int(s.Deaths - before)
	}
	return &s, died
}
