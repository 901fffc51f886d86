package sim

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rollstep/rollstep/internal/simlink"
	"github.com/rollstep/rollstep/transport"
)

// newTestShaper returns the shaper of link 0 → 1 under seed, failing the
// test on a bad config.
func newTestShaper(t testing.TB, cfg LinkConfig, seed uint64) *shaper {
	t.Helper()
	if err := cfg.validate("sim.LinkConfig"); err != nil {
		t.Fatalf("validate: %v", err)
	}
	s := newShaper(cfg, seed, 0, 1)
	return &s
}

// TestShaperMatchesNetwork is a differential test: the Shaper that
// internal/simlink makes for link from → to (as cmd/rollstep proxy does),
// fed the send times and sizes of that link's traffic, predicts
// every arrival of a Network with the same seed, to the nanosecond and in
// number of copies, while other links carry traffic too.
func TestShaperMatchesNetwork(t *testing.T) {
	for _, tc := range []struct {
		name string
		link LinkConfig
	}{
		{"Perfect", LinkConfig{}},
		{"Impaired", impairedLink},
		{"QueueLimit", LinkConfig{Latency: Latency{Base: 10 * time.Millisecond, Jitter: 3 * time.Millisecond}, Bandwidth: 50_000, QueueLimit: 600, Loss: 0.05}},
		{"Schedule", LinkConfig{Latency: Latency{Base: 20 * time.Millisecond}, Schedule: []Step{{At: 300 * time.Millisecond, Latency: Latency{Base: 80 * time.Millisecond, Jitter: 40 * time.Millisecond}}}, Duplicate: 0.2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const seed, peers = 7, 3
			net, eps := newNetwork(t, Config{Seed: seed, Link: tc.link}, peers)
			ops := workload(600, peers)
			recs := run(t, net, eps, ops)

			var want []string
			for _, r := range recs {
				if r.from == 2 && r.to == 1 {
					want = append(want, fmt.Sprintf("op=%d at=%v", r.op, r.at))
				}
			}
			s, err := simlink.NewShaper(tc.link, seed, 2, 1)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for i, op := range ops {
				if op.from != 2 || op.to != 1 {
					continue
				}
				f := s.Decide(op.at, op.size)
				if f.Dropped() {
					continue
				}
				line := fmt.Sprintf("op=%d at=%v", i, f.At)
				got = append(got, line)
				if f.Duplicate {
					got = append(got, line)
				}
			}
			// The network delivers in arrival order; sort both the same way.
			key := func(a, b string) int { return strings.Compare(a, b) }
			slices.SortFunc(got, key)
			slices.SortFunc(want, key)
			if len(want) == 0 {
				t.Fatal("no traffic on link 2→1")
			}
			if !slices.Equal(got, want) {
				t.Fatalf("shaper and network disagree:\ngot  %d arrivals %q…\nwant %d arrivals %q…",
					len(got), got[:min(5, len(got))], len(want), want[:min(5, len(want))])
			}
		})
	}
}

// TestShaperExact pins the decisions for a fixed seed: a change means the
// random stream or the decision order changed, which changes every
// recorded scenario and every proxy run.
func TestShaperExact(t *testing.T) {
	cfg := LinkConfig{
		Latency:      Latency{Base: 50 * time.Millisecond, Jitter: 10 * time.Millisecond},
		Loss:         0.3,
		Duplicate:    0.3,
		Reorder:      0.2,
		ReorderDelay: 30 * time.Millisecond,
	}
	s := newTestShaper(t, cfg, 1)
	var b strings.Builder
	for i := range 12 {
		f := s.Decide(time.Duration(i)*10*time.Millisecond, 100)
		fmt.Fprintf(&b, "%d %s %v dup=%v reord=%v\n", i, f.Drop, f.At, f.Duplicate, f.Reordered)
	}
	const want = `0 loss 0s dup=false reord=false
1 none 65.356966ms dup=false reord=false
2 none 71.658333ms dup=false reord=false
3 none 102.698677ms dup=false reord=true
4 loss 0s dup=false reord=false
5 none 124.471201ms dup=false reord=true
6 none 111.389381ms dup=false reord=false
7 none 125.361331ms dup=true reord=false
8 loss 0s dup=false reord=false
9 none 130.364989ms dup=false reord=false
10 none 142.038159ms dup=false reord=false
11 none 191.251772ms dup=false reord=true
`
	if got := b.String(); got != want {
		t.Fatalf("decisions for seed 1:\n%s\nwant:\n%s", got, want)
	}
}

