package fighter_test

import (
	"testing"

	"github.com/rollstep/rollstep/bench"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/internal/engine"
)

// BenchmarkFitsWindow is the fighter's CI gate on its step cost: the worst
// rollback frame (load, W+1 steps, saves, checksum, message) at W = 8 and
// 60 Hz must fit half a frame, the other half kept for rendering.
func BenchmarkFitsWindow(b *testing.B) {
	s := fighter.New(1)
	bench.FitsWindow(b, fighter.Game{}, &s, fighter.BotInputs(1), bench.WindowOptions{Reserve: 0.5})
}

// TestFitsWindow gives FitsWindow's verdict in the ordinary test run.
func TestFitsWindow(t *testing.T) {
	s := fighter.New(1)
	fit, err := bench.MeasureWindow(fighter.Game{}, &s, fighter.BotInputs(1), bench.WindowOptions{Reserve: 0.5}, 300)
	if err != nil {
		t.Fatal(err)
	}
	if !fit.Fits() {
		t.Fatalf("the fighter's step does not fit: %v", fit)
	}
	t.Log(fit)
}

// BenchmarkStep measures one Step of a bot match in progress.
func BenchmarkStep(b *testing.B) {
	s := fighter.New(1)
	inputs := fighter.BotInputs(1)
	in := make([]core.Input[fighter.Input], 2)
	fx := engine.NewEffectList(0)
	b.ReportAllocs()
	f := core.Frame(0)
	for b.Loop() {
		for p := range in {
			in[p] = core.Input[fighter.Input]{Value: inputs(core.PlayerHandle(p), f), Status: core.InputConfirmed}
		}
		fighter.Game{}.Step(&s, in, fx)
		f++
	}
}
