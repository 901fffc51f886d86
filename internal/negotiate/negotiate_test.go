package negotiate

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

var offered = MatchConfig{Players: 3, TickRate: 20, Seed: 0xfeed, Game: [16]byte{1, 2, 3}, Params: []byte("map=canyon;units=300")}

// negotiate runs an authority and followers over net until all are done
// or the deadline passes, and returns each side's Negotiation.
func negotiate(t *testing.T, net *sim.Network, conns []*sim.Endpoint, adopt func(int, MatchConfig) error, until time.Duration) []*Negotiation {
	t.Helper()
	return negotiateTapped(t, net, conns, 5, nil, adopt, until)
}

// negotiateTapped is negotiate under session token token; when sent is not
// nil, it appends a copy of every datagram any side sends.
func negotiateTapped(t *testing.T, net *sim.Network, conns []*sim.Endpoint, token uint64, sent *[][]byte, adopt func(int, MatchConfig) error, until time.Duration) []*Negotiation {
	t.Helper()
	cfg := NegotiationConfig{Token: token}
	var followers []transport.Addr
	cs := make([]transport.Conn, len(conns))
	for i, c := range conns {
		cs[i] = c
		if sent != nil {
			cs[i] = tapConn{c, sent}
		}
		if i > 0 {
			followers = append(followers, c.ID())
		}
	}
	a, err := NewOffer(cs[0], cfg, followers, offered)
	if err != nil {
		t.Fatal(err)
	}
	ns := []*Negotiation{a}
	for i := range conns[1:] {
		n, err := NewAccept(cs[i+1], cfg, conns[0].ID(), func(m MatchConfig) error { return adopt(i+1, m) })
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
	var sessions []*rollstep.Session[gState, gInput]
	for i, c := range conns {
		cfg := rollstep.Config{Mode: rollstep.Lockstep, Players: adopted[i].Players, TickRate: adopted[i].TickRate,
			Local: []core.PlayerHandle{core.PlayerHandle(i)}, Game: adopted[i].Digest()}
		for j, o := range conns {
			if j != i {
				cfg.Peers = append(cfg.Peers, rollstep.Peer{Addr: o.ID(), Players: []core.PlayerHandle{core.PlayerHandle(j)}})
			}
		}
		cfg.Transport.Token = 5
		cfg.Transport.Rand = rand.NewChaCha8([32]byte{byte(i), 8})
		s, err := rollstep.NewSession(cfg, core.GameFunc[gState, gInput](step), gState{Hash: adopted[i].Seed}, c)
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
		if c, _ := s.ConfirmedFrame(); s.Stats().Desyncs != 0 || c < 99 {
			t.Fatalf("peer %d: %d desyncs, confirmed frame %d", i, s.Stats().Desyncs, c)
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
	cfg := rollstep.Config{Mode: rollstep.Lockstep, Players: 2, Local: []core.PlayerHandle{1},
		Peers: []rollstep.Peer{{Addr: conns[0].ID(), Players: []core.PlayerHandle{0}}}, Game: offered.Digest()}
	cfg.Transport.Token = 5
	s, err := rollstep.NewSession(cfg, core.GameFunc[gState, gInput](func(*gState, []core.Input[gInput], core.Effects) {}), gState{}, conns[1])
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
	a, _ := NewOffer(lonely, NegotiationConfig{Timeout: time.Second}, []transport.Addr{silent.ID()}, offered)
	_, _ = a.Update(0)
	if _, err := a.Update(time.Second); !errors.Is(err, ErrNegotiationTimeout) {
		t.Fatalf("Update: %v, want ErrNegotiationTimeout", err)
	}
	if _, err := NewOffer(lonely, NegotiationConfig{}, nil, MatchConfig{Players: 0, TickRate: 1}); !errors.Is(err, ErrBadMatchConfig) {
		t.Fatalf("NewOffer: %v", err)
	}
}

// tapConn is a Conn that keeps a copy of every datagram it sends.
type tapConn struct {
	transport.Conn
	sent *[][]byte
}

func (c tapConn) Send(to transport.Addr, p []byte) error {
	*c.sent = append(*c.sent, bytes.Clone(p))
	return c.Conn.Send(to, p)
}

// TestNegotiationHidesToken: no offer, acknowledgement or refusal carries
// the session token; each is a wire Match packet authenticated with it.
func TestNegotiationHidesToken(t *testing.T) {
	const token = 0x8877_6655_4433_2211
	tok := binary.LittleEndian.AppendUint64(nil, token)
	var sent [][]byte
	net, _ := sim.New(sim.Config{Seed: 12, Link: sim.LinkConfig{Latency: sim.Latency{Base: 30 * ms}, Loss: 0.3}})
	conns := []*sim.Endpoint{net.NewEndpoint(), net.NewEndpoint(), net.NewEndpoint()}
	ns := negotiateTapped(t, net, conns, token, &sent, func(int, MatchConfig) error { return nil }, 10*time.Second)
	if done, err := ns[0].Update(10 * time.Second); !done || err != nil {
		t.Fatalf("authority: done %v, %v", done, err)
	}
	net2, _ := sim.New(sim.Config{Seed: 13})
	conns2 := []*sim.Endpoint{net2.NewEndpoint(), net2.NewEndpoint()}
	negotiateTapped(t, net2, conns2, token, &sent, func(int, MatchConfig) error { return errors.New("no") }, time.Second)
	kinds := map[wire.MatchKind]int{}
	var m wire.Match
	for _, p := range sent {
		if bytes.Contains(p, tok) {
			t.Fatalf("packet %x contains the token", p)
		}
		if _, err := wire.DecodeMatch(p, wire.NewKey(token), nil, &m); err != nil {
			t.Fatalf("packet %x: %v", p, err)
		}
		kinds[m.Kind]++
	}
	if kinds[wire.MatchOffered] == 0 || kinds[wire.MatchAccepted] == 0 || kinds[wire.MatchRefused] == 0 {
		t.Fatalf("packets of each kind: %v", kinds)
	}
}

// TestNegotiateOtherToken: a follower under another token ignores the
// offer, and the authority times out.
func TestNegotiateOtherToken(t *testing.T) {
	net, _ := sim.New(sim.Config{Seed: 14})
	host, guest := net.NewEndpoint(), net.NewEndpoint()
	a, _ := NewOffer(host, NegotiationConfig{Token: 1, Timeout: time.Second}, []transport.Addr{guest.ID()}, offered)
	f, _ := NewAccept(guest, NegotiationConfig{Token: 2}, host.ID(), func(MatchConfig) error {
		t.Fatal("adopted an offer under another token")
		return nil
	})
	for now := time.Duration(0); now <= time.Second; now += 10 * ms {
		net.RunUntil(now)
		if done, err := f.Update(now); done || err != nil {
			t.Fatalf("follower: done %v, %v", done, err)
		}
		if _, err := a.Update(now); err != nil {
			if !errors.Is(err, ErrNegotiationTimeout) {
				t.Fatalf("authority: %v, want ErrNegotiationTimeout", err)
			}
			return
		}
	}
	t.Fatal("authority did not time out")
}

// fakeConn delivers queued datagrams from one address and records what is
// sent.
type fakeConn struct {
	from transport.Addr
	in   [][]byte
	sent [][]byte
}

func (c *fakeConn) Send(_ transport.Addr, p []byte) error {
	c.sent = append(c.sent, bytes.Clone(p))
	return nil
}

func (c *fakeConn) Receive(buf []byte) (int, transport.Addr, bool, error) {
	if len(c.in) == 0 {
		return 0, 0, false, nil
	}
	n := copy(buf, c.in[0])
	c.in = c.in[1:]
	return n, c.from, true, nil
}

func (c *fakeConn) Close() error { return nil }

// TestNegotiateNoAmplification: a follower's answer to an offer, however
// often the offer is replayed and however short it is, is never more
// bytes than the offer; it answers every offer.
func TestNegotiateNoAmplification(t *testing.T) {
	key := wire.NewKey(5)
	for _, params := range []int{0, 17, 18, 47, 48, MaxParams} {
		for _, refuse := range []bool{false, true} {
			m := offered
			m.Params = bytes.Repeat([]byte{'p'}, params)
			offer, err := wire.AppendMatch(nil, key, 9, &wire.Match{Kind: wire.MatchOffered, Offer: wire.MatchOffer{
				Players: uint8(m.Players), TickRate: uint16(m.TickRate), Seed: m.Seed, Game: m.Game, Params: m.Params}})
			if err != nil {
				t.Fatal(err)
			}
			c := &fakeConn{from: 1}
			f, _ := NewAccept(c, NegotiationConfig{Token: 5}, 1, func(MatchConfig) error {
				if refuse {
					return errors.New("no")
				}
				return nil
			})
			for i := range 4 {
				c.in, c.sent = [][]byte{offer}, nil
				_, _ = f.Update(time.Duration(i) * ms)
				if refuse && i > 0 {
					break // refusing is final: later offers go unanswered
				}
				total := 0
				for _, p := range c.sent {
					total += len(p)
				}
				if len(c.sent) == 0 || total > len(offer) {
					t.Fatalf("params %d, refuse %v, offer %d: %d replies of %d bytes to a %d-byte offer", params, refuse, i, len(c.sent), total, len(offer))
				}
			}
		}
	}
}

const ms = time.Millisecond

// gState hashes every input applied, in order.
type gState struct {
	Frame int32
	_     int32
	Hash  uint64
}

type gInput struct{ Buttons uint32 }

func step(s *gState, in []core.Input[gInput], _ core.Effects) {
	for i, x := range in {
		s.Hash = (s.Hash ^ uint64(i)<<40 ^ uint64(x.Value.Buttons)) * 0x100000001b3
	}
	s.Frame++
}
