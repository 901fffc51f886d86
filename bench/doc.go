// Package bench measures rollstep's costs and lets a game check that its
// step fits a rollback window, from `go test -bench`.
//
// # Will my step fit?
//
// A rollback session (package rollback) re-simulates up to W frames in one
// frame when a late input contradicts its prediction: it loads a saved
// state, steps W+1 frames, saves W states, checksums and sends. That worst
// frame, not the average one, must fit in the frame's budget, with time
// left for rendering. FitsWindow measures it inside a game's own benchmark
// and fails the benchmark when it does not fit, so a team can gate its step
// cost in CI:
//
//  1. Write an InputFunc that gives every player an input for every frame,
//     varying the way real play does (a pure function of player and frame).
//  2. Build a representative state: mid-match, with everything on screen
//     that a heavy moment of the game would have.
//  3. In a Benchmark function call FitsWindow with the game, the state, the
//     inputs and WindowOptions: the window W (default 8), the frame rate
//     (default 60 Hz) and the reserve kept for rendering.
//  4. Run `go test -run='^$' -bench=FitsWindow` in CI. The benchmark reports
//     worst-frame-ns, budget-ns, headroom and max-W, and fails with the
//     numbers when the worst frame exceeds the budget.
//
// MeasureWindow gives the same verdict as a Fit value outside a benchmark,
// for tests and tools (a settings screen may pick W from it at start-up).
//
// The worst frame is forced, not hoped for: a second engine plays the
// remote players, its inputs arrive exactly W frames late, and the measured
// engine's predictor always guesses wrong, so every measured frame is a
// full W-deep rollback through the real core.Engine. The worst frame is the
// 99th percentile of the frame times by default (WindowOptions.Percentile):
// the maximum measures the machine (preemption, GC), while one frame in a
// hundred over budget is already a visible hitch.
//
// # Our benchmarks
//
// The package's own benchmarks (in its _test.go files) state rollstep's
// costs as ratios to a baseline measured in the same run, which stay put
// on a noisy shared machine when absolute times do not:
//
//   - BenchmarkOverhead: the engine's frame at rollback depth 0, 1, 4 and
//     8 beside a bare loop doing the same Steps and state copies (x-bare).
//   - BenchmarkState: the state ring's Save and Load and state.Checksum at 1 KiB,
//     64 KiB and 1 MiB beside a plain copy (save/copy, load/copy,
//     checksum/copy).
//   - BenchmarkCodec: encoding and decoding a steady-state input packet
//     (B/packet, ns/op, allocs/op).
//   - BenchmarkFitsWindow: FitsWindow on a fighter-like state and on the
//     units demo.
//   - BenchmarkLockstepUpload: upload bytes per second of a lockstep match
//     of the units demo at 10, 1,000 and 10,000 units over transport/sim on
//     virtual time; it must not grow with the unit count.
//
// # The gate
//
// budgets.txt holds a ceiling or floor for each metric that matters, with
// the reasoning in its comments; `rollstep benchgate` reads `go test
// -bench -count=N` output, takes each metric's median over the runs and
// fails, naming the benchmark, metric, budget and value, on any breach or
// on a budget whose benchmark is missing:
//
//	go test -run='^$' -bench=. -benchtime=0.1s -count=5 ./bench/ |
//		go run ./cmd/rollstep benchgate -budgets bench/budgets.txt
package bench
