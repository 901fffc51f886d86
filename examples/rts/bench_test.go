package rts

import (
	"fmt"
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
)

// warm returns a 4-player state of n units after 300 ticks of bot play:
// groups on the march, some already fighting.
func warm(tb testing.TB, n int) *State {
	tb.Helper()
	s, _ := play(tb, 4, n, 300, 77)
	return s
}

// BenchmarkStep measures one tick (one turn: TicksPerTurn is 1) of a match
// in progress, at 1,000 and 10,000 units, with bots' commands. Every 100
// ticks the state goes back, off the clock, to the warm start, so that
// the measurement is of the same 100 ticks however long the run.
func BenchmarkStep(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("units=%d", n), func(b *testing.B) {
			start := warm(b, n)
			s := new(State)
			*s = *start
			bots := []*Bot{NewBot(0, 4, 1), NewBot(1, 4, 1), NewBot(2, 4, 1), NewBot(3, 4, 1)}
			in := make([]core.Input[Command], 4)
			fx := engine.NewEffectList(0)
			b.ReportAllocs()
			k := 0
			for b.Loop() {
				if k++; k%100 == 0 {
					b.StopTimer()
					*s = *start
					b.StartTimer()
				}
				for p, bot := range bots {
					in[p] = core.Input[Command]{Value: bot.Next(s), Status: core.InputConfirmed}
				}
				Game{}.Step(s, in, fx)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/turn")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/unit")
		})
	}
}

// TestStepAllocatesNothing: the step and the bots run without allocating.
func TestStepAllocatesNothing(t *testing.T) {
	s := warm(t, 2000)
	bots := []*Bot{NewBot(0, 1, 1), NewBot(1, 1, 1), NewBot(2, 1, 1), NewBot(3, 1, 1)}
	in := make([]core.Input[Command], 4)
	fx := engine.NewEffectList(0)
	allocs := testing.AllocsPerRun(50, func() {
		for p, bot := range bots {
			in[p] = core.Input[Command]{Value: bot.Next(s), Status: core.InputConfirmed}
		}
		Game{}.Step(s, in, fx)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per tick, want 0", allocs)
	}
}
