package endpoint

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

var link20ms = sim.LinkConfig{Latency: sim.Latency{Base: 20 * time.Millisecond}}

func TestHandshake(t *testing.T) {
	t.Run("two peers", func(t *testing.T) {
		m := newMesh(t, 2, link20ms, nil)
		m.step(0)
		m.run(200*time.Millisecond, time.Millisecond)
		for i, nd := range m.nodes {
			if got, want := nd.events, []Event{{Kind: EventConnected, Peer: 0, At: 40 * time.Millisecond}}; !slices.Equal(got, want) {
				t.Errorf("node %d events = %v, want %v", i, got, want)
			}
			s, _ := nd.ep.Peer(0)
			if s.State != StateConnected || s.HellosSent != 1 || s.RepliesSent != 1 {
				t.Errorf("node %d: state %v, %d Hellos, %d replies; want connected, 1, 1", i, s.State, s.HellosSent, s.RepliesSent)
			}
			if !nd.ep.Handshaken() {
				t.Errorf("node %d: Handshaken() = false", i)
			}
		}
	})
	t.Run("three peers", func(t *testing.T) {
		m := newMesh(t, 3, link20ms, nil)
		m.step(0)
		m.run(100*time.Millisecond, time.Millisecond)
		for i, nd := range m.nodes {
			for p := range core.PeerID(2) {
				if got := nd.ep.State(p); got != StateConnected {
					t.Errorf("node %d peer %d: state %v, want connected", i, p, got)
				}
			}
		}
	})
	t.Run("hello lost repeatedly", func(t *testing.T) {
		m := newMesh(t, 2, link20ms, nil)
		m.net.Cut(0, 1) // everything node 0 sends is lost until 350 ms
		m.step(0)
		m.run(350*time.Millisecond, time.Millisecond)
		for i, nd := range m.nodes {
			if got := nd.ep.State(0); got != StateHandshaking {
				t.Fatalf("node %d before the heal: state %v, want handshaking", i, got)
			}
		}
		m.net.Restore(0, 1)
		m.run(600*time.Millisecond, time.Millisecond)
		for i, nd := range m.nodes {
			if got, want := kinds(nd.events, 0), []EventKind{EventConnected}; !slices.Equal(got, want) {
				t.Fatalf("node %d events = %v, want %v", i, got, want)
			}
			if got, want := nd.events[0].At, 440*time.Millisecond; got != want {
				t.Errorf("node %d connected at %v, want %v", i, got, want)
			}
		}
		s, _ := m.nodes[0].ep.Peer(0)
		if s.HellosSent != 5 {
			t.Errorf("node 0 sent %d Hellos, want 5 (at 0, 100, 200, 300, 400 ms)", s.HellosSent)
		}
	})
	t.Run("lossy link", func(t *testing.T) {
		m := newMesh(t, 3, sim.LinkConfig{Latency: sim.Latency{Base: 50 * time.Millisecond}, Loss: 0.5}, nil)
		m.step(0)
		m.run(3*time.Second, 5*time.Millisecond)
		for i, nd := range m.nodes {
			if !nd.ep.Handshaken() {
				t.Errorf("node %d: not handshaken after 3 s at 50%% loss", i)
			}
			for p := range core.PeerID(2) {
				// Idle keep-alives at 50 % loss may leave 500 ms gaps:
				// interruptions are fine, the handshake must come first.
				if got := kinds(nd.events, p); len(got) == 0 || got[0] != EventConnected || !live(nd.ep.State(p)) {
					t.Errorf("node %d peer %d events = %v, want connected first", i, p, got)
				}
			}
		}
	})
}

