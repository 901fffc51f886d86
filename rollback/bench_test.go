package rollback

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/transport/sim"
)

// BenchmarkSessionFrame measures two sessions over a 50 ms link: one op
// is one frame period of both game loops (receive, rollback, step, send),
// against BenchmarkBareStep, the game's step alone, as a baseline.
func BenchmarkSessionFrame(b *testing.B) {
	m := newMatch(b, 2, 41, sim.LinkConfig{Latency: sim.Latency{Base: ms(50)}}, nil)
	m.render = time.Second / 60
	m.run(3 * time.Second)
	before := [2]rollstep.Stats{m.nodes[0].s.Stats(), m.nodes[1].s.Stats()}
	now := m.net.Now()
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		now += m.render
		m.net.RunUntil(now)
		for i, nd := range m.nodes {
			p := core.PlayerHandle(i)
			_ = nd.s.AddLocalInput(p, m.input(p, nd.s.Frame()))
			_ = nd.s.Update(now)
			nd.s.Events()
		}
		n++
	}
	var rb, rs uint64
	for i, nd := range m.nodes {
		st := nd.s.Stats()
		rb += st.Rollbacks - before[i].Rollbacks
		rs += st.ResimFrames - before[i].ResimFrames
	}
	b.ReportMetric(float64(rb)/float64(2*n), "rollbacks/frame")
	b.ReportMetric(float64(rs)/float64(2*n), "resim-frames/frame")
}

// BenchmarkBareStep is the baseline: two Step calls per op (one per
// peer), with no library around them.
func BenchmarkBareStep(b *testing.B) {
	g := pairGame{leakAt: -1}
	var s pair
	fx := engine.NewEffectList(0)
	in := make([]core.Input[uint16], 2)
	b.ReportAllocs()
	f := core.Frame(0)
	for b.Loop() {
		for range 2 {
			for p := range in {
				in[p] = core.Input[uint16]{Value: defaultInput(core.PlayerHandle(p), f), Status: core.InputConfirmed}
			}
			g.Step(&s, in, fx)
		}
		f++
	}
}
