package sim

import (
	"math"
	"testing"
	"time"

	"github.com/rollstep/rollstep/transport"
)

// withinSigmas fails the test unless got is within k standard deviations
// of the binomial count n·p.
func withinSigmas(t *testing.T, what string, got int64, n int, p, k float64) {
	t.Helper()
	mean := float64(n) * p
	sd := math.Sqrt(float64(n) * p * (1 - p))
	if math.Abs(float64(got)-mean) > k*sd {
		t.Fatalf("%s: got %d of %d, want %.0f ± %.0f (%g σ)", what, got, n, mean, k*sd, k)
	}
}

func TestLoss(t *testing.T) {
	const count, p = 10000, 0.25
	net, eps := newNetwork(t, Config{Seed: 1, Link: LinkConfig{Latency: Latency{Base: 20 * time.Millisecond}, Loss: p}}, 2)
	ops := everyInterval(count, time.Millisecond, 32)
	recs := run(t, net, eps, ops)
	st := net.Stats(0, 1)

	t.Run("Rate", func(t *testing.T) {
		withinSigmas(t, "dropped", st.Dropped.Packets, count, p, 5)
	})
	t.Run("ExactForSeed", func(t *testing.T) {
		// Pinned for Seed 1; a change here means the random stream changed,
		// which changes every recorded scenario.
		const want = 2533
		if st.Dropped.Packets != want {
			t.Fatalf("dropped: got %d, want %d for seed 1", st.Dropped.Packets, want)
		}
	})
	t.Run("Counters", func(t *testing.T) {
		if got := int64(len(recs)); got != st.Delivered.Packets || got+st.Dropped.Packets != count {
			t.Fatalf("got %d arrivals, %d delivered, %d dropped; want arrivals = delivered and delivered + dropped = %d",
				got, st.Delivered.Packets, st.Dropped.Packets, count)
		}
	})
}

func TestDuplication(t *testing.T) {
	const count, p = 5000, 0.1
	net, eps := newNetwork(t, Config{Seed: 2, Link: LinkConfig{Latency: Latency{Base: 20 * time.Millisecond, Jitter: 5 * time.Millisecond}, Duplicate: p}}, 2)
	ops := everyInterval(count, time.Millisecond, 32)
	recs := run(t, net, eps, ops)
	st := net.Stats(0, 1)
	withinSigmas(t, "duplicated", st.Duplicated.Packets, count, p, 5)
	if st.Delivered.Packets != count+st.Duplicated.Packets || int64(len(recs)) != st.Delivered.Packets {
		t.Fatalf("got %d arrivals, %d delivered, want %d sent + %d duplicated", len(recs), st.Delivered.Packets, count, st.Duplicated.Packets)
	}
	// A copy arrives right after its original, at the same virtual time.
	copies := 0
	for i := 1; i < len(recs); i++ {
		if recs[i].op == recs[i-1].op {
			copies++
			if recs[i].at != recs[i-1].at {
				t.Fatalf("op %d: copy at %v, original at %v, want equal", recs[i].op, recs[i].at, recs[i-1].at)
			}
		} else if recs[i].op != recs[i-1].op+1 {
			t.Fatalf("arrival %d: op %d after op %d, want FIFO order", i, recs[i].op, recs[i-1].op)
		}
	}
	if int64(copies) != st.Duplicated.Packets {
		t.Fatalf("got %d adjacent copies, want %d", copies, st.Duplicated.Packets)
	}
}

func TestReordering(t *testing.T) {
	const count, p = 5000, 0.1
	const base, extra = 10 * time.Millisecond, 30 * time.Millisecond
	net, eps := newNetwork(t, Config{Seed: 3, Link: LinkConfig{Latency: Latency{Base: base}, Reorder: p, ReorderDelay: extra}}, 2)
	ops := everyInterval(count, time.Millisecond, 32)
	recs := run(t, net, eps, ops)
	lat, arrived := latencies(ops, recs)
	held := 0
	for i := range ops {
		switch {
		case !arrived[i]:
			t.Fatalf("op %d never arrived; reordering must not lose datagrams", i)
		case lat[i] == base+extra:
			held++
		case lat[i] != base:
			t.Fatalf("op %d: latency %v, want %v or %v", i, lat[i], base, base+extra)
		}
	}
	withinSigmas(t, "reordered", int64(held), count, p, 5)
	inversions := 0
	for i := 1; i < len(recs); i++ {
		if recs[i].op < recs[i-1].op {
			inversions++
		}
	}
	if inversions == 0 {
		t.Fatal("no datagram arrived before one sent earlier, want reordering")
	}
	if st := net.Stats(0, 1); st.Delivered.Packets != count || st.Dropped.Packets != 0 {
		t.Fatalf("got %+v, want all %d delivered", st, count)
	}
}

