package rollback

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rollstep/rollstep"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/probe"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

const testToken = 0x5eed_0f_7011_bac4

// recGame is pairGame that records the checksum of the state after every
// simulation of a frame; a later simulation of the frame overwrites it, so
// for a confirmed frame the record is the confirmed state's.
type recGame struct {
	pairGame
	sums  []uint64
	max   int32
	steps int // calls of Step, re-simulations included
}

func newRecGame(frames int) *recGame {
	return &recGame{pairGame: pairGame{leakAt: -1}, sums: make([]uint64, frames)}
}

func (g *recGame) Step(s *pair, in []core.Input[uint16], fx core.Effects) {
	g.pairGame.Step(s, in, fx)
	g.steps++
	if f := s.Frame - 1; int(f) < len(g.sums) {
		g.sums[f] = state.Checksum(s)
		g.max = max(g.max, f)
	}
}

// node is one session of a test match.
type node struct {
	s      *Session[pair, uint16]
	conn   *sim.Endpoint
	game   *recGame
	events []core.Event
	mute   bool // Update is not called (the process is frozen)
	slow   int  // per mille by which this node's clock runs slow
	closed bool
	// once gives one input per frame, as a lockstep game does (its inputs
	// queue), instead of one per Update; added is the frame of the last.
	once  bool
	added core.Frame
}

// match is n sessions on one virtual-time network, each owning player i.
type match struct {
	t      testing.TB
	net    *sim.Network
	nodes  []*node
	render time.Duration // how often every node's Update runs
	input  func(p core.PlayerHandle, f core.Frame) uint16
}

func seedReader(seed uint64) *rand.ChaCha8 {
	var b [32]byte
	for i := range 8 {
		b[i] = byte(seed >> (8 * i))
	}
	return rand.NewChaCha8(b)
}

// testConfig returns node i's Config of an n-node match.
func testConfig(n, i int, seed uint64) Config {
	c := Config{Mode: rollstep.Rollback, Players: n, Local: []core.PlayerHandle{core.PlayerHandle(i)}, Game: [16]byte{'t'}}
	for j := range n {
		if j != i {
			c.Peers = append(c.Peers, rollstep.Peer{Addr: transport.Addr(j), Players: []core.PlayerHandle{core.PlayerHandle(j)}})
		}
	}
	c.Transport.Token = testToken
	c.Transport.Rand = seedReader(seed*31 + uint64(i))
	return c
}

// defaultInput changes every few frames, differently per player, so
// prediction (repeat the last input) is often wrong.
func defaultInput(p core.PlayerHandle, f core.Frame) uint16 {
	x := uint32(f/core.Frame(3+p))*2654435761 + uint32(p)*40503
	return uint16(x >> 13)
}

// newMatch builds n sessions; cfg may change node i's Config.
func newMatch(t testing.TB, n int, seed uint64, link sim.LinkConfig, cfg func(i int, c *Config)) *match {
	t.Helper()
	nw, err := sim.New(sim.Config{Seed: seed, Link: link})
	if err != nil {
		t.Fatalf("sim.New: %v", err)
	}
	m := &match{t: t, net: nw, render: time.Second / 120, input: defaultInput}
	for range n {
		m.nodes = append(m.nodes, &node{conn: nw.NewEndpoint(), game: newRecGame(1 << 14)})
	}
	for i, nd := range m.nodes {
		c := testConfig(n, i, seed)
		if cfg != nil {
			cfg(i, &c)
		}
		nd.s, err = NewSession[pair, uint16](c, nd.game, pair{}, nd.conn)
		if err != nil {
			t.Fatalf("NewSession(node %d): %v", i, err)
		}
	}
	return m
}

// step moves virtual time to now and updates every node.
func (m *match) step(now time.Duration) {
	m.t.Helper()
	m.net.RunUntil(now)
	for i, nd := range m.nodes {
		if nd.mute || nd.closed {
			continue
		}
		if p := core.PlayerHandle(i); !nd.once || nd.s.Frame() >= nd.added {
			nd.added = nd.s.Frame() + 1
			if err := nd.s.AddLocalInput(p, m.input(p, nd.s.Frame())); err != nil {
				m.t.Fatalf("node %d AddLocalInput: %v", i, err)
			}
		}
		local := now - now/1000*time.Duration(nd.slow)
		if err := nd.s.Update(local); err != nil {
			m.t.Fatalf("node %d Update(%v): %v", i, local, err)
		}
		nd.events = keep(nd.events, nd.s.Events())
	}
}

// run steps the match for d of virtual time.
func (m *match) run(d time.Duration) {
	end := m.net.Now() + d
	for now := m.net.Now() + m.render; now <= end; now += m.render {
		m.step(now)
	}
}

// runUntil steps until every live node's confirmed frame reaches f, or
// limit of virtual time passes.
func (m *match) runUntil(f core.Frame, limit time.Duration) bool {
	end := m.net.Now() + limit
	for now := m.net.Now() + m.render; now <= end; now += m.render {
		m.step(now)
		done := true
		for _, nd := range m.nodes {
			if nd.mute || nd.closed {
				continue
			}
			if c, ok := nd.s.ConfirmedFrame(); !ok || c < f {
				done = false
			}
		}
		if done {
			return true
		}
	}
	return false
}

// checkAgreement fails the test unless every pair of live nodes recorded
// the same checksum for every frame both confirmed, and no node saw a
// desync; it returns the number of frames compared.
func (m *match) checkAgreement() int {
	m.t.Helper()
	common := core.Frame(1<<31 - 1)
	for i, nd := range m.nodes {
		if nd.mute {
			continue // frozen or cut off: it may rightly disagree
		}
		for _, ev := range nd.events {
			switch e := ev.(type) {
			case core.DesyncEvent[pair]:
				m.t.Errorf("node %d: desync with peer %d at frame %d", i, e.Peer, e.Frame)
			case core.SyncTestEvent:
				m.t.Errorf("node %d: sync test failed at frame %d", i, e.Frame)
			}
		}
		if st := probe.EngineStats(nd.s); st.LostCorrections != 0 || st.UncheckedFrames != 0 {
			m.t.Errorf("node %d: LostCorrections %d, UncheckedFrames %d", i, st.LostCorrections, st.UncheckedFrames)
		}
		c, ok := nd.s.ConfirmedFrame()
		if !ok {
			m.t.Fatalf("node %d confirmed no frame", i)
		}
		common = min(common, c)
	}
	for f := core.Frame(0); f <= common; f++ {
		want := m.nodes[0].game.sums[f]
		for i, nd := range m.nodes[1:] {
			if nd.mute {
				continue
			}
			if got := nd.game.sums[f]; got != want {
				m.t.Fatalf("frame %d: node %d checksum %#x, node 0 %#x", f, i+1, got, want)
			}
		}
	}
	return int(common) + 1
}

// count returns how many events of node i satisfy match.
func (m *match) count(i int, match func(core.Event) bool) int {
	n := 0
	for _, ev := range m.nodes[i].events {
		if match(ev) {
			n++
		}
	}
	return n
}

// keep appends evs to dst, copying each *StallEvent (valid only until the
// next Events call) into a value.
func keep(dst, evs []core.Event) []core.Event {
	for _, ev := range evs {
		if st, ok := ev.(*core.StallEvent); ok {
			ev = *st
		}
		dst = append(dst, ev)
	}
	return dst
}
