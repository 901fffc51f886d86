package rollstep

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

var offered = MatchConfig{Players: 3, TickRate: 20, Seed: 0xfeed, Game: [16]byte{1, 2, 3}, Params: []byte("map=canyon;units=300")}

// negotiate runs an authority and followers over net until all are done
// or the deadline passes, and returns each side's Negotiation.
func negotiate(t *testing.T, net *sim.Network, conns []*sim.Endpoint, adopt func(int, MatchConfig) error, until time.Duration) []*Negotiation {
	t.Helper()
	cfg := NegotiationConfig{Token: 5}
	var followers []transport.PeerID
	for _, c := range conns[1:] {
		followers = append(followers, c.ID())
	}
	a, err := NewOffer(conns[0], cfg, followers, offered)
	if err != nil {
		t.Fatal(err)
	}
	ns := []*Negotiation{a}
	for i := range conns[1:] {
		n, err := NewAccept(conns[i+1], cfg, conns[0].ID(), func(m MatchConfig) error { return adopt(i+1, m) })
		if err != nil {
			t.Fatal(err)
		}
		ns = append(ns, n)
	}
	for now := time.Duration(0); now < until; now += 5 * ms {
		net.RunUntil(now)
		all := true
		for _, n := range ns {
			done, err := n.Update(now)
			if err != nil {
				return ns
			}
			all = all && done
		}
		if all {
			break
		}
	}
	return ns
}

// TestNegotiateThenPlay: over a lossy link the authority's offer reaches
// both followers, who build the initial state from it; the lockstep
// sessions built next (Game = the config's digest) play in agreement.
func TestNegotiateThenPlay(t *testing.T) {
	net, err := sim.New(sim.Config{Seed: 8, Link: sim.LinkConfig{Latency: sim.Latency{Base: 40 * ms, Jitter: 10 * ms}, Loss: 0.3}})
	if err != nil {
		t.Fatal(err)
	}
	conns := []*sim.Endpoint{net.NewEndpoint(), net.NewEndpoint(), net.NewEndpoint()}
	adopted := make([]MatchConfig, 3)
	ns := negotiate(t, net, conns, func(i int, m MatchConfig) error { adopted[i] = m; return nil }, 10*time.Second)
	adopted[0] = ns[0].Config()
	for i, n := range ns {
		if done, err := n.Update(0); !done || err != nil {
			t.Fatalf("peer %d: done %v, %v", i, done, err)
		}
		if !bytes.Equal(adopted[i].Params, offered.Params) || adopted[i].Digest() != offered.Digest() {
			t.Fatalf("peer %d adopted %+v", i, adopted[i])
		}
	}
	// Build the match from the agreed config.
	var sessions []Session[gState, gInput]
	for i, c := range conns {
		cfg := Config{Mode: Lockstep, Players: adopted[i].Players, TickRate: adopted[i].TickRate,
			Local: []core.PlayerHandle{core.PlayerHandle(i)}, Game: adopted[i].Digest()}
		for j, o := range conns {
			if j != i {
				cfg.Peers = append(cfg.Peers, Peer{Addr: o.ID(), Players: []core.PlayerHandle{core.PlayerHandle(j)}})
			}
		}
		cfg.Transport.Token = 5
		cfg.Transport.Rand = rand.NewChaCha8([32]byte{byte(i), 8})
		p := &gPeer{}
		s, err := NewSession(cfg, core.GameFunc[gState, gInput](p.step), gState{Hash: adopted[i].Seed}, c)
		if err != nil {
			t.Fatal(err)
		}
		sessions = append(sessions, s)
	}
	for now := time.Duration(0); now < 10*time.Second; now += 5 * ms {
		net.RunUntil(now)
		for i, s := range sessions {
			_ = s.AddLocalInput(core.PlayerHandle(i), gInput{Buttons: uint32(now / ms)})
			if err := s.Update(now); err != nil {
				t.Fatal(err)
			}
		}
	}
	f := min(sessions[0].Frame(), sessions[1].Frame(), sessions[2].Frame())
	if f < 100 {
		t.Fatalf("only %d turns", f)
	}
	for i, s := range sessions {
		if st := s.Stats(); st.Engine.Desyncs != 0 || st.Engine.ConfirmedEnd < 100 {
			t.Fatalf("peer %d: %d desyncs, confirmed end %d", i, st.Engine.Desyncs, st.Engine.ConfirmedEnd)
		}
	}
}