func TestHandshakeMismatch(t *testing.T) {
	for _, tc := range []struct {
		name  string
		field string
		edit  func(d *wire.ConfigDigest)
	}{
		{"players", "Players", func(d *wire.ConfigDigest) { d.Players = 3 }},
		{"tick rate", "TickRate", func(d *wire.ConfigDigest) { d.TickRate = 30 }},
		{"checksum interval", "ChecksumInterval", func(d *wire.ConfigDigest) { d.ChecksumInterval = 4 }},
		{"game hash", "Game", func(d *wire.ConfigDigest) { d.Game[15] ^= 1 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newMesh(t, 2, link20ms, func(i int, c *Config) {
				if i == 1 {
					tc.edit(&c.Digest)
				}
			})
			m.step(0)
			m.run(time.Second, time.Millisecond)
			for i, nd := range m.nodes {
				checkRefused(t, i, nd.ep.State(0), nd.events, tc.field)
				if s, _ := nd.ep.Peer(0); s.HellosSent != 1 || s.InputsSent != 0 {
					t.Errorf("node %d sent %d Hellos and %d inputs after the refusal, want 1 and 0", i, s.HellosSent, s.InputsSent)
				}
			}
		})
	}
	t.Run("input size", func(t *testing.T) {
		// Peers with different input types, each sending the slots of its
		// engine: slotInput (testInput, 2 bytes, with its 8-byte control
		// word) and core.Slot[uint32] (12 bytes).
		nw, _ := sim.New(sim.Config{Link: link20ms})
		ca, cb := nw.NewEndpoint(), nw.NewEndpoint()
		a, err := New[slotInput](testConfig(t, 2, 1), ca, []transport.Addr{1})
		if err != nil {
			t.Fatal(err)
		}
		db, err := wire.DigestOf[engine.Slot[uint32]](2, 60, 1, [16]byte{'t', 'e', 's', 't'})
		if err != nil {
			t.Fatal(err)
		}
		b, err := New[engine.Slot[uint32]](Config{Token: testToken, Digest: db, Rand: rand.NewChaCha8([32]byte{2})}, cb, []transport.Addr{0})
		if err != nil {
			t.Fatal(err)
		}
		var evA, evB []Event
		for now := time.Duration(0); now <= time.Second; now += time.Millisecond {
			nw.RunUntil(now)
			mustNil(t, a.Tick(now))
			mustPoll(t)(a.Poll(now, nil))
			mustNil(t, b.Tick(now))
			mustPoll(t)(b.Poll(now, nil))
			evA, evB = append(evA, a.Events()...), append(evB, b.Events()...)
		}
		checkRefused(t, 0, a.State(0), evA, "InputSize")
		checkRefused(t, 1, b.State(0), evB, "InputSize")
	})
	t.Run("protocol", func(t *testing.T) {
		m := newMesh(t, 2, link20ms, nil)
		h := wire.Hello{Protocol: wire.Protocol + 1, Nonce: 7, Config: m.nodes[1].ep.Config().Digest}
		p, _ := wire.AppendHello(nil, testKey, 0, &h)
		rawSend(t, m.nodes[0].conn, 1, p)
		m.step(0)
		m.run(100*time.Millisecond, time.Millisecond)
		evs := m.nodes[1].events
		if len(evs) != 1 || evs[0].Kind != EventRefused {
			t.Fatalf("events = %v, want one refusal", evs)
		}
		if !errors.Is(evs[0].Err, wire.ErrBadVersion) || !errors.Is(evs[0].Err, ErrRefused) {
			t.Errorf("Err = %v, want a *HandshakeError wrapping a *wire.VersionError", evs[0].Err)
		}
	})
}

// checkRefused checks that node i refused peer 0 once, naming field.
func checkRefused(t *testing.T, i int, st PeerState, evs []Event, field string) {
	t.Helper()
	if st != StateRefused {
		t.Errorf("node %d: state %v, want refused", i, st)
	}
	if got := kinds(evs, 0); !slices.Equal(got, []EventKind{EventRefused}) {
		t.Fatalf("node %d events = %v, want [refused]", i, got)
	}
	err := evs[0].Err
	var he *HandshakeError
	var ce *wire.ConfigMismatchError
	switch {
	case !errors.As(err, &he) || !errors.Is(err, ErrRefused):
		t.Errorf("node %d: Err = %v, want a *HandshakeError", i, err)
	case !errors.As(err, &ce) || !errors.Is(err, wire.ErrConfigMismatch):
		t.Errorf("node %d: Err = %v, want a *wire.ConfigMismatchError", i, err)
	case ce.Field != field:
		t.Errorf("node %d: mismatch names %q, want %q (%v)", i, ce.Field, field, err)
	}
}

func mustNil(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func mustPoll(t testing.TB) func(int, error) {
	return func(_ int, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
}
