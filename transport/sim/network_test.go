package sim

import (
	"errors"
	"testing"
	"time"

	"github.com/rollstep/rollstep/transport"
)

func TestCounters(t *testing.T) {
	net, eps := newNetwork(t, Config{Link: LinkConfig{Latency: Latency{Base: time.Millisecond}}}, 3)
	for range 10 {
		if err := eps[0].Send(1, make([]byte, 100)); err != nil {
			t.Fatal(err)
		}
	}
	if err := eps[0].Send(2, nil); err != nil {
		t.Fatal(err)
	}
	if err := eps[2].Send(1, make([]byte, 50)); err != nil {
		t.Fatal(err)
	}
	net.RunUntilIdle()
	for _, tc := range []struct {
		name string
		got  LinkStats
		want LinkStats
	}{
		{"Link0to1", net.Stats(0, 1), LinkStats{Sent: Counter{10, 1280}, Delivered: Counter{10, 1280}}},
		{"EmptyDatagram", net.Stats(0, 2), LinkStats{Sent: Counter{1, 28}, Delivered: Counter{1, 28}}},
		{"Unused", net.Stats(1, 0), LinkStats{}},
		{"Outbound0", net.Outbound(0), LinkStats{Sent: Counter{11, 1308}, Delivered: Counter{11, 1308}}},
		{"Inbound1", net.Inbound(1), LinkStats{Sent: Counter{11, 1358}, Delivered: Counter{11, 1358}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Fatalf("got %+v, want %+v", tc.got, tc.want)
			}
		})
	}
}

func TestEndpoint(t *testing.T) {
	t.Run("UnknownPeer", func(t *testing.T) {
		_, eps := newNetwork(t, Config{}, 2)
		err := eps[0].Send(2, []byte("x"))
		if !errors.Is(err, transport.ErrUnknownPeer) || err.Error() != "transport: unknown peer 2" {
			t.Fatalf("Send to peer 2 of 2: got %v, want ErrUnknownPeer for peer 2", err)
		}
	})
	t.Run("SendToSelf", func(t *testing.T) {
		net, eps := newNetwork(t, Config{}, 1)
		if err := eps[0].Send(0, []byte("me")); err != nil {
			t.Fatal(err)
		}
		net.Advance(0)
		buf := make([]byte, 8)
		if n, from, ok, err := eps[0].Receive(buf); !ok || err != nil || from != 0 || string(buf[:n]) != "me" {
			t.Fatalf("got (%q, %v, %v, %v), want (\"me\", peer 0, true, nil)", buf[:n], from, ok, err)
		}
	})
	t.Run("ClosedReceiverDrops", func(t *testing.T) {
		net, eps := newNetwork(t, Config{Link: LinkConfig{Latency: Latency{Base: time.Millisecond}}}, 2)
		eps[0].Send(1, []byte("in flight"))
		eps[1].Close()
		eps[0].Send(1, []byte("after close"))
		net.RunUntilIdle()
		if st := net.Stats(0, 1); st.Dropped.Packets != 2 || st.Delivered.Packets != 0 {
			t.Fatalf("got %+v, want 2 dropped", st)
		}
	})
	t.Run("InboxLimit", func(t *testing.T) {
		net, eps := newNetwork(t, Config{InboxLimit: 4}, 2)
		for range 6 {
			eps[0].Send(1, []byte("x"))
		}
		net.Advance(0)
		if st := net.Stats(0, 1); eps[1].in.n != 4 || st.Dropped.Packets != 2 {
			t.Fatalf("got %d pending and %d dropped, want 4 and 2", eps[1].in.n, st.Dropped.Packets)
		}
	})
	t.Run("InboxGrowsInOrder", func(t *testing.T) {
		net, eps := newNetwork(t, Config{}, 2)
		buf := make([]byte, 8)
		// Interleave sends and receives so the ring wraps, then grows.
		next, want := byte(0), byte(0)
		for round := range 20 {
			for range round {
				eps[0].Send(1, []byte{next})
				next++
			}
			net.Advance(0)
			for range round / 2 {
				n, _, ok, _ := eps[1].Receive(buf)
				if !ok || n != 1 || buf[0] != want {
					t.Fatalf("got (%v, %x), want %x", ok, buf[:n], want)
				}
				want++
			}
		}
	})
}

