package rollback

import (
	"fmt"
	"testing"
	"time"

	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/probe"
	"github.com/rollstep/rollstep/transport/sim"
)

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// TestPeersAgreeUnderImpairments runs 2, 3, 4 and 8 peers over links from
// perfect to 500 ms one way with jitter, 25 % loss, duplication and
// reordering, and requires identical checksums at every frame all peers
// confirmed, no desync and no lost correction.
func TestPeersAgreeUnderImpairments(t *testing.T) {
	links := []struct {
		name string
		link sim.LinkConfig
	}{
		{"perfect", sim.LinkConfig{}},
		{"20ms", sim.LinkConfig{Latency: sim.Latency{Base: ms(20)}}},
		{"100ms±30ms", sim.LinkConfig{Latency: sim.Latency{Base: ms(100), Jitter: ms(30)}}},
		{"250ms-loss10-dup-reorder", sim.LinkConfig{Latency: sim.Latency{Base: ms(250), Jitter: ms(20)},
			Loss: 0.10, Duplicate: 0.1, Reorder: 0.1, ReorderDelay: ms(40)}},
		{"500ms", sim.LinkConfig{Latency: sim.Latency{Base: ms(500)}}},
		{"60ms-loss25", sim.LinkConfig{Latency: sim.Latency{Base: ms(60), Jitter: ms(10)}, Loss: 0.25}},
		{"40ms-spikes", sim.LinkConfig{Latency: sim.Latency{Base: ms(40),
			Spike: sim.Spike{Height: ms(300), Length: ms(200), Period: ms(2000)}}}},
	}
	for _, peers := range []int{2, 3, 4, 8} {
		for li, l := range links {
			t.Run(fmt.Sprintf("%dpeers/%s", peers, l.name), func(t *testing.T) {
				if testing.Short() && peers > 2 {
					t.Skip("short")
				}
				m := newMatch(t, peers, uint64(100*peers+li), l.link, nil)
				const frames = 400
				if !m.runUntil(frames, 60*time.Second) {
					t.Fatalf("frame %d not confirmed everywhere in 60 s: node 0 at %d", frames, m.nodes[0].s.Frame())
				}
				n := m.checkAgreement()
				st := m.nodes[0].s.Stats()
				t.Logf("compared %d frames; node 0: rollbacks %d, resim %d, stall %v, D %d, waited %d",
					n, st.Rollbacks, st.ResimFrames, st.Stall, st.Delay, st.Waited)
				if st.Checksums == 0 {
					t.Errorf("no checksums exchanged")
				}
			})
		}
	}
}

// TestNoStallAt100msWithW8 checks the rollback promise: with W = 8 at 60
// frames/s and 100 ms one-way latency (6 frames, inside the window), once
// running no frame stalls and every misprediction is repaired: every
// rollback is followed by agreement at every confirmed frame.
func TestNoStallAt100msWithW8(t *testing.T) {
	m := newMatch(t, 2, 7, sim.LinkConfig{Latency: sim.Latency{Base: ms(100)}}, func(i int, c *Config) {
		c.FixedDelay, c.InputDelay = true, 0
	})
	m.render = time.Second / 60
	if !m.runUntil(120, 10*time.Second) {
		t.Fatal("warm-up did not confirm frame 120")
	}
	var before [2]engine.Stats
	for i, nd := range m.nodes {
		before[i] = probe.EngineStats(nd.s)
	}
	m.run(20 * time.Second)
	for i, nd := range m.nodes {
		st := probe.EngineStats(nd.s)
		if d := st.StallTime - before[i].StallTime; d != 0 {
			t.Errorf("node %d stalled %v in steady state (%d calls)", i, d, st.StalledCalls-before[i].StalledCalls)
		}
		if st.Rollbacks == before[i].Rollbacks {
			t.Errorf("node %d never rolled back: the inputs do not exercise prediction", i)
		}
		if frames := st.Frames - before[i].Frames; frames < 1190 {
			t.Errorf("node %d simulated %d frames in 20 s, want about 1200", i, frames)
		}
		t.Logf("node %d: %d rollbacks, %d re-simulated frames, max depth bucket %v", i,
			st.Rollbacks-before[i].Rollbacks, st.ResimFrames-before[i].ResimFrames, st.RollbackDepth[:10])
	}
	m.checkAgreement()
}
