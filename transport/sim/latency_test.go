package sim

import (
	"testing"
	"time"
)

func TestConstantLatency(t *testing.T) {
	net, eps := newNetwork(t, Config{Link: LinkConfig{Latency: Latency{Base: 50 * time.Millisecond}}}, 2)
	ops := everyInterval(200, 7*time.Millisecond, 16)
	lat, arrived := latencies(ops, run(t, net, eps, ops))
	for i := range ops {
		if !arrived[i] || lat[i] != 50*time.Millisecond {
			t.Fatalf("op %d: got latency %v (arrived %v), want exactly 50ms", i, lat[i], arrived[i])
		}
	}
}

func TestJitterLatency(t *testing.T) {
	const base, jitter = 50 * time.Millisecond, 10 * time.Millisecond
	cfg := Config{Seed: 7, Link: LinkConfig{Latency: Latency{Base: base, Jitter: jitter}}}

	t.Run("Distribution", func(t *testing.T) {
		// Sends 100 ms apart: the FIFO rule never holds a datagram back.
		net, eps := newNetwork(t, cfg, 2)
		ops := everyInterval(4000, 100*time.Millisecond, 8)
		lat, _ := latencies(ops, run(t, net, eps, ops))
		lo, hi, sum := lat[0], lat[0], time.Duration(0)
		for _, l := range lat {
			lo, hi, sum = min(lo, l), max(hi, l), sum+l
		}
		if lo < base-jitter || hi > base+jitter {
			t.Fatalf("latency range [%v, %v], want within [%v, %v]", lo, hi, base-jitter, base+jitter)
		}
		if lo > base-jitter+time.Millisecond || hi < base+jitter-time.Millisecond {
			t.Fatalf("latency range [%v, %v], want it to reach within 1ms of both bounds", lo, hi)
		}
		// Uniform over ±10ms: σ of the mean of 4000 draws is 0.09ms.
		if mean := sum / time.Duration(len(lat)); mean < base-time.Millisecond || mean > base+time.Millisecond {
			t.Fatalf("mean latency %v, want %v ± 1ms", mean, base)
		}
	})

	t.Run("FIFO", func(t *testing.T) {
		// Sends 1 ms apart with ±10 ms jitter: without reordering the link
		// stays first in, first out, and latency stays within its bounds.
		net, eps := newNetwork(t, cfg, 2)
		ops := everyInterval(2000, time.Millisecond, 8)
		recs := run(t, net, eps, ops)
		for i, r := range recs {
			if r.op != i {
				t.Fatalf("arrival %d: got op %d, want op %d (FIFO order)", i, r.op, i)
			}
			if l := r.at - ops[r.op].at; l < base-jitter || l > base+jitter {
				t.Fatalf("op %d: latency %v outside [%v, %v]", i, l, base-jitter, base+jitter)
			}
		}
	})
}

func TestSpikeLatency(t *testing.T) {
	spike := Spike{Height: 400 * time.Millisecond, Length: 600 * time.Millisecond, Period: 2 * time.Second}
	l := Latency{Base: 50 * time.Millisecond, Spike: spike}

	t.Run("Profile", func(t *testing.T) {
		for _, tc := range []struct {
			sent time.Duration
			want time.Duration
		}{
			{0, 400 * time.Millisecond},
			{600*time.Millisecond - 1, 400 * time.Millisecond},
			{600 * time.Millisecond, 50 * time.Millisecond},
			{2*time.Second - 1, 50 * time.Millisecond},
			{2 * time.Second, 400 * time.Millisecond},
			{4*time.Second + 599*time.Millisecond, 400 * time.Millisecond},
			{4*time.Second + 600*time.Millisecond, 50 * time.Millisecond},
		} {
			if got := l.at(tc.sent, nil); got != tc.want {
				t.Errorf("latency of a datagram sent at %v: got %v, want %v", tc.sent, got, tc.want)
			}
		}
	})

	t.Run("Network", func(t *testing.T) {
		net, eps := newNetwork(t, Config{Link: LinkConfig{Latency: l}}, 2)
		ops := everyInterval(600, 10*time.Millisecond, 8)
		recs := run(t, net, eps, ops)
		// Oracle: the spike latency for sends in a spike, the base
		// otherwise, and never before an earlier datagram (FIFO).
		var last time.Duration
		for i, r := range recs {
			sent := ops[r.op].at
			raw := l.Base
			if sent%spike.Period < spike.Length {
				raw = spike.Height
			}
			want := max(sent+raw, last)
			last = want
			if r.op != i || r.at != want {
				t.Fatalf("arrival %d: got op %d at %v, want op %d at %v", i, r.op, r.at, i, want)
			}
		}
		if len(recs) != len(ops) {
			t.Fatalf("got %d arrivals, want %d", len(recs), len(ops))
		}
	})
}

func TestScheduleLatency(t *testing.T) {
	cfg := LinkConfig{
		Latency: Latency{Base: 10 * time.Millisecond},
		Schedule: []Step{
			{At: time.Second, Latency: Latency{Base: 100 * time.Millisecond}},
			{At: 2 * time.Second, Latency: Latency{Base: 20 * time.Millisecond}},
		},
	}
	for _, tc := range []struct {
		sent, want time.Duration
	}{
		{0, 10 * time.Millisecond},
		{time.Second - 1, 10 * time.Millisecond},
		{time.Second, 100 * time.Millisecond},
		{3 * time.Second, 20 * time.Millisecond},
	} {
		net, eps := newNetwork(t, Config{}, 2)
		if err := net.SetLink(0, 1, cfg); err != nil {
			t.Fatal(err)
		}
		ops := []sendOp{{at: tc.sent, from: 0, to: 1, size: 4}}
		recs := run(t, net, eps, ops)
		if len(recs) != 1 || recs[0].at-tc.sent != tc.want {
			t.Fatalf("sent at %v: got %v, want one arrival after %v", tc.sent, recs, tc.want)
		}
	}
}
