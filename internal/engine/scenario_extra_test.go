package engine

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
)

// The largest match: 16 players, with one of them disconnecting.
func TestScenarioSixteenPlayers(t *testing.T) {
	const end = 200
	h := newHarness(t, core.MaxPlayers, 9, end, func(i int, c *Config) {
		c.InputDelay, c.Prediction = 1, 8
	})
	h.setLinks(link{latency: 20 * time.Millisecond, jitter: 30 * time.Millisecond, loss: 50})
	h.onTick = func(h *harness) {
		if h.nodes[0].eng.Frame() == 100 && !h.nodes[15].down {
			h.nodes[15].down = true
			for _, nd := range h.nodes[:15] {
				_ = nd.eng.DisconnectPeer(nd.peerID[15])
			}
		}
	}
	h.run(50000)
	h.checkAgreement()
	if g := h.nodes[0].eng.State().Gone; g != 1<<15 {
		t.Fatalf("gone mask %#x, want player 15", g)
	}
}

// Stats: the round trip measured from message stamps matches the link.
func TestStatsRoundTrip(t *testing.T) {
	h := newHarness(t, 2, 4, 300, nil)
	h.setLinks(link{latency: 50 * time.Millisecond})
	h.run(10000)
	for i, nd := range h.nodes {
		ps := nd.eng.Stats().Peers[0]
		// 100 ms, plus up to one 16 ms tick of delivery quantization each way.
		if ps.RTTSamples < 100 || ps.RTT < 100*time.Millisecond || ps.RTT > 132*time.Millisecond || !ps.Connected {
			t.Fatalf("node %d: %+v, want about 100 ms over many samples", i, ps)
		}
		if st := nd.eng.Stats(); ps.Rollbacks != st.Rollbacks || ps.ResimFrames != st.ResimFrames {
			t.Fatalf("node %d: peer rollbacks %d/%d, engine %d/%d: with one peer they are the same", i, ps.Rollbacks, ps.ResimFrames, st.Rollbacks, st.ResimFrames)
		}
		if ps.Held != 300 || ps.Acked < 290 {
			t.Fatalf("node %d: held %d acked %d", i, ps.Held, ps.Acked)
		}
	}
}

// A pluggable predictor is used for missing inputs, and its guesses never
// change the outcome: the engines still match the oracle.
func TestCustomPredictor(t *testing.T) {
	const end = 400
	calls := 0
	h := newHarness(t, 3, 13, end, func(i int, c *Config) { c.InputDelay, c.Prediction = 0, 8 })
	for _, nd := range h.nodes {
		nd.eng.SetPredictor(func(p core.PlayerHandle, f core.Frame, last testInput, lastFrame core.Frame, known bool) testInput {
			calls++
			if f <= lastFrame || (!known && last != 0) {
				t.Fatalf("predictor asked for frame %d of player %d with newest known %d (known %v)", f, p, lastFrame, known)
			}
			return last + testInput(f-lastFrame) // a deliberately poor guess
		})
	}
	h.setLinks(link{latency: 30 * time.Millisecond, jitter: 40 * time.Millisecond, loss: 50})
	h.run(100000)
	h.checkAgreement()
	if want := refRun(3, end, h.input); *h.nodes[0].eng.State() != want {
		t.Fatal("final state differs from the oracle")
	}
	if calls == 0 {
		t.Fatal("the predictor was never called")
	}
}
