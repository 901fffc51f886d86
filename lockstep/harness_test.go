package lockstep

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport/sim"
)

const ms = time.Millisecond

// tState is the test game's state: a running hash of every input applied,
// in order, and a per-player command counter that checks that command
// inputs arrive exactly once and in order.
type tState struct {
	Frame int32
	Bad   int32 // commands out of order, duplicated or lost
	Hash  uint64
	Next  [core.MaxPlayers]uint32 // next expected command of each player
	Gone  [core.MaxPlayers]int32  // frames with a disconnected input
}

// tInput is a command: Seq > 0 is the player's Seq-th command; 0 is none.
type tInput struct {
	Seq uint32
	Val uint32
}

// tPeer is one simulated peer of a match.
type tPeer struct {
	sess    *Session[tState, tInput]
	cfg     Config // the config sess was made with
	conn    *sim.Endpoint
	sums    []uint64 // sums[f]: checksum after the game's step f, as last simulated
	seq     uint32   // commands issued
	rng     *rand.Rand
	dead    bool // stopped calling Update
	events  []core.Event
	eventAt []time.Duration // when Update returned each of events
	lastF   core.Frame
	// predicts counts inputs Step got as predicted (never in lockstep).
	predicts int
	// every is the mean turns between commands; 0 means a command per turn.
	every int
}

func (p *tPeer) step(s *tState, in []core.Input[tInput], _ core.Effects) {
	for i, x := range in {
		switch x.Status {
		case core.InputPredicted:
			p.predicts++ // outside the state: Step must not depend on the status
		case core.InputDisconnected:
			s.Gone[i]++
			continue
		}
		if v := x.Value; v.Seq != 0 {
			if v.Seq != s.Next[i]+1 {
				s.Bad++
			}
			s.Next[i] = v.Seq
		}
		s.Hash = (s.Hash^uint64(i)<<56^uint64(x.Value.Seq)<<24^uint64(x.Value.Val))*0x100000001b3 + 1
	}
	f := int(s.Frame)
	s.Frame++
	for len(p.sums) <= f {
		p.sums = append(p.sums, 0)
	}
	p.sums[f] = state.Checksum(s)
}

// match is N peers over one simulated network.
type match struct {
	t     testing.TB
	net   *sim.Network
	peers []*tPeer
	now   time.Duration
	dt    time.Duration
	// lossyCommands: commands may be lost (they land on paused turns).
	lossyCommands bool
	// predicting: auto mode, inputs may be predicted (and re-simulated).
	predicting bool
}

// newMatch builds n peers, one player each, with configuration cfg (its
// Players, Local and Peers are filled in) over a network with link; each
// edit may change peer i's configuration last. The peers' addresses are
// 0..n-1, so the network's next endpoint is n.
func newMatch(t testing.TB, n int, seed uint64, link sim.LinkConfig, cfg Config, edit ...func(i int, c *Config)) *match {
	t.Helper()
	net, err := sim.New(sim.Config{Seed: seed, Link: link})
	if err != nil {
		t.Fatal(err)
	}
	m := &match{t: t, net: net, dt: 5 * ms}
	conns := make([]*sim.Endpoint, n)
	for i := range conns {
		conns[i] = net.NewEndpoint()
	}
	for i := range n {
		c := cfg
		c.Players = n
		c.Local = []core.PlayerHandle{core.PlayerHandle(i)}
		c.Peers = nil
		for j := range n {
			if j != i {
				c.Peers = append(c.Peers, rollstep.Peer{Addr: conns[j].ID(), Players: []core.PlayerHandle{core.PlayerHandle(j)}})
			}
		}
		c.Transport.Token = 0x5eed
		c.Transport.Rand = rand.NewChaCha8([32]byte{byte(i), byte(seed), byte(seed >> 8)})
		for _, e := range edit {
			e(i, &c)
		}
		p := &tPeer{conn: conns[i], rng: rand.New(rand.NewPCG(seed, uint64(i)))}
		s, err := NewSession(c, core.GameFunc[tState, tInput](p.step), tState{}, conns[i])
		if err != nil {
			t.Fatalf("peer %d: %v", i, err)
		}
		p.sess, p.cfg = s, c
		m.peers = append(m.peers, p)
	}
	return m
}

// peerID maps player j to the core.PeerID it has in peer i's session.
func peerID(i, j int) core.PeerID {
	if j < i {
		return core.PeerID(j)
	}
	return core.PeerID(j - 1)
}