func TestShaperDeterministicLatency(t *testing.T) {
	// 1000 B/s: a 72-byte payload is 100 wire bytes, 100 ms on the link.
	s := newTestShaper(t, LinkConfig{Latency: Latency{Base: 50 * time.Millisecond}, Bandwidth: 1000, QueueLimit: 250}, 3)
	ms := time.Millisecond
	for _, tc := range []struct {
		now  time.Duration
		want simlink.Fate
	}{
		{0, simlink.Fate{At: 150 * ms}},                    // leaves at 100 ms
		{10 * ms, simlink.Fate{At: 250 * ms}},              // waits for the first: leaves at 200 ms
		{20 * ms, simlink.Fate{Drop: simlink.DropQueue}},   // 180 queued + 100 > 250
		{5 * ms, simlink.Fate{Drop: simlink.DropQueue}},    // taken as 20 ms: time never goes back
		{150 * ms, simlink.Fate{At: 350 * ms}},             // 50 bytes still queued: fits
		{time.Second, simlink.Fate{At: 1150 * ms}},         // idle link again
		{time.Second, simlink.Fate{At: 1250 * ms}},         // same instant, queued behind
		{1100 * ms, simlink.Fate{At: 1350 * ms}},           // 100 queued + 100 fits under 250
		{1100 * ms, simlink.Fate{Drop: simlink.DropQueue}}, // 200 queued + 100 does not
		{10 * time.Second, simlink.Fate{At: 10150 * ms}},
	} {
		if got := s.Decide(tc.now, 72); got != tc.want {
			t.Fatalf("Decide(%v): got %+v, want %+v", tc.now, got, tc.want)
		}
	}
}

func TestShaperSpikeAndFIFO(t *testing.T) {
	ms := time.Millisecond
	s := newTestShaper(t, LinkConfig{Latency: Latency{Base: 20 * ms, Spike: Spike{Height: 400 * ms, Length: 100 * ms, Period: time.Second}}}, 0)
	for _, tc := range []struct{ now, want time.Duration }{
		{0, 400 * ms},          // in the spike
		{99 * ms, 499 * ms},    // still in the spike
		{100 * ms, 499 * ms},   // after it: 120 ms, but FIFO holds it behind
		{480 * ms, 500 * ms},   // normal
		{1000 * ms, 1400 * ms}, // next period's spike
	} {
		if got := s.Decide(tc.now, 10); got.At != tc.want || got.Dropped() {
			t.Fatalf("Decide(%v): got %+v, want arrival at %v", tc.now, got, tc.want)
		}
	}
}

func TestShaperSetConfig(t *testing.T) {
	s := newTestShaper(t, LinkConfig{Latency: Latency{Base: 100 * time.Millisecond}}, 0)
	if f := s.Decide(0, 10); f.At != 100*time.Millisecond {
		t.Fatalf("first: got %v, want 100ms", f.At)
	}
	s.setConfig(LinkConfig{Latency: Latency{Base: 10 * time.Millisecond}})
	// The FIFO order survives the change: the faster link does not let the
	// next datagram overtake the one in flight.
	if f := s.Decide(time.Millisecond, 10); f.At != 100*time.Millisecond {
		t.Fatalf("after setConfig: got %v, want 100ms (FIFO)", f.At)
	}
	if got := s.cfg.Latency.Base; got != 10*time.Millisecond {
		t.Fatalf("cfg: got base %v, want 10ms", got)
	}
}

func TestNewShaperInvalid(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cfg   LinkConfig
		field string
	}{
		{"NegativeLoss", LinkConfig{Loss: -0.1}, "sim.LinkConfig.Loss"},
		{"ReorderWithoutDelay", LinkConfig{Reorder: 0.1}, "sim.LinkConfig.ReorderDelay"},
		{"SpikeLength", LinkConfig{Latency: Latency{Spike: Spike{Height: 1, Length: 3, Period: 2}}}, "sim.LinkConfig.Latency.Spike.Length"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := simlink.NewShaper(tc.cfg, 1, 0, 1)
			var ce *transport.ConfigError
			if s != nil || !errors.Is(err, transport.ErrInvalidConfig) || !errors.As(err, &ce) || ce.Field != tc.field {
				t.Fatalf("got %v, %v; want nil and a *transport.ConfigError for %s", s, err, tc.field)
			}
		})
	}
}

func TestShaperAllocs(t *testing.T) {
	s := newTestShaper(t, impairedLink, 5)
	now := time.Duration(0)
	got := testing.AllocsPerRun(1000, func() {
		now += time.Millisecond
		s.Decide(now, transport.MaxDatagram)
	})
	if got != 0 {
		t.Fatalf("Decide: got %v allocs per run, want 0", got)
	}
}
