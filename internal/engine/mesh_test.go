package engine

import (
	"errors"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
)

// mesh is a hand-driven network for edge-case tests: each engine's newest
// message to each peer is kept, and the test decides when to deliver it.
type mesh struct {
	t      *testing.T
	engs   []*Engine[testState, testInput]
	games  []*testGame
	latest [][]*Message[Slot[testInput]] // [from][to]
	last   []Ready[testInput]
	inputs func(p int, f core.Frame) testInput
	now    time.Duration
}

// newMesh builds n engines, engine i owning player i, with D and W.
func newMesh(t *testing.T, n, d, w int, inputs func(p int, f core.Frame) testInput) *mesh {
	return newMeshWith(t, n, inputs, func(_ int, c *Config) { c.InputDelay, c.Prediction = d, w })
}

// newMeshWith builds n engines, engine i owning player i, with
// MaxPrediction 8; cfg(i, c) sets the rest of engine i's config.
func newMeshWith(t *testing.T, n int, inputs func(p int, f core.Frame) testInput, cfg func(i int, c *Config)) *mesh {
	m := &mesh{t: t, inputs: inputs, latest: make([][]*Message[Slot[testInput]], n), last: make([]Ready[testInput], n)}
	for i := 0; i < n; i++ {
		c := Config{Players: n, Local: []core.PlayerHandle{core.PlayerHandle(i)}, MaxPrediction: 8}
		for j := 0; j < n; j++ {
			if j != i {
				c.Peers = append(c.Peers, []core.PlayerHandle{core.PlayerHandle(j)})
			}
		}
		cfg(i, &c)
		g := &testGame{}
		e, err := NewEngine[testState, testInput](c, g, &testState{})
		if err != nil {
			t.Fatal(err)
		}
		m.engs = append(m.engs, e)
		m.games = append(m.games, g)
		m.latest[i] = make([]*Message[Slot[testInput]], n)
	}
	return m
}

// peerID returns engine i's PeerID for engine j.
func peerID(i, j int) core.PeerID {
	if j < i {
		return core.PeerID(j)
	}
	return core.PeerID(j - 1)
}

// advance gives engine i its input for frame+D and advances it once.
func (m *mesh) advance(i int) Ready[testInput] {
	m.t.Helper()
	e := m.engs[i]
	d, _ := e.InputDelay(core.PlayerHandle(i))
	err := e.AddLocalInput(core.PlayerHandle(i), m.inputs(i, e.Frame()+core.Frame(d)))
	if err != nil && !errors.Is(err, ErrInputDiscarded) {
		m.t.Fatalf("engine %d: %v", i, err)
	}
	m.now += time.Millisecond
	r := e.Advance(m.now)
	for _, o := range r.Messages {
		j := int(o.To)
		if j >= i {
			j++
		}
		m.latest[i][j] = cloneMessage(o.Message)
	}
	m.last[i] = *r
	return *r
}

// deliver hands engine from's newest message to engine to.
func (m *mesh) deliver(from, to int) {
	m.t.Helper()
	msg := m.latest[from][to]
	if msg == nil {
		return
	}
	if err := m.engs[to].Receive(m.now, peerID(to, from), msg); err != nil {
		m.t.Fatalf("deliver %d->%d: %v", from, to, err)
	}
}

// exchange delivers every newest message.
func (m *mesh) exchange() {
	for i := range m.engs {
		for j := range m.engs {
			if i != j {
				m.deliver(i, j)
			}
		}
	}
}

// settle runs every engine to frame end with full exchange and checks the
// final states against the oracle.
func (m *mesh) settle(end core.Frame) {
	m.t.Helper()
	for k := 0; k < 10*int(end)+100; k++ {
		done := true
		for i, e := range m.engs {
			d, _ := e.InputDelay(core.PlayerHandle(i))
			if e.Frame()+core.Frame(d) < end {
				m.advance(i)
			} else {
				r := e.Advance(m.now)
				m.last[i] = *r
				for _, o := range r.Messages {
					j := int(o.To)
					if j >= i {
						j++
					}
					m.latest[i][j] = cloneMessage(o.Message)
				}
			}
			if f, ok := e.ConfirmedFrame(); e.Frame() < end || !ok || f < end-1 {
				done = false
			}
		}
		m.exchange()
		if done {
			break
		}
	}
	want := refRun(len(m.engs), end, m.inputs)
	for i, e := range m.engs {
		if e.Frame() != end {
			m.t.Fatalf("engine %d at frame %d, want %d", i, e.Frame(), end)
		}
		if *e.State() != want {
			m.t.Fatalf("engine %d final state differs from the oracle", i)
		}
		if st := e.Stats(); st.LostCorrections != 0 {
			m.t.Fatalf("engine %d lost %d corrections", i, st.LostCorrections)
		}
	}
}