// TestNegotiateAcksLost: a follower's acknowledgements are all lost; the
// authority completes when the follower's session Hello gets through.
func TestNegotiateAcksLost(t *testing.T) {
	net, _ := sim.New(sim.Config{Seed: 9, Link: sim.LinkConfig{Latency: sim.Latency{Base: 20 * ms}}})
	conns := []*sim.Endpoint{net.NewEndpoint(), net.NewEndpoint()}
	net.Cut(conns[1].ID(), conns[0].ID())
	ns := negotiate(t, net, conns, func(int, MatchConfig) error { return nil }, time.Second)
	if done, _ := ns[1].Update(time.Second); !done {
		t.Fatal("follower did not adopt")
	}
	if done, _ := ns[0].Update(time.Second); done {
		t.Fatal("authority done without any acknowledgement")
	}
	// The follower starts its session; its Hellos reach the authority.
	net.Restore(conns[1].ID(), conns[0].ID())
	cfg := Config{Mode: Lockstep, Players: 2, Local: []core.PlayerHandle{1},
		Peers: []Peer{{Addr: conns[0].ID(), Players: []core.PlayerHandle{0}}}, Game: offered.Digest()}
	cfg.Transport.Token = 5
	s, err := NewSession(cfg, core.GameFunc[gState, gInput](func(*gState, []core.Input[gInput], *core.Effects) {}), gState{}, conns[1])
	if err != nil {
		t.Fatal(err)
	}
	for now := time.Second; now < 2*time.Second; now += 5 * ms {
		net.RunUntil(now)
		_ = s.Update(now)
		if done, err := ns[0].Update(now); err != nil {
			t.Fatal(err)
		} else if done {
			return
		}
	}
	t.Fatal("authority never completed")
}

func TestNegotiateRefusedAndTimeout(t *testing.T) {
	net, _ := sim.New(sim.Config{Seed: 10})
	conns := []*sim.Endpoint{net.NewEndpoint(), net.NewEndpoint()}
	no := errors.New("map not installed")
	ns := negotiate(t, net, conns, func(int, MatchConfig) error { return no }, time.Second)
	net.RunUntil(time.Second)
	if _, err := ns[1].Update(time.Second); !errors.Is(err, no) {
		t.Fatalf("follower: %v, want its adopt error", err)
	}
	if _, err := ns[0].Update(time.Second); !errors.Is(err, ErrOfferRefused) {
		t.Fatalf("authority: %v, want ErrOfferRefused", err)
	}
	net2, _ := sim.New(sim.Config{Seed: 11})
	lonely, silent := net2.NewEndpoint(), net2.NewEndpoint()
	a, _ := NewOffer(lonely, NegotiationConfig{Timeout: time.Second}, []transport.PeerID{silent.ID()}, offered)
	_, _ = a.Update(0)
	if _, err := a.Update(time.Second); !errors.Is(err, ErrNegotiationTimeout) {
		t.Fatalf("Update: %v, want ErrNegotiationTimeout", err)
	}
	if _, err := NewOffer(lonely, NegotiationConfig{}, nil, MatchConfig{Players: 0, TickRate: 1}); !errors.Is(err, ErrBadMatchConfig) {
		t.Fatalf("NewOffer: %v", err)
	}
}

// TestDecodePacketTruncated: every strict prefix of a valid offer, and
// the offer under another token, is rejected.
func TestDecodePacketTruncated(t *testing.T) {
	p := appendPacket(nil, kindOffer, 7, offered.Digest(), &offered)
	if _, _, m, err := decodePacket(p, 7); err != nil || m.Digest() != offered.Digest() {
		t.Fatalf("round trip: %v", err)
	}
	for n := range len(p) {
		if _, _, _, err := decodePacket(p[:n], 7); err == nil {
			t.Fatalf("prefix of %d bytes decoded", n)
		}
	}
	if _, _, _, err := decodePacket(p, 8); err == nil {
		t.Fatal("decoded under another token")
	}
}

func FuzzDecodePacket(f *testing.F) {
	f.Add(appendPacket(nil, kindOffer, 7, offered.Digest(), &offered))
	f.Add(appendPacket(nil, kindAck, 7, offered.Digest(), nil))
	f.Add([]byte("RSN1"))
	f.Fuzz(func(t *testing.T, p []byte) {
		kind, digest, m, err := decodePacket(p, 7)
		if err != nil {
			return
		}
		if kind == kindOffer {
			if q := appendPacket(nil, kind, 7, digest, &m); !bytes.Equal(q, p) {
				t.Fatalf("re-encoding differs")
			}
		}
	})
}
