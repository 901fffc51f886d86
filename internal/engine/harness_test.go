package engine

import (
	"cmp"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
)

// The harness connects N engines, one player each (player i on node i),
// through a seeded fake network on virtual time: no goroutines, no sleeps.

type link struct {
	latency time.Duration // base one-way latency
	jitter  time.Duration // uniform extra latency in [0, jitter): reorders
	loss    int           // per mille
}

type packet struct {
	at       time.Duration
	seq      uint64
	from, to int
	msg      *Message[Slot[testInput]]
}

type node struct {
	eng      *Engine[testState, testInput]
	game     *testGame
	player   core.PlayerHandle
	peerNode []int // PeerID -> node
	peerID   []core.PeerID
	down     bool // crashed: sends and receives nothing
	events   []core.Event
	sums     map[core.Frame]uint64 // confirmed checksums
	stepAt   []time.Duration       // when each frame was first simulated
	stalls   int
	played   map[core.FrameEffect]int // effects delivered minus cancelled
}

type harness struct {
	t        testing.TB
	rng      *rand.Rand
	now      time.Duration
	tick     time.Duration
	nodes    []*node
	links    [][]link
	inflight []packet
	seq      uint64
	end      core.Frame // frames to simulate
	input    func(p int, f core.Frame) testInput
	sent     map[[2]int32]Slot[testInput] // every slot seen on the wire
	onTick   func(h *harness)
}

// newHarness builds n engines; cfg(i) may adjust node i's config.
func newHarness(t testing.TB, n int, seed uint64, end core.Frame, cfg func(i int, c *Config)) *harness {
	h := &harness{
		t: t, rng: rand.New(rand.NewPCG(seed, seed^0x5eed)), tick: 16 * time.Millisecond,
		end: end, sent: map[[2]int32]Slot[testInput]{},
	}
	h.input = func(p int, f core.Frame) testInput { return genInput(seed, p, f) }
	h.links = make([][]link, n)
	for i := range h.links {
		h.links[i] = make([]link, n)
	}
	for i := 0; i < n; i++ {
		c := DefaultConfig()
		c.Players = n
		c.Local = []core.PlayerHandle{core.PlayerHandle(i)}
		c.Peers = nil
		nd := &node{player: core.PlayerHandle(i), game: &testGame{effects: true}, sums: map[core.Frame]uint64{}, peerID: make([]core.PeerID, n), played: map[core.FrameEffect]int{}}
		for j := 0; j < n; j++ {
			nd.peerID[j] = -1
			if j != i {
				nd.peerID[j] = core.PeerID(len(c.Peers))
				c.Peers = append(c.Peers, []core.PlayerHandle{core.PlayerHandle(j)})
				nd.peerNode = append(nd.peerNode, j)
			}
		}
		c.LogRetention = 64
		if cfg != nil {
			cfg(i, &c)
		}
		e, err := NewEngine[testState, testInput](c, nd.game, &testState{})
		if err != nil {
			t.Fatalf("NewEngine(node %d): %v", i, err)
		}
		nd.eng = e
		h.nodes = append(h.nodes, nd)
	}
	return h
}

// setLinks gives every directed link the same profile.
func (h *harness) setLinks(l link) {
	for i := range h.links {
		for j := range h.links[i] {
			h.links[i][j] = l
		}
	}
}

// slots returns the slots carrying vs with no control word, as a test's
// hand-built message carries them.
func slots(vs ...testInput) []Slot[testInput] {
	s := make([]Slot[testInput], len(vs))
	for i, v := range vs {
		s[i].Value = v
	}
	return s
}

func cloneMessage(m *Message[Slot[testInput]]) *Message[Slot[testInput]] {
	c := *m
	c.Inputs = make([]InputRun[Slot[testInput]], len(m.Inputs))
	for i, r := range m.Inputs {
		c.Inputs[i] = InputRun[Slot[testInput]]{Player: r.Player, Start: r.Start, Values: slices.Clone(r.Values)}
	}
	c.Checksums = slices.Clone(m.Checksums)
	c.Blocks.Hashes = slices.Clone(m.Blocks.Hashes)
	return &c
}

// step runs one tick: deliver due packets, then give each node its input
// and advance it.
func (h *harness) step() {
	h.now += h.tick
	due := h.inflight[:0:0]
	rest := h.inflight[:0]
	for _, p := range h.inflight {
		if p.at <= h.now {
			due = append(due, p)
		} else {
			rest = append(rest, p)
		}
	}
	h.inflight = rest
	slices.SortFunc(due, func(a, b packet) int {
		return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.seq, b.seq))
	})
	for _, p := range due {
		to := h.nodes[p.to]
		if to.down || h.nodes[p.from].down {
			continue
		}
		if err := to.eng.Receive(h.now, to.peerID[p.from], p.msg); err != nil && !errors.Is(err, ErrPeerGone) {
			h.t.Fatalf("node %d receive from %d: %v", p.to, p.from, err)
		}
	}
	if h.onTick != nil {
		h.onTick(h)
	}
	for i, nd := range h.nodes {
		if nd.down {
			continue
		}
		h.advance(i, nd)
	}
}

