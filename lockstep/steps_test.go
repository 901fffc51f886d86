package lockstep

import (
	"errors"
	"testing"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/replay"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport/sim"
)

// stepRecorder records a replay of one peer's match with ReadSteps, one
// replay frame per Step of the game, as a host does after each Update.
// next is the next turn to read. first and flips watch the turns simulated
// past the log's end: first[f] is whether turn f ran the game's Step when
// first seen, flips counts the confirmed turns whose answer changed since.
type stepRecorder struct {
	rec   *replay.Recorder[tState, tInput]
	next  core.Frame
	buf   []core.Input[tInput]
	first map[core.Frame]bool
	flips int
	n     int // players
}

// drain reads every turn the log gained since the last call.
func (r *stepRecorder) drain(t *testing.T, s *Session[tState, tInput]) {
	t.Helper()
	start, end := s.LogRange()
	if r.next < start {
		t.Fatalf("the log dropped turn %d before it was read (it holds %d..%d)", r.next, start, end)
	}
	n := r.n
	for ; r.next < end; r.next++ {
		var err error
		if r.buf, err = s.ReadSteps(r.next, r.buf[:0]); err != nil {
			t.Fatalf("ReadSteps(%d) in %d..%d: %v", r.next, start, end, err)
		}
		if len(r.buf)%n != 0 {
			t.Fatalf("ReadSteps(%d) returned %d inputs for %d players", r.next, len(r.buf), n)
		}
		if ran, seen := r.first[r.next]; seen && ran != (len(r.buf) > 0) {
			r.flips++
		}
		delete(r.first, r.next)
		for in := r.buf; len(in) > 0; in = in[n:] {
			if err := r.rec.Add(in[:n]); err != nil {
				t.Fatalf("turn %d: %v", r.next, err)
			}
		}
	}
	// The newest turn, simulated but not yet confirmed: its Step ran
	// unless the state after it is paused.
	if f := s.Frame() - 1; f >= end {
		if _, seen := r.first[f]; !seen {
			r.first[f] = !s.Stats().Paused
		}
	}
}

// TestReadStepsReplaysTheMatch pauses a match for a second mid-way
// (player 1 pauses, player 0 resumes) or runs the game's Step three times
// a turn, or both, in lockstep and in auto mode. A replay recorded from
// ReadSteps after every Update, with a log much shorter than the match,
// verifies and reproduces every peer's final state; one recorded from
// ReadLog, a frame per turn, does not. In auto mode, turns first
// simulated with a prediction that missed the pause command are simulated
// again, and ReadSteps gives the final answer.
func TestReadStepsReplaysTheMatch(t *testing.T) {
	// In auto mode the controller covers 20 ms with delay and predicts
	// the rest of the 60 ms.
	auto := Config{Prediction: 6, InputDelay: 1, DelayBudget: 20 * ms}
	link := sim.LinkConfig{Latency: sim.Latency{Base: 15 * ms, Jitter: 5 * ms}}
	slow := sim.LinkConfig{Latency: sim.Latency{Base: 60 * ms, Jitter: 10 * ms}}
	for _, tc := range []struct {
		name  string
		cfg   Config
		link  sim.LinkConfig
		pause bool
	}{
		{"pause", Config{}, link, true},
		{"ticks", Config{TicksPerTurn: 3}, link, false},
		{"pause auto", auto, slow, true},
		{"pause ticks auto", Config{Prediction: 6, InputDelay: 1, DelayBudget: 20 * ms, TicksPerTurn: 3}, slow, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.TurnPeriod, cfg.LogRetention = 20*ms, 8
			if cfg.Prediction == 0 {
				cfg.InputDelay, cfg.FixedDelay = 2, true
			}
			m := newMatch(t, 2, 73, tc.link, cfg)
			m.predicting = cfg.Prediction > 0
			m.lossyCommands = tc.pause // those scheduled for paused turns
			testReplayFromSteps(t, m, cfg, tc.pause)
		})
	}
}

