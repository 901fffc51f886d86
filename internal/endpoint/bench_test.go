package endpoint

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/transport/sim"
)

// BenchmarkHostLoop measures one frame of the host loop (see doc.go) for
// each of two real engines behind endpoints on a sim.Network with 20 ms
// latency: Poll into the engine, AddLocalInput, Advance, Send, Tick. It
// reports the endpoint's share of the work as wire bytes per packet.
func BenchmarkHostLoop(b *testing.B) {
	m, frame := enginePair(b)
	for range 600 {
		frame()
	}
	b.ReportAllocs()
	for b.Loop() {
		frame()
	}
	s, _ := m.nodes[0].ep.Peer(0)
	b.ReportMetric(float64(s.WireBytesSent())/float64(s.PacketsSent), "wireB/packet")
}

// enginePair returns two real engines behind endpoints on a sim.Network
// with 20 ms latency, and a function that runs one frame of the host loop
// for both.
func enginePair(tb testing.TB) (*mesh, func()) {
	m := newMesh(tb, 2, sim.LinkConfig{Latency: sim.Latency{Base: 20 * time.Millisecond}}, nil)
	var engs [2]*engine.Engine[gameState, testInput]
	for i := range engs {
		c := engine.DefaultConfig()
		c.Players, c.Local, c.Peers = 2, []core.PlayerHandle{core.PlayerHandle(i)}, [][]core.PlayerHandle{{core.PlayerHandle(1 - i)}}
		c.InputDelay, c.Prediction = 2, 8
		e, err := engine.NewEngine[gameState, testInput](c, core.GameFunc[gameState, testInput](stepGame), &gameState{})
		if err != nil {
			tb.Fatal(err)
		}
		engs[i] = e
	}
	now := time.Duration(0)
	return m, func() {
		now += time.Second / 60
		m.net.RunUntil(now)
		for i, e := range engs {
			ep := m.nodes[i].ep
			ep.Poll(now, e)
			e.AddLocalInput(core.PlayerHandle(i), genInput(i, e.Frame()+2))
			r := e.Advance(now)
			ep.Send(now, r.Messages)
			ep.Tick(now)
			ep.Events()
		}
	}
}

// BenchmarkPollSend measures the endpoint alone: one input packet each way
// per round (Send, deliver, Poll into a counting Receiver, Tick).
func BenchmarkPollSend(b *testing.B) {
	m := newMesh(b, 2, link20ms, nil)
	m.step(0)
	m.run(100*time.Millisecond, time.Millisecond)
	var sink discard
	var msg engine.Message[slotInput]
	msg.Inputs = []engine.InputRun[slotInput]{{Player: 0, Values: make([]slotInput, 6)}}
	msgs := []engine.Outgoing[slotInput]{{To: 0, Message: &msg}}
	now := m.net.Now()
	b.ReportAllocs()
	for b.Loop() {
		now += time.Second / 60
		msg.Frame++
		msg.Inputs[0].Start = msg.Frame
		msg.Stamp = now
		m.net.RunUntil(now)
		for _, nd := range m.nodes {
			nd.ep.Poll(now, &sink)
			nd.ep.Send(now, msgs)
			nd.ep.Tick(now)
		}
	}
}
