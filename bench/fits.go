package bench

import (
	"testing"

	"github.com/rollstep/rollstep/core"
)

// FitsWindow measures, inside a benchmark, the worst rollback frame of
// game and fails the benchmark when it does not fit the frame budget.
// A game calls it from its own Benchmark function:
//
//	func BenchmarkFitsWindow(b *testing.B) {
//		s := fighter.New(seed)
//		bench.FitsWindow(b, fighter.Game{}, &s, fighter.BotInputs(seed),
//			bench.WindowOptions{Reserve: 0.5})
//	}
//
// Each op is one frame of a real core.Engine forced into a full W-deep
// rollback: a second engine plays the remote players, its inputs reach
// the measured engine exactly W frames late, and the measured engine's
// predictor always guesses differently from what then arrives. So every
// frame loads the state before frame f−W, re-simulates W frames and
// steps frame f (W+1 Steps, W saves, one load), checksums the newly
// confirmed frame and builds its message: the worst a rollback session's
// engine does in one frame. The transport's encoding is not included
// (about a microsecond; see BenchmarkCodec).
//
// It reports, with b.ReportMetric:
//
//   - worst-frame-ns: the Percentile-th percentile (default 99th) of the
//     frame times. Not the maximum: on a shared machine the maximum is a
//     scheduler preemption or a GC pause, not the game; the 99th
//     percentile is still one frame in a hundred, a visible hitch every
//     two seconds at 60 Hz, so a game at its limit cannot hide.
//   - max-frame-ns: the slowest frame, for information.
//   - budget-ns: the frame (1/TickRate) minus Reserve and ReserveTime.
//   - headroom: budget ÷ worst frame; above 1 the window fits.
//   - max-W: the largest window that fits (see Fit.MaxWindow).
//
// It fails the benchmark with b.Fatalf, naming the numbers, when the
// worst frame exceeds the budget, when opts is invalid
// (ErrInvalidOptions), and when the inputs cannot force rollbacks
// (ErrNoRollback). Engines are built with the game's initial state; the
// state then evolves under the generated inputs for as many frames as the
// benchmark runs, so inputs should keep a match going (a round that ends
// measures the end screen).
func FitsWindow[S any, I comparable](b *testing.B, game core.Game[S, I], initial *S, inputs InputFunc[I], opts WindowOptions) {
	b.Helper()
	w, err := newWindow(game, initial, inputs, opts)
	if err != nil {
		b.Fatalf("bench.FitsWindow: %v", err)
	}
	b.ReportAllocs()
	for b.Loop() {
		w.record()
	}
	f, err := w.verdict()
	if err != nil {
		b.Fatalf("bench.FitsWindow: %v", err)
	}
	report(b, f)
	if !f.Fits() {
		b.Fatalf("bench.FitsWindow: the step does not fit: worst rollback frame %v (p%g of %d frames) > budget %v "+
			"(1/%d s minus %g reserve and %v) at W=%d; headroom %.2fx; the largest W that fits is %d",
			f.Worst, f.Percentile, f.Frames, f.Budget, w.o.TickRate, w.o.Reserve, w.o.ReserveTime, f.Window, f.Headroom, f.MaxWindow)
	}
}

// report publishes f's numbers as benchmark metrics.
func report(b *testing.B, f Fit) {
	b.ReportMetric(float64(f.Worst.Nanoseconds()), "worst-frame-ns")
	b.ReportMetric(float64(f.Max.Nanoseconds()), "max-frame-ns")
	b.ReportMetric(float64(f.Budget.Nanoseconds()), "budget-ns")
	b.ReportMetric(f.Headroom, "headroom")
	b.ReportMetric(float64(f.MaxWindow), "max-W")
}
