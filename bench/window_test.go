package bench

import (
	"errors"
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
)

// shortBenchtime makes testing.Benchmark run 100 iterations for the rest
// of the test instead of a second.
func shortBenchtime(t *testing.T) {
	f := flag.Lookup("test.benchtime")
	if f == nil {
		t.Skip("test.benchtime flag not registered")
	}
	old := f.Value.String()
	if err := f.Value.Set("100x"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Value.Set(old) })
}

func TestMeasureWindowCheapGameFits(t *testing.T) {
	var s duelState
	fit, err := MeasureWindow[duelState, uint8](duel{}, &s, duelInputs, WindowOptions{}, 200)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(fit)
	if !fit.Fits() || fit.Headroom <= 1 {
		t.Errorf("got %v, want a fit", fit)
	}
	if fit.Window != 8 || fit.Budget != time.Second/60 || fit.Frames != 200 {
		t.Errorf("got W=%d budget %v frames %d, want 8, 16.67ms, 200", fit.Window, fit.Budget, fit.Frames)
	}
	if fit.MaxWindow < fit.Window {
		t.Errorf("max W %d below the W that fits (%d)", fit.MaxWindow, fit.Window)
	}
}

// TestMeasureWindowPlayers checks the rig with several remote players
// and a window other than the default.
func TestMeasureWindowPlayers(t *testing.T) {
	var s mixState
	fit, err := MeasureWindow[mixState, uint32](mix{}, &s, mixInputs, WindowOptions{Players: 4, Window: 3, TickRate: 30}, 50)
	if err != nil {
		t.Fatal(err)
	}
	if !fit.Fits() || fit.Window != 3 || fit.Budget != time.Second/30 {
		t.Errorf("got %v, want W=3 fitting a budget of %v", fit, time.Second/30)
	}
}

func TestMeasureWindowSlowGameDoesNotFit(t *testing.T) {
	var s spinState
	// 1 ms frames with 99 % reserved leave 10 µs, less than one Step.
	opts := WindowOptions{Window: 4, TickRate: 1000, Reserve: 0.99}
	fit, err := MeasureWindow[spinState, uint8](spin{loops: 50000}, &s, duelInputs, opts, 20)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(fit)
	if fit.Fits() || fit.Headroom >= 1 || fit.MaxWindow != -1 {
		t.Errorf("got %v, want no fit and max W -1", fit)
	}
	if !strings.Contains(fit.String(), "does not fit") {
		t.Errorf("String() = %q, want it to say it does not fit", fit)
	}
}

func TestFitsWindowBenchmark(t *testing.T) {
	shortBenchtime(t)
	t.Run("fits", func(t *testing.T) {
		var s duelState
		r := testing.Benchmark(func(b *testing.B) {
			FitsWindow[duelState, uint8](b, duel{}, &s, duelInputs, WindowOptions{Reserve: 0.5})
		})
		if r.N == 0 {
			t.Fatal("the benchmark failed")
		}
		for _, m := range []string{"worst-frame-ns", "max-frame-ns", "budget-ns", "headroom", "max-W"} {
			if _, ok := r.Extra[m]; !ok {
				t.Errorf("metric %s missing from %v", m, r.Extra)
			}
		}
		if got, want := r.Extra["budget-ns"], float64(time.Second/120); got != want {
			t.Errorf("budget-ns = %v, want %v", got, want)
		}
		if r.Extra["headroom"] <= 1 {
			t.Errorf("headroom %v, want > 1", r.Extra["headroom"])
		}
	})
	t.Run("does-not-fit", func(t *testing.T) {
		var s spinState
		r := testing.Benchmark(func(b *testing.B) {
			FitsWindow[spinState, uint8](b, spin{loops: 50000}, &s, duelInputs,
				WindowOptions{Window: 2, TickRate: 1000, ReserveTime: 999 * time.Microsecond})
		})
		if r.N != 0 {
			t.Fatalf("the benchmark passed (N=%d, %v), want a failure", r.N, r.Extra)
		}
	})
}

