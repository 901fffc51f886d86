package rollback

import (
	"errors"
	"testing"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/replay"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

// Session is an input log a replay.Recorder drains.
var _ replay.Log[uint16] = (*Session[pair, uint16])(nil)

// TestReadLogRecordsTheMatch records a replay on every node of a
// three-player match over a lossy, jittery network (so the sessions roll
// back), draining a log far shorter than the match after every Update;
// node 2 leaves halfway, so the logs end with disconnected inputs. Each
// replay verifies, and reproduces the node's confirmed state.
func TestReadLogRecordsTheMatch(t *testing.T) {
	const keep = 12
	link := sim.LinkConfig{Latency: sim.Latency{Base: ms(30), Jitter: ms(10)}, Loss: 0.05}
	m := newMatch(t, 3, 81, link, func(i int, c *Config) { c.LogRetention = keep })
	build := core.GameVersion("rollback test game")
	recs := make([]*replay.Recorder[pair, uint16], 3)
	for i := range recs {
		var err error
		recs[i], err = replay.NewRecorder(replay.Config{Game: build, Players: 3, TickRate: 60, KeyframeInterval: 60},
			core.Game[pair, uint16](pairGame{leakAt: -1}), &pair{})
		if err != nil {
			t.Fatal(err)
		}
	}
	for now := m.render; now <= 8*time.Second; now += m.render {
		if now >= 4*time.Second && !m.nodes[2].closed {
			if err := m.nodes[2].s.Close(); err != nil {
				t.Fatal(err)
			}
			m.nodes[2].closed = true
		}
		m.step(now)
		for i, nd := range m.nodes {
			// The session keeps 30 s of frames for a rejoin whatever
			// LogRetention says: 1800 at 60 frames per second.
			if start, end := nd.s.LogRange(); end-start > max(keep, 1800) {
				t.Fatalf("node %d: log holds %d..%d, more than 30 s of frames", i, start, end)
			}
			if err := recs[i].AddLog(nd.s); err != nil {
				t.Fatalf("node %d at %v: %v", i, now, err)
			}
		}
	}
	m.checkAgreement()
	if st := m.nodes[0].s.Stats(); st.Rollbacks == 0 {
		t.Fatal("no rollback: the test proves nothing")
	}
	for i, nd := range m.nodes {
		rec := recs[i]
		_, end := nd.s.LogRange()
		c, _ := nd.s.ConfirmedFrame()
		// Inputs that arrived in the latest Update confirm a frame that is
		// logged when the next frame runs.
		if rec.Frames() != end || end < c || end > c+1 || (i < 2 && end < 400) {
			t.Fatalf("node %d: replay of %d frames, log ends at %d, confirmed %d", i, rec.Frames(), end, c)
		}
		if got, want := state.Checksum(rec.State()), nd.game.sums[end-1]; got != want {
			t.Errorf("node %d: replay's final checksum %#x, session's of frame %d %#x", i, got, end-1, want)
		}
		if err := replay.VerifyData(rec.Bytes(), build, core.Game[pair, uint16](pairGame{leakAt: -1})); err != nil {
			t.Errorf("node %d: %v", i, err)
		}
	}
	in, err := m.nodes[0].s.ReadLog(recs[0].Frames()-1, nil)
	if err != nil || len(in) != 3 || in[0].Status != core.InputConfirmed || in[2].Status != core.InputDisconnected {
		t.Fatalf("node 0's newest logged frame: %v, %v; want player 2 disconnected", in, err)
	}
	t.Logf("%d frames, replay %d bytes", recs[0].Frames(), len(recs[0].Bytes()))
}

// TestReadLogRange: without LogRetention or spectators the log is empty;
// outside the range ReadLog returns ErrOutOfRange and dst unchanged;
// spectators keep more than a small LogRetention; a negative or huge
// LogRetention is refused.
func TestReadLogRange(t *testing.T) {
	for _, tc := range []struct {
		name       string
		keep       int
		spectators bool
		min, max   core.Frame
	}{
		// A rejoin needs 30 s of frames, so a shorter match is all kept.
		{"none", 0, false, 100, 1800},
		{"short", 5, false, 100, 1800},
		{"spectators", 5, true, 6, 1 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newMatch(t, 2, 82, sim.LinkConfig{Latency: sim.Latency{Base: ms(10)}}, func(i int, c *Config) {
				c.LogRetention = tc.keep
				if tc.spectators {
					c.Spectators = []transport.Addr{2} // an endpoint that never answers
				}
			})
			m.net.NewEndpoint() // transport.Addr 2
			m.run(2 * time.Second)
			s := m.nodes[0].s
			start, end := s.LogRange()
			c, _ := s.ConfirmedFrame()
			if n := end - start; n < tc.min || n > tc.max || (tc.keep > 0 && end != c+1) {
				t.Fatalf("range %d..%d (confirmed %d), want %d to %d frames", start, end, c, tc.min, tc.max)
			}
			dst := []core.Input[uint16]{{Value: 9}}
			for _, f := range []core.Frame{start - 1, end, -1} {
				got, err := s.ReadLog(f, dst)
				if !errors.Is(err, rollstep.ErrOutOfRange) || len(got) != 1 || got[0].Value != 9 {
					t.Fatalf("ReadLog(%d) outside %d..%d = %v, %v", f, start, end, got, err)
				}
			}
		})
	}
	for _, keep := range []int{-1, 1<<20 + 1} {
		c := testConfig(2, 0, 1)
		c.LogRetention = keep
		var ce *rollstep.ConfigError
		if err := c.Validate(); !errors.As(err, &ce) || ce.Field != "LogRetention" {
			t.Errorf("LogRetention %d: Validate() = %v, want a ConfigError naming LogRetention", keep, err)
		}
	}
}
