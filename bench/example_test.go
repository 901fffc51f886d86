package bench_test

import (
	"fmt"

	"github.com/rollstep/rollstep/bench"
	"github.com/rollstep/rollstep/core"
)

// counter is a tiny game: its state counts the frames and sums the inputs.
type counter struct {
	Frame int32
	Sum   int32
}

func step(s *counter, inputs []core.Input[int32], _ core.Effects) {
	s.Frame++
	for _, in := range inputs {
		s.Sum += in.Value
	}
}

// A game's CI runs bench.FitsWindow from a Benchmark function; outside a
// benchmark, MeasureWindow gives the same verdict as a value. Here a tiny
// game fits the default window of 8 frames at 60 Hz with half of each frame
// kept for rendering.
func ExampleMeasureWindow() {
	var s counter
	inputs := func(p core.PlayerHandle, f core.Frame) int32 { return int32(f)%7 + int32(p) }
	fit, err := bench.MeasureWindow(core.GameFunc[counter, int32](step), &s, inputs,
		bench.WindowOptions{Reserve: 0.5}, 100)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("window:", fit.Window)
	fmt.Println("budget:", fit.Budget)
	fmt.Println("fits:", fit.Fits())
	// Output:
	// window: 8
	// budget: 8.333333ms
	// fits: true
}