func testReplayFromSteps(t *testing.T, m *match, cfg Config, pause bool) {
	var recs []*stepRecorder
	for range m.peers {
		recs = append(recs, &stepRecorder{rec: newLogRecorder(t, m, cfg),
			buf: make([]core.Input[tInput], 0, 2*max(1, cfg.TicksPerTurn)), first: map[core.Frame]bool{}, n: len(m.peers)})
	}
	perTurn := newLogRecorder(t, m, cfg) // what ReadLog alone records
	buf := make([]core.Input[tInput], 0, 2)
	for m.now < 6*time.Second {
		if pause && m.now == 2*time.Second {
			if err := m.peers[1].sess.Pause(1); err != nil {
				t.Fatal(err)
			}
		}
		if pause && m.now == 3*time.Second {
			if err := m.peers[0].sess.Resume(0); err != nil {
				t.Fatal(err)
			}
		}
		m.run(m.now + m.dt)
		for i, p := range m.peers {
			recs[i].drain(t, p.sess)
		}
		drain(t, m.peers[0].sess, perTurn, buf)
	}
	if m.predicting { // check compares sums, a Step each, as far as turns are confirmed
		for i, p := range m.peers {
			p.sums = p.sums[:min(len(p.sums), int(recs[i].rec.Frames()))]
		}
	}
	m.check()
	ticks := core.Frame(max(1, cfg.TicksPerTurn))
	for i, p := range m.peers {
		r, s := recs[i], p.sess
		st := s.Stats()
		_, end := s.LogRange()
		if r.next != end || end < 150 || end+core.Frame(cfg.Prediction) < s.Frame() {
			t.Fatalf("peer %d: replay of %d turns, log ends at %d, session at turn %d", i, r.next, end, s.Frame())
		}
		if pause && (st.Played > int64(st.Frame)-30 || st.Paused) {
			t.Fatalf("peer %d: played %d of %d turns, paused %v: the test proves nothing", i, st.Played, st.Frame, st.Paused)
		}
		var want uint64
		if end == s.Frame() {
			want = state.Checksum(s.State())
			if got := r.rec.Frames(); got != core.Frame(st.Played)*ticks {
				t.Errorf("peer %d: replay of %d Steps, the game stepped %d turns of %d", i, got, st.Played, ticks)
			}
		} else { // auto mode: the newest turns may be predicted
			want = p.sums[r.rec.Frames()-1]
		}
		if got := state.Checksum(r.rec.State()); got != want {
			t.Errorf("peer %d: replay's final checksum %#x, session's %#x", i, got, want)
		}
		if err := replay.VerifyData(r.rec.Bytes(), logBuild, core.Game[tState, tInput](replayGame())); err != nil {
			t.Errorf("peer %d: %v", i, err)
		}
		if m.predicting && i == 0 && pause && r.flips == 0 {
			t.Errorf("peer %d: no turn's pause state changed when simulated again: the test proves nothing", i)
		}
		t.Logf("peer %d: %d turns, %d Steps, %d played, %d re-simulated pause answers, replay %d bytes",
			i, end, r.rec.Frames(), st.Played, r.flips, len(r.rec.Bytes()))
	}
	if state.Checksum(perTurn.State()) == state.Checksum(recs[0].rec.State()) {
		t.Errorf("a replay of a frame per turn (ReadLog) reproduces the match: the test proves nothing")
	}
}

// TestReadStepsRange: ReadSteps reads the turns LogRange reports, none
// outside it (dst unchanged), and nothing without LogRetention.
func TestReadStepsRange(t *testing.T) {
	for _, keep := range []int{0, 5} {
		cfg := Config{TurnPeriod: 20 * ms, FixedDelay: true, LogRetention: keep, TicksPerTurn: 2}
		m := newMatch(t, 2, 74, sim.LinkConfig{Latency: sim.Latency{Base: 10 * ms}}, cfg)
		m.run(time.Second)
		s := m.peers[1].sess
		start, end := s.LogRange()
		dst := []core.Input[tInput]{{Value: tInput{Seq: 9}}}
		for _, f := range []core.Frame{start - 1, end, -1} {
			if f >= start && f < end {
				continue
			}
			got, err := s.ReadSteps(f, dst)
			if !errors.Is(err, rollstep.ErrOutOfRange) || len(got) != 1 || got[0].Value.Seq != 9 {
				t.Fatalf("LogRetention %d: ReadSteps(%d) outside %d..%d = %v, %v", keep, f, start, end, got, err)
			}
		}
		for f := start; f < end; f++ {
			got, err := s.ReadSteps(f, dst)
			if err != nil || len(got) != 5 {
				t.Fatalf("ReadSteps(%d) = %v, %v", f, got, err)
			}
			first, _ := s.ReadLog(f, nil)
			idle := []core.Input[tInput]{{Status: first[0].Status}, {Status: first[1].Status}}
			if got[1] != first[0] || got[2] != first[1] || got[3] != idle[0] || got[4] != idle[1] {
				t.Fatalf("ReadSteps(%d) = %v, ReadLog = %v", f, got, first)
			}
		}
	}
}