func TestWindowOptionsErrors(t *testing.T) {
	var s duelState
	for _, tc := range []struct {
		name  string
		opts  WindowOptions
		field string
	}{
		{"window", WindowOptions{Window: 65}, "Window"},
		{"negative-window", WindowOptions{Window: -1}, "Window"},
		{"tick-rate", WindowOptions{TickRate: -60}, "TickRate"},
		{"players", WindowOptions{Players: 1}, "Players"},
		{"reserve", WindowOptions{Reserve: 1}, "Reserve"},
		{"reserve-time", WindowOptions{ReserveTime: -time.Millisecond}, "ReserveTime"},
		{"no-time-left", WindowOptions{Reserve: 0.5, ReserveTime: 9 * time.Millisecond}, "ReserveTime"},
		{"percentile", WindowOptions{Percentile: 101}, "Percentile"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := MeasureWindow[duelState, uint8](duel{}, &s, duelInputs, tc.opts, 1)
			if !errors.Is(err, ErrInvalidOptions) {
				t.Fatalf("got %v, want ErrInvalidOptions", err)
			}
			if want := "bench: invalid options: " + tc.field + ": "; !strings.HasPrefix(err.Error(), want) {
				t.Errorf("got %q, want it to start with %q", err, want)
			}
		})
	}
	t.Run("nil-inputs", func(t *testing.T) {
		_, err := MeasureWindow[duelState, uint8](duel{}, &s, nil, WindowOptions{}, 1)
		if !errors.Is(err, ErrInvalidOptions) || !strings.Contains(err.Error(), "must not be nil") {
			t.Fatalf("got %v, want ErrInvalidOptions for a nil argument", err)
		}
	})
}

func TestConstantInputsCannotRollBack(t *testing.T) {
	var s duelState
	constant := func(core.PlayerHandle, core.Frame) uint8 { return 0 }
	_, err := MeasureWindow[duelState, uint8](duel{}, &s, constant, WindowOptions{}, 10)
	if !errors.Is(err, ErrNoRollback) {
		t.Fatalf("got %v, want ErrNoRollback", err)
	}
}

// TestRollbackDepth checks the rig's claim: every frame at lag d is one
// load, d re-simulated frames and one new one, for every depth the
// benchmarks use.
func TestRollbackDepth(t *testing.T) {
	for _, d := range []int{0, 1, 4, 8} {
		var s duelState
		r, err := newRig[duelState, uint8](duel{}, &s, duelInputs, 2, 8, d, 60, 1, true)
		if err != nil {
			t.Fatal(err)
		}
		for range 30 {
			r.step()
		}
		st0 := r.a.Stats()
		const n = 50
		for range n {
			r.step()
		}
		st := r.a.Stats()
		rb, rs, loads := st.Rollbacks-st0.Rollbacks, st.ResimFrames-st0.ResimFrames, st.Loads-st0.Loads
		wantRB := uint64(n)
		if d == 0 {
			wantRB = 0
		}
		if rb != wantRB || rs != uint64(n*d) || loads != wantRB || st.Frames-st0.Frames != n {
			t.Errorf("lag %d: %d frames, %d rollbacks, %d re-simulated, %d loads; want %d, %d, %d, %d",
				d, st.Frames-st0.Frames, rb, rs, loads, n, wantRB, n*d, wantRB)
		}
		t.Logf("lag %d: saves/frame %.2f", d, float64(st.Saves-st0.Saves)/n)
	}
}

func TestHistQuantile(t *testing.T) {
	var h hist
	for i := 1; i <= 1000; i++ {
		h.add(time.Duration(i) * time.Microsecond)
	}
	for _, tc := range []struct {
		q    float64
		want time.Duration
	}{{0.5, 500 * time.Microsecond}, {0.99, 990 * time.Microsecond}, {1, 1000 * time.Microsecond}} {
		got := h.quantile(tc.q)
		if got < tc.want || float64(got) > float64(tc.want)*1.016 {
			t.Errorf("quantile(%v) = %v, want %v within +1.6 %%", tc.q, got, tc.want)
		}
	}
	for v := uint64(0); v < 1<<20; v += 7 {
		if i := histIndex(v); v > histUpper(i) || (i > 0 && v <= histUpper(i-1)) {
			t.Fatalf("value %d in bucket %d [%d, %d]", v, i, histUpper(i-1)+1, histUpper(i))
		}
	}
}