func TestPartition(t *testing.T) {
	net, eps := newNetwork(t, Config{Link: LinkConfig{Latency: Latency{Base: 10 * time.Millisecond}}}, 3)
	a, b, c := eps[0], eps[1], eps[2]
	sendAll := func() {
		for _, pair := range [][2]*Endpoint{{a, b}, {b, a}, {a, c}, {c, a}, {b, c}, {c, b}} {
			if err := pair[0].Send(pair[1].ID(), []byte("x")); err != nil {
				t.Fatal(err)
			}
		}
		net.RunUntilIdle()
	}
	pending := func() [3]int { return [3]int{a.in.n, b.in.n, c.in.n} }
	clear := func() {
		buf := make([]byte, transport.MaxDatagram)
		for _, e := range eps {
			for e.in.n > 0 {
				e.Receive(buf)
			}
		}
	}

	t.Run("InFlightSurvives", func(t *testing.T) {
		if err := a.Send(b.ID(), []byte("early")); err != nil {
			t.Fatal(err)
		}
		net.Partition([]transport.Addr{a.ID()}, []transport.Addr{b.ID(), c.ID()})
		net.RunUntilIdle()
		if got := b.in.n; got != 1 {
			t.Fatalf("b pending: got %d, want 1 (sent before the partition)", got)
		}
		clear()
	})
	t.Run("DropsBothWays", func(t *testing.T) {
		sendAll()
		if got, want := pending(), [3]int{0, 1, 1}; got != want {
			t.Fatalf("pending (a, b, c): got %v, want %v (only b<->c connected)", got, want)
		}
		for _, l := range [][2]transport.Addr{{0, 1}, {1, 0}, {0, 2}, {2, 0}} {
			if got := net.Stats(l[0], l[1]).Dropped.Packets; got != 1 {
				t.Fatalf("link %v->%v dropped: got %d, want 1", l[0], l[1], got)
			}
		}
		clear()
	})
	t.Run("Heal", func(t *testing.T) {
		net.Heal()
		sendAll()
		if got, want := pending(), [3]int{2, 2, 2}; got != want {
			t.Fatalf("pending (a, b, c): got %v, want %v after Heal", got, want)
		}
		clear()
	})
	t.Run("OneWayCut", func(t *testing.T) {
		net.Cut(a.ID(), b.ID())
		sendAll()
		if got, want := pending(), [3]int{2, 1, 2}; got != want {
			t.Fatalf("pending (a, b, c): got %v, want %v with a->b cut", got, want)
		}
		clear()
		net.Restore(a.ID(), b.ID())
		sendAll()
		if got, want := pending(), [3]int{2, 2, 2}; got != want {
			t.Fatalf("pending (a, b, c): got %v, want %v after Restore", got, want)
		}
	})
}

func TestBandwidth(t *testing.T) {
	// 100 000 B/s: a 72-byte payload is 100 wire bytes and takes exactly 1ms.
	const base = 5 * time.Millisecond
	link := LinkConfig{Latency: Latency{Base: base}, Bandwidth: 100_000}

	t.Run("SerializationDelay", func(t *testing.T) {
		net, eps := newNetwork(t, Config{Link: link}, 2)
		ops := []sendOp{
			{at: 0, from: 0, to: 1, size: 72},
			{at: 0, from: 0, to: 1, size: 72},
			{at: 0, from: 0, to: 1, size: 172}, // 200 wire bytes: 2ms
			{at: 100 * time.Millisecond, from: 0, to: 1, size: 72},
		}
		recs := run(t, net, eps, ops)
		want := []time.Duration{6 * time.Millisecond, 7 * time.Millisecond, 9 * time.Millisecond, 106 * time.Millisecond}
		for i, r := range recs {
			if r.at != want[i] {
				t.Fatalf("arrival %d: got %v, want %v", i, r.at, want[i])
			}
		}
	})
	t.Run("Rounding", func(t *testing.T) {
		if got, want := serialization(1, 3), time.Duration(333333334); got != want {
			t.Fatalf("serialization(1 byte, 3 B/s): got %v, want %v (rounded up)", got, want)
		}
		if got, want := bytesIn(serialization(1, 3), 3), uint64(1); got != want {
			t.Fatalf("bytesIn: got %d, want %d", got, want)
		}
		if got := bytesIn(math.MaxInt64, math.MaxInt64); got != math.MaxUint64 {
			t.Fatalf("bytesIn overflow: got %d, want saturation", got)
		}
	})
	t.Run("QueueLimit", func(t *testing.T) {
		limited := link
		limited.QueueLimit = 300
		net, eps := newNetwork(t, Config{Link: limited}, 2)
		ops := make([]sendOp, 5)
		for i := range ops {
			ops[i] = sendOp{from: 0, to: 1, size: 72}
		}
		recs := run(t, net, eps, ops)
		if st := net.Stats(0, 1); len(recs) != 3 || st.Dropped.Packets != 2 {
			t.Fatalf("got %d arrivals and %d dropped, want 3 and 2 (300-byte queue, 100-byte datagrams)", len(recs), st.Dropped.Packets)
		}
	})
}
