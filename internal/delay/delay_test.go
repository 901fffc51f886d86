package delay

import (
	"fmt"
	"testing"
	"time"
)

const tick = 16 * time.Millisecond

// trace builds n windows of measurements from f(window).
func trace(n int, f func(i int) Measurement) []Measurement {
	out := make([]Measurement, n)
	for i := range out {
		m := f(i)
		m.FramePeriod, m.Frames = tick, 60
		out[i] = m
	}
	return out
}

func link(rtt, jitter time.Duration) Measurement { return Measurement{RTT: rtt, Jitter: jitter} }

func TestController(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name       string
		policy     Policy
		initial    int
		trace      []Measurement
		wantD      int
		wantW      int
		maxChanges int
		check      func(t *testing.T, ds []int)
	}{
		{
			name: "steady/lockstep", initial: 1, wantD: 4, maxChanges: 1,
			// need = ceil((50 + 2·5) / 16) = 4
			trace: trace(60, func(int) Measurement { return link(100*ms, 5*ms) }),
		},
		{
			name: "jitter/lockstep", initial: 0, wantD: 6, maxChanges: 2,
			// need flickers between 4 and 6: D settles at 6, never drops
			trace: trace(60, func(i int) Measurement {
				if i%2 == 0 {
					return link(90*ms, 8*ms)
				}
				return link(120*ms, 12*ms)
			}),
			check: neverLowers,
		},
		{
			name: "spikes/lockstep", initial: 2, wantD: 2,
			// every 70 windows one window at 300 ms with a stall
			trace: trace(140, func(i int) Measurement {
				if i%70 == 10 {
					m := link(300*ms, 20*ms)
					m.Stall = 200 * ms
					return m
				}
				return link(50*ms, 2*ms)
			}),
			check: func(t *testing.T, ds []int) {
				for i := 10; i < len(ds); i += 70 {
					if ds[i] < 13 {
						t.Fatalf("window %d (spike): D %d, want a fast raise to at least 13", i, ds[i])
					}
				}
			},
		},
		{
			name: "step-up/lockstep", initial: 2, wantD: 8,
			trace: trace(30, func(i int) Measurement {
				if i < 10 {
					return link(40*ms, 2*ms)
				}
				return link(240*ms, 2*ms) // need = ceil(124/16) = 8
			}),
			check: func(t *testing.T, ds []int) {
				if ds[10] != 8 {
					t.Fatalf("D %d in the first slow window, want 8 at once", ds[10])
				}
			},
		},
		{
			name: "step-down/lockstep", initial: 8, wantD: 2,
			trace: trace(60, func(i int) Measurement {
				if i < 10 {
					return link(240*ms, 2*ms)
				}
				return link(40*ms, 2*ms) // need = 2
			}),
			check: func(t *testing.T, ds []int) {
				if ds[13] != 8 || ds[14] != 7 || ds[18] != 7 || ds[19] != 6 {
					t.Fatalf("D trace %v: want one step down per 5 slack windows", ds[10:25])
				}
			},
		},
		{
			name: "steady/rollback", policy: Policy{Prediction: 8}, initial: 2, wantD: 0, wantW: 8, maxChanges: 2,
			// need 4 <= W: prediction covers it all; D steps down to 0
			trace: trace(40, func(int) Measurement { return link(100*ms, 5*ms) }),
		},
		{
			name: "far/rollback", policy: Policy{Prediction: 8}, initial: 0, wantD: 6, wantW: 8, maxChanges: 1,
			// need = ceil((200 + 10) / 16) = 14 = W + 6
			trace: trace(40, func(int) Measurement { return link(400*ms, 5*ms) }),
		},
		{
			name: "deep-rollbacks/rollback", policy: Policy{Prediction: 8}, initial: 0, wantD: 3, wantW: 8,
			trace: trace(3, func(int) Measurement {
				m := link(100*ms, 5*ms)
				m.DeepRollbacks = 30 // 50 % of frames
				return m
			}),
		},
		{
			name: "near/auto", policy: Policy{Auto: true}, initial: 0, wantD: 4, wantW: 0, maxChanges: 1,
			trace: trace(40, func(int) Measurement { return link(100*ms, 5*ms) }),
		},
		{
			name: "far/auto", policy: Policy{Auto: true}, initial: 0, wantD: 6, wantW: 4, maxChanges: 1,
			// need = ceil((150 + 10) / 16) = 10; budget 100 ms = 6 frames
			trace: trace(40, func(int) Measurement { return link(300*ms, 5*ms) }),
		},
		{
			name: "switch/auto", policy: Policy{Auto: true}, initial: 0, wantD: 2, wantW: 0,
			trace: trace(120, func(i int) Measurement {
				if i >= 30 && i < 60 {
					return link(300*ms, 5*ms)
				}
				return link(40*ms, 2*ms)
			}),
			check: func(t *testing.T, ds []int) {
				if ds[30] != 6 {
					t.Fatalf("D %d when the link slowed, want 6", ds[30])
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := New(tc.policy, tc.initial)
			lower := c.p.LowerAfter
			var ds []int
			changes, sinceDrop := 0, 1<<30
			prev := c.Current()
			for i, m := range tc.trace {
				r := c.Update(m)
				ds = append(ds, r.Delay)
				sinceDrop++
				if r.Changed {
					changes++
				}
				if r.Delay < prev.Delay {
					if prev.Delay-r.Delay != 1 {
						t.Fatalf("window %d: D fell from %d to %d, more than one step", i, prev.Delay, r.Delay)
					}
					if sinceDrop < lower {
						t.Fatalf("window %d: D fell %d windows after the previous drop, want >= %d", i, sinceDrop, lower)
					}
					if m.Stall > 0 {
						t.Fatalf("window %d: D fell in a window with a stall", i)
					}
					sinceDrop = 0
				}
				prev = r
			}
			if prev.Delay != tc.wantD || prev.Prediction != tc.wantW {
				t.Fatalf("final D %d W %d, want D %d W %d (trace %v)", prev.Delay, prev.Prediction, tc.wantD, tc.wantW, ds)
			}
			if tc.maxChanges > 0 && changes > tc.maxChanges {
				t.Fatalf("%d changes, want at most %d: it oscillates (trace %v)", changes, tc.maxChanges, ds)
			}
			if tc.check != nil {
				tc.check(t, ds)
			}
		})
	}
}

func neverLowers(t *testing.T, ds []int) {
	t.Helper()
	for i := 1; i < len(ds); i++ {
		if ds[i] < ds[i-1] {
			t.Fatalf("D dropped at window %d: %v", i, ds)
		}
	}
}

func ExampleController() {
	c := New(Policy{}, 1) // lockstep: W = 0
	for i := 0; i < 3; i++ {
		r := c.Update(Measurement{FramePeriod: 16 * time.Millisecond, RTT: 100 * time.Millisecond, Jitter: 5 * time.Millisecond, Frames: 60})
		fmt.Println("D", r.Delay, "changed", r.Changed)
	}
	// Output:
	// D 4 changed true
	// D 4 changed false
	// D 4 changed false
}