// run advances virtual time to end in steps of m.dt, feeding each live
// peer a command per turn (or every p.every turns on average) and calling
// Update.
func (m *match) run(end time.Duration) {
	m.t.Helper()
	for m.now < end {
		m.now += m.dt
		m.net.RunUntil(m.now)
		for i, p := range m.peers {
			if p.dead {
				continue
			}
			m.feed(i, p)
			if err := p.sess.Update(m.now); err != nil {
				m.t.Fatalf("peer %d at %v: Update: %v", i, m.now, err)
			}
			p.collect(m.now)
		}
	}
}

// feed queues one command per turn that ran since the last call.
func (m *match) feed(i int, p *tPeer) {
	f := p.sess.Frame()
	for ; p.lastF < f || (p.lastF == 0 && f == 0 && p.seq == 0); p.lastF++ {
		if p.every > 1 && p.rng.IntN(p.every) != 0 {
			if f == 0 {
				break
			}
			continue
		}
		p.seq++
		if err := p.sess.AddLocalInput(core.PlayerHandle(i), tInput{Seq: p.seq, Val: p.rng.Uint32()}); err != nil {
			p.seq--
			break
		}
		if f == 0 {
			break
		}
	}
}

// check asserts that every pair of live peers agrees on every turn both
// ran, that nothing desynced, that no input was predicted and that every
// command arrived once and in order. It returns the fewest turns run.
func (m *match) check() core.Frame {
	m.t.Helper()
	minF := core.Frame(1 << 30)
	var ref *tPeer
	for i, p := range m.peers {
		if p.dead {
			continue
		}
		st := p.sess.Stats()
		if st.Desyncs != 0 {
			m.t.Errorf("peer %d: %d desyncs", i, st.Desyncs)
		}
		if s := p.sess.State(); (s.Bad != 0 && !m.lossyCommands) || (p.predicts != 0 && !m.predicting) {
			m.t.Errorf("peer %d: %d bad commands, %d predicted inputs", i, s.Bad, p.predicts)
		}
		for _, ev := range p.events {
			if _, ok := ev.(core.DesyncEvent[tState]); ok {
				m.t.Errorf("peer %d: %+v", i, ev)
			}
		}
		minF = min(minF, p.sess.Frame())
		if ref == nil {
			ref = p
		}
	}
	if ref == nil {
		m.t.Fatal("no live peer")
	}
	for j := range m.peers {
		if got := ref.sess.State().Next[j]; got == 0 && minF > 40 {
			m.t.Errorf("no command of player %d applied in %d turns", j, minF)
		}
	}
	// Compare the game steps every live peer ran and confirmed (in
	// lockstep every step is confirmed; in auto mode the tail may be
	// predicted).
	n := len(ref.sums)
	for _, p := range m.peers {
		if !p.dead {
			c, _ := p.sess.ConfirmedFrame()
			n = min(n, len(p.sums), int(c)+1)
		}
	}
	for i, p := range m.peers {
		if p.dead || p == ref {
			continue
		}
		for f := range n {
			if p.sums[f] != ref.sums[f] {
				m.t.Fatalf("peer %d: checksum of turn %d differs", i, f)
			}
		}
	}
	return minF
}

// collect keeps the events the session raised since the last call,
// returned at now.
func (p *tPeer) collect(now time.Duration) {
	for _, ev := range p.sess.Events() {
		p.events, p.eventAt = append(p.events, ev), append(p.eventAt, now)
	}
}

// peerEvent is a life-cycle event of a peer and when Update returned it.
type peerEvent struct {
	Peer core.PeerID
	At   time.Duration
}

// peerEvents returns p's life-cycle events of kind k (the endpoint's
// kinds, as the session reports them: a disconnect or a leave is a
// core.PeerLostEvent).
func peerEvents(p *tPeer, k endpoint.EventKind) []peerEvent {
	var out []peerEvent
	for i, ev := range p.events {
		var id core.PeerID
		ok := false
		switch e := ev.(type) {
		case core.ConnectedEvent:
			id, ok = e.Peer, k == endpoint.EventConnected
		case core.InterruptedEvent:
			id, ok = e.Peer, k == endpoint.EventInterrupted
		case core.ResumedEvent:
			id, ok = e.Peer, k == endpoint.EventResumed
		case core.SplitEvent:
			id, ok = e.Peer, k == endpoint.EventSplit
		case core.RefusedEvent:
			id, ok = e.Peer, k == endpoint.EventRefused
		case core.PeerLostEvent:
			id, ok = e.Peer, (k == endpoint.EventLeft) == e.Left && (k == endpoint.EventLeft || k == endpoint.EventDisconnected)
		}
		if ok {
			out = append(out, peerEvent{Peer: id, At: p.eventAt[i]})
		}
	}
	return out
}
