package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
)

// Scenario 4: D raised and lowered mid-match on every peer, under loss:
// no divergence, never two inputs for one frame on the wire (the harness
// checks every message), and no stall caused by the change.
func TestScenarioDelayChanges(t *testing.T) {
	for _, w := range []int{0, 8} {
		t.Run(fmt.Sprintf("W%d", w), func(t *testing.T) {
			const end = 800
			h := newHarness(t, 3, 21, end, func(i int, c *Config) {
				c.InputDelay, c.Prediction = 2, w
			})
			h.setLinks(link{latency: 8 * time.Millisecond, jitter: 8 * time.Millisecond, loss: 50})
			// Per node: at these frames set D to these values.
			plan := [][]struct {
				at core.Frame
				d  int
			}{
				{{100, 6}, {200, 0}, {300, 3}, {500, 1}},
				{{120, 0}, {220, 8}, {400, 2}},
				{{150, 4}, {250, 4}, {350, 0}, {600, 5}},
			}
			next := make([]int, 3)
			h.onTick = func(h *harness) {
				for i, nd := range h.nodes {
					if next[i] < len(plan[i]) && nd.eng.Frame() >= plan[i][next[i]].at {
						if err := nd.eng.SetInputDelay(nd.player, plan[i][next[i]].d); err != nil {
							t.Fatal(err)
						}
						next[i]++
					}
				}
			}
			h.run(100000)
			h.checkAgreement()
			for i, nd := range h.nodes {
				if next[i] != len(plan[i]) {
					t.Fatalf("node %d applied %d of %d changes", i, next[i], len(plan[i]))
				}
				if d, _ := nd.eng.InputDelay(nd.player); nd.eng.next[nd.player]-end > 0 && d == 0 {
					t.Fatalf("node %d scheduled past the end", i)
				}
				st := nd.eng.Stats()
				if w > 0 && st.StalledCalls > 0 {
					t.Errorf("node %d stalled %d times with W=%d on a 8-16 ms link", i, st.StalledCalls, w)
				}
			}
		})
	}
}

// TestDelayRule pins the exact rule on one engine: raising D by k repeats
// the previous input k times; lowering it by k discards k inputs.
func TestDelayRule(t *testing.T) {
	c := Config{Players: 1, Local: []core.PlayerHandle{0}, InputDelay: 1}
	e, err := NewEngine[testState, testInput](c, &testGame{}, &testState{})
	if err != nil {
		t.Fatal(err)
	}
	add := func(v testInput) error {
		err := e.AddLocalInput(0, v)
		e.Advance(0)
		return err
	}
	// D=1: frame 0 is the zero input, input 10 lands on frame 1.
	if err := add(10); err != nil {
		t.Fatal(err)
	}
	_ = e.SetInputDelay(0, 3) // raise by 2 at frame 1: frames 2,3 repeat 10
	if err := add(20); err != nil {
		t.Fatal(err)
	}
	_ = e.SetInputDelay(0, 1) // lower by 2 at frame 2: two inputs discarded
	for _, v := range []testInput{30, 31} {
		if err := add(v); err != ErrInputDiscarded {
			t.Fatalf("input %d: err %v, want ErrInputDiscarded", v, err)
		}
	}
	if err := e.AddLocalInput(0, 40); err != nil { // frame 4 + D 1 = frame 5
		t.Fatal(err)
	}
	if err := e.AddLocalInput(0, 41); err != ErrInputDiscarded {
		t.Fatalf("second call in one frame: %v, want ErrInputDiscarded", err)
	}
	want := []testInput{0, 10, 10, 10, 20, 40}
	for f, v := range want {
		if got := e.vals[e.idx(0, core.Frame(f))].Value; got != v {
			t.Fatalf("frame %d has input %d, want %d (whole schedule %v)", f, got, v, want)
		}
	}
	if e.next[0] != core.Frame(len(want)) {
		t.Fatalf("schedule ends at %d, want %d", e.next[0], len(want))
	}
}