func TestVirtualTime(t *testing.T) {
	net, eps := newNetwork(t, Config{Link: LinkConfig{Latency: Latency{Base: 30 * time.Millisecond}}}, 2)
	if _, ok := net.Next(); ok {
		t.Fatal("Next on an idle network: got ok, want false")
	}
	eps[0].Send(1, []byte("a"))
	t.Run("Next", func(t *testing.T) {
		if at, ok := net.Next(); !ok || at != 30*time.Millisecond {
			t.Fatalf("Next: got (%v, %v), want (30ms, true)", at, ok)
		}
		if len(net.flights.items) != 1 {
			t.Fatalf("InFlight: got %d, want 1", len(net.flights.items))
		}
	})
	t.Run("NotBeforeArrival", func(t *testing.T) {
		net.Advance(30*time.Millisecond - 1)
		if eps[1].in.n != 0 {
			t.Fatal("datagram delivered 1ns early")
		}
	})
	t.Run("BackwardsIsNoop", func(t *testing.T) {
		before := net.Now()
		net.Advance(-time.Second)
		net.RunUntil(0)
		if net.Now() != before || eps[1].in.n != 0 {
			t.Fatalf("Now: got %v, want %v unchanged", net.Now(), before)
		}
	})
	t.Run("AtArrival", func(t *testing.T) {
		net.Advance(1)
		if net.Now() != 30*time.Millisecond || eps[1].in.n != 1 {
			t.Fatalf("at %v: %d pending, want 1 at 30ms", net.Now(), eps[1].in.n)
		}
	})
	t.Run("Saturates", func(t *testing.T) {
		net.Advance(1<<63 - 1)
		if net.Now() != 1<<63-1 {
			t.Fatalf("Now: got %v, want the largest Duration", net.Now())
		}
	})
}

func TestSetLink(t *testing.T) {
	net, _ := newNetwork(t, Config{}, 2)
	schedule := []Step{{At: time.Second, Latency: Latency{Base: time.Millisecond}}}
	if err := net.SetLink(0, 1, LinkConfig{Schedule: schedule}); err != nil {
		t.Fatal(err)
	}
	schedule[0].At = 5 * time.Second // the caller's slice is not retained
	if got := net.link(0, 1).shaper.cfg.Schedule[0].At; got != time.Second {
		t.Fatalf("schedule step: got %v, want 1s (copied by SetLink)", got)
	}
	if err := net.SetLink(1, 0, LinkConfig{Loss: 2}); !errors.Is(err, transport.ErrInvalidConfig) {
		t.Fatalf("SetLink with Loss 2: got %v, want transport.ErrInvalidConfig", err)
	}
	if got := net.link(1, 0).shaper.cfg.Loss; got != 0 {
		t.Fatalf("Loss after a rejected SetLink: got %v, want 0", got)
	}
}

// A closed endpoint's ID can be opened again, as a restarted process
// binds its port: datagrams that reach the ID from then on, even those
// sent before, arrive at the new endpoint; an open ID or an unknown one
// cannot be reopened.
func TestReopen(t *testing.T) {
	net, eps := newNetwork(t, Config{Link: LinkConfig{Latency: Latency{Base: time.Millisecond}}}, 2)
	if _, err := net.Reopen(1); !errors.Is(err, transport.ErrInvalidConfig) {
		t.Fatalf("Reopen of an open endpoint: %v, want ErrInvalidConfig", err)
	}
	if _, err := net.Reopen(2); !errors.Is(err, transport.ErrUnknownPeer) {
		t.Fatalf("Reopen of an unknown ID: %v, want ErrUnknownPeer", err)
	}
	if err := eps[0].Send(1, []byte("old")); err != nil {
		t.Fatal(err)
	}
	if err := eps[1].Close(); err != nil {
		t.Fatal(err)
	}
	again, err := net.Reopen(1)
	if err != nil || again.ID() != 1 {
		t.Fatalf("Reopen(1) = %v, %v", again, err)
	}
	if err := eps[0].Send(1, []byte("new")); err != nil {
		t.Fatal(err)
	}
	net.RunUntilIdle()
	buf := make([]byte, 8)
	for _, want := range []string{"old", "new"} {
		n, from, ok, err := again.Receive(buf)
		if !ok || err != nil || from != 0 || string(buf[:n]) != want {
			t.Fatalf("got (%q, %v, %v, %v), want %q from 0", buf[:n], from, ok, err, want)
		}
	}
	if _, _, _, err := eps[1].Receive(buf); !errors.Is(err, transport.ErrClosed) {
		t.Fatalf("the old endpoint: %v, want ErrClosed", err)
	}
}
