package endpoint

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/testenv"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

// Redundancy proof (issue 5): inputs are never retransmitted, only
// repeated in every packet until acknowledged, so every input must arrive,
// in order and byte-identical, however lossy and slow the link.
//
// The engines run in lockstep (W = 0) with an input delay D = 128 frames:
// at 2 s one-way latency a frame's remote input needs 120 frames to
// arrive, so D covers the latency and the match runs at full speed, and
// when loss delays an input the engines stall, which is fine. Every
// unacknowledged input (about D plus a round trip of 240 frames, ~370) must
// fit in one message, so MaxRunLength is 512 instead of the default 64 (at
// 64, only 64 new inputs would be acknowledged per round trip: 16 frames/s).
// The engines' input rings hold 2048 frames (core sizes them from
// MaxInputDelay and MaxRunLength), far more than are ever unacknowledged,
// so AddLocalInput never reports ErrQueueFull and the test requires
// that.
//
// No datagram may exceed 1200 bytes: transport/sim refuses a larger one
// with an error that Send would return (the test fails on any), and the
// encoder cuts inputs rather than grow past it, which it counts in
// PeerStats.Truncated; the test requires Truncated == 0, so every packet
// carried every unacknowledged input within 1200 bytes. (The inputs change
// every fifth frame, so a run of ~370 of them encodes in about 230 bytes.)

const (
	redundancyDelay = 128
	redundancyRun   = 512
)

// redundancyResult is what one run of the proof measured.
type redundancyResult struct {
	virtual       time.Duration // virtual time to confirm every frame
	bytesPerFrame []float64     // per node: wire bytes sent (IP+UDP included) per frame
	packets       []uint64      // per node: datagrams sent
	stalls        []time.Duration
	dropped       int64 // datagrams the network dropped, all links
}

// runRedundancy plays frames frames with n peers over links of one-way
// latency and loss, and checks that every peer's input log holds, for
// every frame, exactly the inputs every other peer produced.
func runRedundancy(t *testing.T, n int, frames core.Frame, latency time.Duration, loss float64) redundancyResult {
	t.Helper()
	link := sim.LinkConfig{Latency: sim.Latency{Base: latency}, Loss: loss}
	m := newMesh(t, n, link, func(_ int, c *Config) {
		// A handshake takes a round trip of 4 s; silence is never
		// expected once it is done (60 packets/s per link).
		c.HandshakeTimeout = 60 * time.Second
	})
	nodes := make([]*peerNode, n)
	for i := range nodes {
		c := engine.DefaultConfig()
		c.Players, c.Local, c.Peers = n, []core.PlayerHandle{core.PlayerHandle(i)}, nil
		for j := range n {
			if j != i {
				c.Peers = append(c.Peers, []core.PlayerHandle{core.PlayerHandle(j)})
			}
		}
		c.InputDelay, c.MaxInputDelay = redundancyDelay, redundancyDelay
		c.Prediction, c.MaxPrediction = 0, 0
		c.MaxRunLength = redundancyRun
		c.LogRetention = int(frames) + 16
		e, err := engine.NewEngine[gameState, testInput](c, core.GameFunc[gameState, testInput](stepGame), &gameState{})
		if err != nil {
			t.Fatalf("NewEngine: %v", err)
		}
		nodes[i] = &peerNode{eng: e, ep: m.nodes[i].ep, player: core.PlayerHandle(i)}
	}
	// want[p][f] is player p's input for frame f as its own engine
	// scheduled it: the zero value below D (core fills the frames a delay
	// skips with the previous input, none yet), then what the host gave.
	want := make([][]testInput, n)
	for p := range want {
		want[p] = make([]testInput, frames)
	}

	tick := time.Second / 60
	limit := time.Duration(frames)*tick*3 + time.Minute
	var now time.Duration
	for ; ; now += tick {
		if now > limit {
			t.Fatalf("not every frame confirmed after %v of virtual time", limit)
		}
		m.net.RunUntil(now)
		done := true
		for i, nd := range nodes {
			nd.redundancyLoop(t, i, now, frames, want[i])
			if f, ok := nd.eng.ConfirmedFrame(); !ok || f < frames-1 {
				done = false
			}
		}
		if done {
			break
		}
	}

	res := redundancyResult{virtual: now}
	for i := range n {
		for j := range n {
			if i != j {
				res.dropped += m.net.Stats(transport.Addr(i), transport.Addr(j)).Dropped.Packets
			}
		}
	}
	if loss > 0 && res.dropped == 0 {
		t.Errorf("the network dropped nothing at %.0f%% loss", loss*100)
	}
	var got []core.Input[testInput]
	for i, nd := range nodes {
		st := nd.eng.Stats()
		if st.Desyncs != 0 || st.BadMessages != 0 || st.Equivocations != 0 {
			t.Errorf("node %d: %d desyncs, %d bad messages, %d equivocations", i, st.Desyncs, st.BadMessages, st.Equivocations)
		}
		if start, end := nd.eng.LogRange(); start != 0 || end < frames {
			t.Fatalf("node %d logged frames %d..%d, want 0..%d", i, start, end-1, frames-1)
		}
		// Every frame, in order: the log is indexed by frame, and each
		// entry must hold every player's input byte for byte.
		for f := range frames {
			var err error
			if got, err = nd.eng.ReadLog(f, got[:0]); err != nil {
				t.Fatalf("node %d ReadLog(%d): %v", i, f, err)
			}
			for p, in := range got {
				if in.Value != want[p][f] || in.Status != core.InputConfirmed {
					t.Fatalf("node %d frame %d player %d: got %#04x (%v), player %d produced %#04x",
						i, f, p, uint16(in.Value), in.Status, p, uint16(want[p][f]))
				}
			}
		}
		es := nd.ep.Stats()
		var wire, packets uint64
		for p, ps := range es.Peers {
			if ps.Truncated != 0 || ps.SendErrors != 0 || ps.Rejected != 0 || ps.Malformed != 0 || ps.State != StateConnected {
				t.Errorf("node %d peer %d: %d truncated, %d send errors, %d rejected, %d malformed, state %v",
					i, p, ps.Truncated, ps.SendErrors, ps.Rejected, ps.Malformed, ps.State)
			}
			wire += ps.WireBytesSent()
			packets += ps.PacketsSent
		}
		res.bytesPerFrame = append(res.bytesPerFrame, float64(wire)/float64(frames))
		res.packets = append(res.packets, packets)
		res.stalls = append(res.stalls, st.StallTime)
	}
	return res
}

