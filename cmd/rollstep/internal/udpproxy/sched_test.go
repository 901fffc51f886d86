package udpproxy

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rollstep/rollstep/internal/simlink"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

const ms = time.Millisecond

// newTestScheduler returns NewScheduler(up, down, seed), failing the test
// on a bad config.
func newTestScheduler(t testing.TB, up, down sim.LinkConfig, seed uint64) *Scheduler {
	t.Helper()
	s, err := NewScheduler(up, down, seed)
	if err != nil {
		t.Fatalf("NewScheduler: %v", err)
	}
	return s
}

// drain jumps from arrival to arrival with Next, as the driver's timer
// would, and returns one line per delivery: the time it was popped, its
// direction, client and payload.
func drain(t *testing.T, s *Scheduler) string {
	t.Helper()
	var b strings.Builder
	for {
		next, ok := s.Next()
		if !ok {
			return b.String()
		}
		if _, ok := s.Pop(next - 1); ok {
			t.Fatalf("Pop(%v) returned a datagram due at %v", next-1, next)
		}
		for {
			d, ok := s.Pop(next)
			if !ok {
				break
			}
			if d.At != next {
				t.Fatalf("Pop(%v) returned a datagram due at %v", next, d.At)
			}
			fmt.Fprintf(&b, "%v %v c%d %s\n", next, d.Dir, d.Client, d.Payload)
		}
	}
}

// TestSchedulerExact pins the deliveries of a seeded run on an injected
// clock: twelve datagrams sent 10 ms apart over 50±10 ms with loss,
// duplication and reordering. The times are the ones simlink.Shaper decides
// for seed 1 (see TestShaperExact in transport/sim).
func TestSchedulerExact(t *testing.T) {
	link := sim.LinkConfig{
		Latency:      sim.Latency{Base: 50 * ms, Jitter: 10 * ms},
		Loss:         0.3,
		Duplicate:    0.3,
		Reorder:      0.2,
		ReorderDelay: 30 * ms,
	}
	s := newTestScheduler(t, link, sim.LinkConfig{}, 1)
	for i := range 12 {
		s.Submit(time.Duration(i)*10*ms, Up, 0, []byte{'a' + byte(i)})
	}
	const want = `65.356966ms up c0 b
71.658333ms up c0 c
102.698677ms up c0 d
111.389381ms up c0 g
124.471201ms up c0 f
125.361331ms up c0 h
125.361331ms up c0 h
130.364989ms up c0 j
142.038159ms up c0 k
191.251772ms up c0 l
`
	if got := drain(t, s); got != want {
		t.Fatalf("deliveries:\n%s\nwant:\n%s", got, want)
	}
	st := s.Stats(Up)
	for _, c := range []struct {
		name      string
		got, want int64
	}{
		{"Received", st.Received.Packets, 12},
		{"Lost", st.Lost.Packets, 3},
		{"Duplicated", st.Duplicated.Packets, 1},
		{"Forwarded", st.Forwarded.Packets, 10},
		{"Forwarded bytes", st.Forwarded.Bytes, 10},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, c.got, c.want)
		}
	}
	if down := s.Stats(Down); down != (DirStats{}) {
		t.Errorf("Down: got %+v, want zero", down)
	}
}

// TestSchedulerReplaysNetwork checks the property the proxy documents: its
// Up and Down directions decide as links 0 → 1 and 1 → 0 of a sim.Network
// with the same seed, so a proxy run can be replayed on virtual time.
func TestSchedulerReplaysNetwork(t *testing.T) {
	const seed, count = 99, 400
	link := sim.LinkConfig{
		Latency:      sim.Latency{Base: 30 * ms, Jitter: 20 * ms, Spike: sim.Spike{Height: 200 * ms, Length: 100 * ms, Period: time.Second}},
		Loss:         0.1,
		Duplicate:    0.05,
		Reorder:      0.05,
		ReorderDelay: 15 * ms,
		Bandwidth:    20_000,
		QueueLimit:   1500,
	}
	net, err := sim.New(sim.Config{Seed: seed, Link: link})
	if err != nil {
		t.Fatal(err)
	}
	eps := []*sim.Endpoint{net.NewEndpoint(), net.NewEndpoint()}
	s := newTestScheduler(t, link, link, seed)

	var want strings.Builder
	buf := make([]byte, transport.MaxDatagram)
	record := func() {
		for i, e := range eps {
			for {
				n, _, ok, err := e.Receive(buf)
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					break
				}
				// Endpoint 1 is the upstream: it receives the Up direction.
				dir := Down
				if i == 1 {
					dir = Up
				}
				fmt.Fprintf(&want, "%v %v c0 %s\n", net.Now(), dir, buf[:n])
			}
		}
	}
	for i := range count {
		now := time.Duration(i) * 3 * ms
		for next, ok := net.Next(); ok && next <= now; next, ok = net.Next() {
			net.RunUntil(next)
			record()
		}
		net.RunUntil(now)
		p := fmt.Appendf(nil, "%d%s", i, bytes.Repeat([]byte{'x'}, i%300))
		from, to, dir := eps[0], eps[1], Up
		if i%3 == 0 {
			from, to, dir = eps[1], eps[0], Down
		}
		if err := from.Send(to.ID(), p); err != nil {
			t.Fatal(err)
		}
		s.Submit(now, dir, 0, p)
	}
	for next, ok := net.Next(); ok; next, ok = net.Next() {
		net.RunUntil(next)
		record()
	}
	got := drain(t, s)
	if got != want.String() {
		t.Fatalf("scheduler and sim.Network disagree:\ngot:\n%.600s\nwant:\n%.600s", got, want.String())
	}
	for _, d := range []Direction{Up, Down} {
		st := s.Stats(d)
		if st.Lost.Packets == 0 || st.Overflow.Packets == 0 || st.Duplicated.Packets == 0 {
			t.Errorf("%v: want some loss, overflow and duplication to compare, got %+v", d, st)
		}
	}
}

