package sim

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// impairedLink exercises every random choice a link makes.
var impairedLink = LinkConfig{
	Latency:      Latency{Base: 40 * time.Millisecond, Jitter: 15 * time.Millisecond, Spike: Spike{Height: 300 * time.Millisecond, Length: 200 * time.Millisecond, Period: 3 * time.Second}},
	Loss:         0.1,
	Duplicate:    0.05,
	Reorder:      0.05,
	ReorderDelay: 25 * time.Millisecond,
	Bandwidth:    200_000,
}

// workload returns count sends among peers endpoints at pseudo-random
// times and sizes; it depends only on its arguments.
func workload(count, peers int) []sendOp {
	r := rand.New(rand.NewPCG(11, 12))
	ops := make([]sendOp, count)
	var at time.Duration
	for i := range ops {
		at += time.Duration(r.IntN(3000)) * time.Microsecond
		from := r.IntN(peers)
		to := (from + 1 + r.IntN(peers-1)) % peers
		ops[i] = sendOp{at: at, from: from, to: to, size: 4 + r.IntN(200)}
	}
	return ops
}

// traceFor runs the workload on a fresh network with the given seed and
// returns its delivery trace as text.
func traceFor(t *testing.T, seed uint64) string {
	t.Helper()
	net, eps := newNetwork(t, Config{Seed: seed, Link: impairedLink}, 4)
	return traceText(run(t, net, eps, workload(3000, 4)))
}

func TestDeterminism(t *testing.T) {
	t.Run("SameSeedSameTrace", func(t *testing.T) {
		first, second := traceFor(t, 42), traceFor(t, 42)
		if first != second {
			t.Fatalf("two runs with seed 42 delivered different traces:\n%.400s\n---\n%.400s", first, second)
		}
		if len(first) == 0 {
			t.Fatal("empty trace")
		}
	})
	t.Run("DifferentSeedDifferentTrace", func(t *testing.T) {
		if traceFor(t, 42) == traceFor(t, 43) {
			t.Fatal("seeds 42 and 43 delivered identical traces")
		}
	})
	t.Run("EqualArrivalsInSendOrder", func(t *testing.T) {
		// Datagrams from several senders that arrive at the same time are
		// delivered in the order they were sent.
		net, eps := newNetwork(t, Config{Link: LinkConfig{Latency: Latency{Base: 10 * time.Millisecond}}}, 4)
		ops := []sendOp{
			{from: 2, to: 3, size: 4}, {from: 0, to: 3, size: 4}, {from: 1, to: 3, size: 4}, {from: 0, to: 3, size: 4},
		}
		recs := run(t, net, eps, ops)
		var got []int
		for _, r := range recs {
			got = append(got, r.op)
		}
		if want := []int{0, 1, 2, 3}; !slices.Equal(got, want) {
			t.Fatalf("arrival order: got %v, want %v", got, want)
		}
	})
	t.Run("LinksIndependent", func(t *testing.T) {
		// Traffic on one link does not change the random choices of
		// another: each link has its own seeded stream.
		only := func(extra bool) string {
			net, eps := newNetwork(t, Config{Seed: 5, Link: impairedLink}, 3)
			var ops []sendOp
			for i := range 500 {
				at := time.Duration(i) * time.Millisecond
				ops = append(ops, sendOp{at: at, from: 0, to: 1, size: 8})
				if extra {
					ops = append(ops, sendOp{at: at, from: 2, to: 1, size: 8})
				}
			}
			var kept []arrivalRecord
			for _, r := range run(t, net, eps, ops) {
				if r.from == 0 {
					r.op = -1 // op indexes differ between the runs
					kept = append(kept, r)
				}
			}
			return traceText(kept)
		}
		if only(false) != only(true) {
			t.Fatal("traffic on 2->1 changed what 0->1 delivered")
		}
	})
}