// W changed mid-match on every peer (including to 0 and back), under
// jitter and loss: no divergence from the oracle.
func TestScenarioPredictionChanges(t *testing.T) {
	const end = 900
	h := newHarness(t, 3, 23, end, func(i int, c *Config) {
		c.InputDelay, c.Prediction = 1, 8
	})
	h.setLinks(link{latency: 30 * time.Millisecond, jitter: 60 * time.Millisecond, loss: 100})
	plan := [][]struct {
		at core.Frame
		w  int
	}{
		{{100, 0}, {300, 8}, {500, 1}},
		{{150, 3}, {400, 0}, {700, 8}},
		{{200, 0}, {250, 8}, {600, 2}},
	}
	next := make([]int, 3)
	h.onTick = func(h *harness) {
		for i, nd := range h.nodes {
			if next[i] < len(plan[i]) && nd.eng.Frame() >= plan[i][next[i]].at {
				if err := nd.eng.SetPrediction(plan[i][next[i]].w); err != nil {
					t.Fatal(err)
				}
				next[i]++
			}
		}
	}
	h.run(200000)
	h.checkAgreement()
	if want := refRun(3, end, h.input); *h.nodes[0].eng.State() != want {
		t.Fatal("final state differs from the oracle")
	}
	for i := range h.nodes {
		if next[i] != len(plan[i]) {
			t.Fatalf("node %d applied %d of %d changes", i, next[i], len(plan[i]))
		}
	}
}

// Several local players on one engine (couch play) next to remote ones.
func TestScenarioSeveralLocalPlayers(t *testing.T) {
	const end = 300
	input := func(p int, f core.Frame) testInput { return genInput(31, p, f) }
	mk := func(local []core.PlayerHandle, peers [][]core.PlayerHandle, d int) *Engine[testState, testInput] {
		c := Config{Players: 3, Local: local, Peers: peers, InputDelay: d, Prediction: 8, MaxPrediction: 8}
		e, err := NewEngine[testState, testInput](c, &testGame{}, &testState{})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	a := mk([]core.PlayerHandle{0, 2}, [][]core.PlayerHandle{{1}}, 2)
	b := mk([]core.PlayerHandle{1}, [][]core.PlayerHandle{{0, 2}}, 0)
	var lagged []*Message[Slot[testInput]]
	for k := 0; k < 2*end; k++ {
		now := time.Duration(k) * time.Millisecond
		for _, p := range []core.PlayerHandle{0, 2} {
			if f := a.Frame() + 2; f < end {
				_ = a.AddLocalInput(p, input(int(p), f))
			}
		}
		if f := b.Frame(); f < end {
			_ = b.AddLocalInput(1, input(1, f))
		}
		ra := a.Advance(now)
		rb := b.Advance(now)
		if err := b.Receive(now, 0, cloneMessage(ra.Messages[0].Message)); err != nil {
			t.Fatal(err)
		}
		lagged = append(lagged, cloneMessage(rb.Messages[0].Message))
		if len(lagged) > 3 { // b's messages reach a 3 calls late
			if err := a.Receive(now, 0, lagged[0]); err != nil {
				t.Fatal(err)
			}
			lagged = lagged[1:]
		}
	}
	want := refRun(3, end, input)
	if *a.State() != want || *b.State() != want {
		t.Fatalf("frames %d and %d: states differ from the oracle", a.Frame(), b.Frame())
	}
}

// Property: under random D changes on every peer (every few frames, any
// value 0..12), no two different inputs are ever sent for one player and
// frame (the harness checks every message), and the peers agree.
func TestDelayChangesRandomized(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			const end = 1500
			h := newHarness(t, 3, seed, end, func(i int, c *Config) {
				c.InputDelay, c.Prediction = 2, int(seed%2)*8
			})
			h.setLinks(link{latency: 20 * time.Millisecond, jitter: 50 * time.Millisecond, loss: 100})
			rng := rand.New(rand.NewPCG(seed, 77))
			changes := 0
			h.onTick = func(h *harness) {
				for _, nd := range h.nodes {
					if rng.IntN(10) == 0 {
						_ = nd.eng.SetInputDelay(nd.player, rng.IntN(13))
						changes++
					}
				}
			}
			h.run(400000)
			h.checkAgreement()
			if changes < 100 || len(h.sent) < 3*end {
				t.Fatalf("%d changes, %d inputs seen: the test proves little", changes, len(h.sent))
			}
		})
	}
}
