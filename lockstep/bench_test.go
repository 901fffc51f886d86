package lockstep

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/sim"
)

// BenchmarkTurn measures the library's cost of one turn between two peers
// over a perfect simulated network (both peers' Updates, the network's
// delivery and the game's Step), and reports upload bytes per turn per
// peer and the ratio to the bare Step loop measured in the same run.
func BenchmarkTurn(b *testing.B) {
	m := newMatch(b, 2, 51, sim.LinkConfig{Latency: sim.Latency{Base: time.Millisecond}},
		Config{TurnPeriod: 10 * ms, InputDelay: 2, FixedDelay: true})
	m.dt = 10 * ms
	m.run(time.Second)
	seq := [2]uint32{1 << 20, 1 << 20}
	f0 := m.peers[0].sess.Frame()
	sent0 := m.net.Outbound(m.peers[0].conn.ID()).Sent.Bytes
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		m.now += m.dt
		m.net.RunUntil(m.now)
		for i, p := range m.peers {
			seq[i]++
			_ = p.sess.AddLocalInput(core.PlayerHandle(i), tInput{Seq: seq[i], Val: seq[i]})
			if err := p.sess.Update(m.now); err != nil {
				b.Fatal(err)
			}
		}
	}
	lib := time.Since(start)
	turns := float64(m.peers[0].sess.Frame() - f0)
	if turns == 0 {
		b.Fatal("no turn ran")
	}
	b.ReportMetric(float64(m.net.Outbound(m.peers[0].conn.ID()).Sent.Bytes-sent0)/turns, "B/turn")

	// The bare loop: the same game Step on the same inputs, no library.
	var p tPeer
	var s tState
	in := []core.Input[tInput]{{Status: core.InputConfirmed}, {Status: core.InputConfirmed}}
	n := int(turns)
	start = time.Now()
	for i := range n {
		in[0].Value.Seq, in[1].Value.Seq = uint32(i+1), uint32(i+1)
		p.step(&s, in, nil)
	}
	bare := time.Since(start)
	if bare > 0 {
		b.ReportMetric(float64(lib)/float64(2*bare), "x-bare-step")
	}
}
