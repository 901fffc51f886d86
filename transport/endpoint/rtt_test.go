package endpoint

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/sim"
)

// rttTrack is how an RTT estimate followed a step change of the link.
type rttTrack struct {
	settled time.Duration // when it last entered the band around the new RTT, after the step
	last    time.Duration // its value at the end
	in      bool          // whether it was in the band at the end
}

// observe records the estimate v at now, with band [lo, hi].
func (r *rttTrack) observe(now, v, lo, hi time.Duration) {
	ok := v >= lo && v <= hi
	if ok && !r.in {
		r.settled = now
	}
	r.in, r.last = ok, v
}

// rttStep plays a 2-player rollback match (D = 2, W = 8, 60 frames/s,
// 2-byte inputs) on a link of before one-way latency that becomes after
// at virtual time at, and returns for each node how its endpoint's and
// its engine's estimates of the peer's RTT followed the step: when each
// last entered the band of ±10 % around the new round trip, by at+span.
// The new round trip is 2·after plus what the host loop adds to the
// link's (the wait of each packet for the next tick's Poll), measured
// from the endpoint's estimate just before the step.
func rttStep(t *testing.T, before, after, at, span time.Duration) (ep, eng [2]rttTrack) {
	t.Helper()
	link := sim.LinkConfig{
		Latency:  sim.Latency{Base: before},
		Schedule: []sim.Step{{At: at, Latency: sim.Latency{Base: after}}},
	}
	m := newMesh(t, 2, link, nil)
	end := at + span
	frames := core.Frame(end/(time.Second/60)) + 10
	nodes := make([]*peerNode, 2)
	for i := range nodes {
		c := core.DefaultConfig()
		c.Local, c.Peers = []core.PlayerHandle{core.PlayerHandle(i)}, [][]core.PlayerHandle{{core.PlayerHandle(1 - i)}}
		c.InputDelay = 2
		e, err := core.NewEngine[gameState, testInput](c, core.GameFunc[gameState, testInput](stepGame), &gameState{})
		if err != nil {
			t.Fatalf("NewEngine: %v", err)
		}
		nodes[i] = &peerNode{eng: e, ep: m.nodes[i].ep, player: core.PlayerHandle(i)}
	}
	var lo, hi [2]time.Duration // the band around the new round trip
	for now := time.Duration(0); now <= end; now += time.Second / 60 {
		m.net.RunUntil(now)
		for i, nd := range nodes {
			nd.hostLoop(t, i, now, frames)
			if now < at {
				ps, _ := nd.ep.Peer(0)
				want := ps.RTT - 2*before + 2*after
				lo[i], hi[i] = want*9/10, want*11/10
				continue
			}
			ps, _ := nd.ep.Peer(0)
			ep[i].observe(now, ps.RTT, lo[i], hi[i])
			eng[i].observe(now, nd.eng.Stats().Peers[0].RTT, lo[i], hi[i])
		}
	}
	for i, nd := range nodes {
		if nd.desync {
			t.Errorf("node %d desynced", i)
		}
		if ps, _ := nd.ep.Peer(0); ps.State != StateConnected {
			t.Errorf("node %d: peer %v at the end", i, ps.State)
		}
	}
	return ep, eng
}

// TestRTTStep checks that after a step change of the link's latency, up
// and down, the endpoint's RTT estimate settles within ±10 % of the new
// round trip within rttSettle, as core's estimate of the same peer does,
// and close to when core's does, although only one input packet in
// wire.StampEvery carries the timing. Weighting each sample once, the
// endpoint's estimate took about StampEvery times longer (2 to 3 s)
// than core's: observeRTT weights a sample by the packets since the
// previous one.
func TestRTTStep(t *testing.T) {
	// rttSettle bounds the time from the step to the moment both estimates
	// stay within the band: the first packets sent after the step must
	// make a round trip (at most 2·after) before they are sampled, and a
	// sample comes every StampEvery packets (8 frames, 133 ms).
	const rttSettle = time.Second
	// rttAgree bounds how far apart the two estimates settle.
	const rttAgree = 250 * time.Millisecond
	const at = 5 * time.Second
	for _, tc := range []struct {
		name          string
		before, after time.Duration // one-way latency
	}{
		{"up", 50 * ms, 150 * ms},
		{"down", 150 * ms, 50 * ms},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ep, eng := rttStep(t, tc.before, tc.after, at, 5*time.Second)
			for i := range ep {
				e, c := ep[i], eng[i]
				t.Logf("node %d: endpoint settled %v after the step (RTT %v), core %v (RTT %v)",
					i, e.settled-at, e.last, c.settled-at, c.last)
				if !e.in || !c.in {
					t.Errorf("node %d: RTT %v (endpoint) and %v (core) at the end, want about %v",
						i, e.last, c.last, 2*tc.after)
					continue
				}
				if e.settled-at > rttSettle || c.settled-at > rttSettle {
					t.Errorf("node %d: settled %v (endpoint) and %v (core) after the step, want within %v",
						i, e.settled-at, c.settled-at, rttSettle)
				}
				if d := e.settled - c.settled; d > rttAgree || d < -rttAgree {
					t.Errorf("node %d: the endpoint settled %v after core, want within ±%v", i, d, rttAgree)
				}
			}
		})
	}
}