func TestSchedulerTiesAndOwnership(t *testing.T) {
	s := newTestScheduler(t, sim.LinkConfig{Latency: sim.Latency{Base: 10 * ms}}, sim.LinkConfig{Latency: sim.Latency{Base: 5 * ms}}, 0)
	p := []byte("one")
	s.Submit(0, Up, 1, p)
	copy(p, "XXX") // Submit must have copied it
	s.Submit(5*ms, Down, 2, []byte("two"))
	s.Submit(5*ms, Down, 3, []byte("three"))
	s.Submit(7*ms, Up, 4, []byte("four"))
	const want = `10ms up c1 one
10ms down c2 two
10ms down c3 three
17ms up c4 four
`
	if got := drain(t, s); got != want {
		t.Fatalf("deliveries:\n%s\nwant:\n%s", got, want)
	}
}

func TestSchedulerDiscard(t *testing.T) {
	s := newTestScheduler(t, sim.LinkConfig{Latency: sim.Latency{Base: 10 * ms}, Duplicate: 1}, sim.LinkConfig{}, 0)
	s.Submit(0, Up, 0, []byte("abcd"))
	s.Submit(ms, Up, 0, []byte("ef"))
	if d, ok := s.Pop(10 * ms); !ok || string(d.Payload) != "abcd" {
		t.Fatalf("Pop: got %q, %v; want abcd, true", d.Payload, ok)
	}
	if got := s.Len(); got != 3 {
		t.Fatalf("Len: got %d, want 3", got)
	}
	s.Discard()
	if _, ok := s.Next(); ok || s.Len() != 0 {
		t.Fatal("queue not empty after Discard")
	}
	st := s.Stats(Up)
	want := DirStats{
		Received:   Counter{2, 6},
		Duplicated: Counter{2, 6},
		Forwarded:  Counter{1, 4},
		Discarded:  Counter{3, 8},
	}
	if st != want {
		t.Fatalf("stats: got %+v, want %+v", st, want)
	}
	// Received + Duplicated = Lost + Overflow + Forwarded + Discarded.
	if in, out := st.Received.Packets+st.Duplicated.Packets, st.Lost.Packets+st.Overflow.Packets+st.Forwarded.Packets+st.Discarded.Packets; in != out {
		t.Fatalf("counters do not balance: %d in, %d out", in, out)
	}
}

func TestNewSchedulerInvalid(t *testing.T) {
	for _, tc := range []struct {
		name     string
		up, down sim.LinkConfig
	}{
		{"Up", sim.LinkConfig{Loss: 1.5}, sim.LinkConfig{}},
		{"Down", sim.LinkConfig{}, sim.LinkConfig{Duplicate: -1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NewScheduler(tc.up, tc.down, 0); !errors.Is(err, transport.ErrInvalidConfig) {
				t.Fatalf("got %v, want transport.ErrInvalidConfig", err)
			}
		})
	}
}

func TestDirectionString(t *testing.T) {
	for d, want := range map[Direction]string{Up: "up", Down: "down", 7: "Direction(7)"} {
		if got := d.String(); got != want {
			t.Errorf("%d: got %q, want %q", d, got, want)
		}
	}
}

// TestSchedulerInFlightBound: a flood into a slow link without a
// bandwidth cap holds at most MaxInFlight bytes; the rest overflows, and
// room comes back as datagrams leave. Before the bound, every datagram
// of a flood waited in the queue for its arrival time.
func TestSchedulerInFlightBound(t *testing.T) {
	slow := sim.LinkConfig{Latency: sim.Latency{Base: time.Minute}}
	s := newTestScheduler(t, slow, slow, 1)
	p := make([]byte, transport.MaxDatagram)
	fits := MaxInFlight / len(p)
	for i := range fits + 100 {
		s.Submit(time.Duration(i), Up, 0, p)
	}
	st := s.Stats(Up)
	if s.Len() != fits || st.Overflow.Packets != 100 {
		t.Fatalf("queued %d, overflow %d; want %d and 100", s.Len(), st.Overflow.Packets, fits)
	}
	if _, ok := s.Pop(2 * time.Minute); !ok {
		t.Fatal("nothing due after two minutes")
	}
	if f := s.Submit(2*time.Minute, Down, 0, p); f.Drop != simlink.DropNone {
		t.Fatalf("after a delivery: fate %+v, want queued", f)
	}
	s.Discard()
	if f := s.Submit(2*time.Minute, Up, 0, p); f.Drop != simlink.DropNone || s.Len() != 1 {
		t.Fatalf("after Discard: fate %+v, %d queued; want queued, 1", f, s.Len())
	}
}