func (h *harness) advance(i int, nd *node) {
	e := nd.eng
	d, _ := e.InputDelay(nd.player)
	if t := e.Frame() + core.Frame(d); t < h.end {
		err := e.AddLocalInput(nd.player, h.input(int(nd.player), t))
		if err != nil && !errors.Is(err, ErrInputDiscarded) {
			h.t.Fatalf("node %d AddLocalInput: %v", i, err)
		}
	}
	before := e.Frame()
	r := e.Advance(h.now)
	if r.Stalled {
		nd.stalls++
	}
	if e.Frame() > before {
		nd.stepAt = append(nd.stepAt, h.now)
	}
	nd.events = append(nd.events, r.Events...)
	for _, fe := range r.Effects {
		nd.played[fe]++
	}
	for _, fe := range r.Cancelled {
		if nd.played[fe]--; nd.played[fe] < 0 {
			h.t.Fatalf("node %d: cancelled effect %+v that was not playing", i, fe)
		}
	}
	// Record confirmed checksums.
	if f, ok := e.ConfirmedFrame(); ok {
		n := core.Frame(e.cfg.ChecksumInterval)
		for c := f - f%n; c >= 0; c -= n {
			if _, seen := nd.sums[c]; seen {
				break
			}
			if s, ok := e.sums.get(c, int(n)); ok {
				nd.sums[c] = s.sum
			}
		}
	}
	for _, o := range r.Messages {
		to := nd.peerNode[o.To]
		for _, run := range o.Message.Inputs {
			for k, v := range run.Values {
				key := [2]int32{int32(run.Player), int32(run.Start) + int32(k)}
				if old, ok := h.sent[key]; ok && old != v {
					h.t.Fatalf("player %d frame %d sent as %+v and as %+v", run.Player, key[1], old, v)
				}
				h.sent[key] = v
			}
		}
		l := h.links[i][to]
		if l.loss > 0 && h.rng.IntN(1000) < l.loss {
			continue
		}
		lat := l.latency
		if l.jitter > 0 {
			lat += time.Duration(h.rng.Int64N(int64(l.jitter)))
		}
		h.seq++
		h.inflight = append(h.inflight, packet{at: h.now + lat, seq: h.seq, from: i, to: to, msg: cloneMessage(o.Message)})
	}
}

// done reports whether every live node reached the end frame with it
// confirmed.
func (h *harness) done() bool {
	for _, nd := range h.nodes {
		if nd.down {
			continue
		}
		f, ok := nd.eng.ConfirmedFrame()
		if nd.eng.Frame() < h.end || !ok || f < h.end-1 {
			return false
		}
	}
	return true
}

// run ticks until done, failing after maxTicks.
func (h *harness) run(maxTicks int) {
	h.t.Helper()
	for k := 0; k < maxTicks; k++ {
		if h.done() {
			return
		}
		h.step()
	}
	for i, nd := range h.nodes {
		f, ok := nd.eng.ConfirmedFrame()
		h.t.Logf("node %d: frame %d confirmed %d,%v stalls %d", i, nd.eng.Frame(), f, ok, nd.stalls)
	}
	h.t.Fatalf("not done after %d ticks", maxTicks)
}

// checkAgreement fails unless every pair of live nodes agree on every
// confirmed checksum they both hold and on the final state.
func (h *harness) checkAgreement() {
	h.t.Helper()
	var ref *node
	for i, nd := range h.nodes {
		if nd.down {
			continue
		}
		for _, ev := range nd.events {
			if d, ok := ev.(core.DesyncEvent[testState]); ok {
				h.t.Fatalf("node %d: unexpected desync at frame %d with peer %d", i, d.Frame, d.Peer)
			}
			if s, ok := ev.(core.SyncTestEvent); ok {
				h.t.Fatalf("node %d: sync test failed at frame %d: %v", i, s.Frame, s.Paths)
			}
		}
		if st := nd.eng.Stats(); st.UncheckedFrames != 0 || st.LostCorrections != 0 {
			h.t.Fatalf("node %d: %d frames not checksummed, %d corrections lost", i, st.UncheckedFrames, st.LostCorrections)
		}
		if ref == nil {
			ref = nd
			continue
		}
		for fe, k := range nd.played {
			if k != ref.played[fe] {
				h.t.Fatalf("node %d plays effect %+v %d times, node %d %d times", i, fe, k, ref.player, ref.played[fe])
			}
		}
		if *nd.eng.State() != *ref.eng.State() {
			h.t.Fatalf("node %d final state differs from node %d", i, ref.player)
		}
		common := 0
		for f, s := range nd.sums {
			if r, ok := ref.sums[f]; ok {
				common++
				if r != s {
					h.t.Fatalf("node %d checksum at frame %d differs", i, f)
				}
			}
		}
		if common == 0 && !ref.eng.cfg.DisableChecksums {
			h.t.Fatalf("node %d shares no checksummed frame with node %d", i, ref.player)
		}
	}
}