// redundancyLoop is one tick of the host loop for the redundancy proof: it
// schedules player p's input for frame Frame()+D once, records it in want,
// and stops giving inputs past the last frame.
func (nd *peerNode) redundancyLoop(t *testing.T, i int, now time.Duration, frames core.Frame, want []testInput) {
	t.Helper()
	if _, err := nd.ep.Poll(now, nd.eng); err != nil {
		t.Fatalf("node %d Poll: %v", i, err)
	}
	if f := nd.eng.Frame() + redundancyDelay; f < frames {
		v := genInput(int(nd.player), f)
		switch err := nd.eng.AddLocalInput(nd.player, v); {
		case err == nil:
			want[f] = v
		case errors.Is(err, engine.ErrInputDiscarded): // already scheduled: a stalled tick
		default:
			t.Fatalf("node %d AddLocalInput(frame %d): %v", i, f, err)
		}
	}
	r := nd.eng.Advance(now)
	if err := nd.ep.Send(now, r.Messages); err != nil {
		t.Fatalf("node %d Send: %v", i, err)
	}
	if err := nd.ep.Tick(now); err != nil {
		t.Fatalf("node %d Tick: %v", i, err)
	}
	for _, ev := range nd.ep.Events() {
		if ev.Kind == EventDisconnected || ev.Kind == EventLeft || ev.Kind == EventRefused {
			t.Fatalf("node %d: unexpected event %+v", i, ev)
		}
	}
}

func (r redundancyResult) String() string {
	s := fmt.Sprintf("virtual %v, %d datagrams dropped;", r.virtual.Round(time.Second), r.dropped)
	for i := range r.bytesPerFrame {
		s += fmt.Sprintf(" node %d: %.1f B/frame (%d packets, stalled %v)", i, r.bytesPerFrame[i], r.packets[i], r.stalls[i].Round(time.Millisecond))
	}
	return s
}

// TestRedundancyDelivery: 2 s one-way latency and 25 % loss each way,
// 4,000 frames (10,000 in the soak run), 2 and 4 peers: every input
// arrives, in order, byte-identical.
func TestRedundancyDelivery(t *testing.T) {
	frames := testenv.Pick[core.Frame](4_000, 10_000)
	for _, n := range []int{2, 4} {
		t.Run(fmt.Sprintf("%d peers", n), func(t *testing.T) {
			r := runRedundancy(t, n, frames, 2*time.Second, 0.25)
			t.Logf("2 s latency, 25%% loss, %d frames: %v", frames, r)
		})
	}
}

// TestRedundancyLossSweep repeats the proof at 0 to 50 % loss in steps of
// 10 % and reports the bytes per frame each peer sends (to all its peers,
// IP and UDP headers included). It plays 2,000 frames, and 10,000 in the
// soak run.
func TestRedundancyLossSweep(t *testing.T) {
	frames := testenv.Pick[core.Frame](2_000, 10_000)
	for _, n := range []int{2, 4} {
		for _, loss := range []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5} {
			t.Run(fmt.Sprintf("%d peers %.0f%% loss", n, loss*100), func(t *testing.T) {
				r := runRedundancy(t, n, frames, 2*time.Second, loss)
				t.Logf("2 s latency, %.0f%% loss, %d frames: %v", loss*100, frames, r)
			})
		}
	}
}
