package lockstep

import (
	"errors"
	"testing"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/internal/probe"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/replay"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport/sim"
)

// Session is an input log a replay.Recorder drains.
var _ replay.Log[tInput] = (*Session[tState, tInput])(nil)

// logBuild is the game version hash of the test game's replays.
var logBuild = core.GameVersion("lockstep test game")

// newLogRecorder returns a Recorder of a match of m's test game.
func newLogRecorder(t *testing.T, m *match, cfg Config) *replay.Recorder[tState, tInput] {
	t.Helper()
	rate := int(time.Second / cfg.TurnPeriod)
	rec, err := replay.NewRecorder(replay.Config{Game: logBuild, Players: len(m.peers), TickRate: rate, KeyframeInterval: 50},
		core.Game[tState, tInput](replayGame()), &tState{})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// replayGame returns the test game with a record of its own, for
// re-simulations outside a session.
func replayGame() core.GameFunc[tState, tInput] { return (&tPeer{}).step }

// drain adds every turn the log gained since the recorder's last one, as
// a host does after each Update: LogRange, then ReadLog turn by turn.
func drain(t *testing.T, s *Session[tState, tInput], rec *replay.Recorder[tState, tInput], buf []core.Input[tInput]) {
	t.Helper()
	start, end := s.LogRange()
	if next := rec.Frames(); next < start {
		t.Fatalf("the log dropped turn %d before it was read (it holds %d..%d)", next, start, end)
	}
	for f := rec.Frames(); f < end; f++ {
		in, err := s.ReadLog(f, buf[:0])
		if err != nil {
			t.Fatalf("ReadLog(%d) in %d..%d: %v", f, start, end, err)
		}
		if err := rec.Add(in); err != nil {
			t.Fatalf("turn %d: %v", f, err)
		}
	}
}

// rawCopies counts the turns of the log filled when D rose
// (core.InputFilled) after a turn with a non-zero input, and records a
// replay in which such a turn carries a copy of the previous turn's
// input, as a fill without the zero input would: the command again.
func rawCopies(s *Session[tState, tInput], from core.Frame, rec *replay.Recorder[tState, tInput]) (copies int) {
	_, end := s.LogRange()
	var cur, prev []core.Input[tInput]
	if from > 0 {
		prev, _ = s.ReadLog(from-1, prev)
	}
	for f := from; f < end; f++ {
		cur, _ = s.ReadLog(f, cur[:0])
		for p, x := range cur {
			if f > 0 && x.Status == core.InputFilled && prev[p].Value != (tInput{}) {
				copies++
				cur[p].Value = prev[p].Value
			}
		}
		_ = rec.Add(cur)
		prev = append(prev[:0], cur...)
	}
	return copies
}

// TestReadLogReplaysTheMatch raises D on one peer mid-match, so the
// engine fills turns with copies of that player's command, which the game
// gets as the zero input. A replay recorded from ReadLog after every
// Update, with a log much shorter than the match, reproduces every peer's
// final state; one made from the envelopes merely stripped (what ReadLog
// returned before) applies the copied commands again and does not. With
// Held inputs a copy is the held input, which the game gets too.
func TestReadLogReplaysTheMatch(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"commands", Config{}},
		{"hold", Config{Inputs: rollstep.Held}},
		{"auto", Config{Prediction: 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.TurnPeriod, cfg.InputDelay, cfg.FixedDelay, cfg.LogRetention = 20*ms, 2, true, 8
			m := newMatch(t, 2, 71, sim.LinkConfig{Latency: sim.Latency{Base: 15 * ms, Jitter: 5 * ms}}, cfg)
			m.predicting = cfg.Prediction > 0
			m.lossyCommands = cfg.Inputs == rollstep.Held // a held command repeats: tState counts it as bad
			testReplayFromLog(t, m, cfg)
		})
	}
}

func testReplayFromLog(t *testing.T, m *match, cfg Config) {
	recs := []*replay.Recorder[tState, tInput]{newLogRecorder(t, m, cfg), newLogRecorder(t, m, cfg)}
	naive := newLogRecorder(t, m, cfg)
	buf := make([]core.Input[tInput], 0, 2)
	copies := 0
	for m.now < 6*time.Second {
		if m.now == 2*time.Second {
			if err := probe.SetInputDelay(m.peers[0].sess, 0, 7); err != nil { // D: 2 -> 7
				t.Fatal(err)
			}
		}
		if m.now == 4*time.Second {
			_ = probe.SetInputDelay(m.peers[0].sess, 0, 3) // and down again: inputs are re-queued
		}
		from := naive.Frames()
		m.run(m.now + m.dt)
		copies += rawCopies(m.peers[0].sess, from, naive)
		for i, p := range m.peers {
			drain(t, p.sess, recs[i], buf)
		}
	}
	m.check()
	if copies == 0 {
		t.Fatal("no turn holds a copied input: the test proves nothing")
	}
	for i, p := range m.peers {
		rec := recs[i]
		_, end := p.sess.LogRange()
		if got := rec.Frames(); got != end || end < 200 || end+core.Frame(cfg.Prediction) < p.sess.Frame() {
			t.Fatalf("peer %d: replay of %d turns, log ends at %d, session at turn %d", i, got, end, p.sess.Frame())
		}
		var want uint64
		if end == p.sess.Frame() {
			want = state.Checksum(p.sess.State())
		} else { // auto mode: the newest turns may be predicted
			want = p.sums[end-1]
		}
		if got := state.Checksum(rec.State()); got != want {
			t.Errorf("peer %d: replay's final checksum %#x, session's %#x", i, got, want)
		}
		if err := replay.VerifyData(rec.Bytes(), logBuild, core.Game[tState, tInput](replayGame())); err != nil {
			t.Errorf("peer %d: %v", i, err)
		}
		rp, err := replay.Open[tState, tInput](rec.Bytes(), logBuild)
		if err != nil {
			t.Fatal(err)
		}
		pl := replay.NewPlayer(rp, core.Game[tState, tInput](replayGame()))
		for pl.Step() {
		}
		if sum := state.Checksum(pl.State()); sum != want {
			t.Errorf("peer %d: Player ends at checksum %#x, session at %#x", i, sum, want)
		}
	}
	same := state.Checksum(naive.State()) == state.Checksum(recs[0].State())
	if held := cfg.Inputs == rollstep.Held; same != held {
		t.Errorf("a replay with the filled turns copied reproduces the match: %v, want %v (%d copied inputs)", same, held, copies)
	}
	t.Logf("%d turns, %d copied inputs, replay %d bytes", recs[0].Frames(), copies, len(recs[0].Bytes()))
}

// TestReadLogRange: the rejoin window's turns without LogRetention, ErrOutOfRange
// outside the range with dst unchanged, a range of at least LogRetention
// turns ending at the current turn, and the bounds of LogRetention.
func TestReadLogRange(t *testing.T) {
	for _, keep := range []int{0, 1, 5} {
		cfg := Config{TurnPeriod: 20 * ms, FixedDelay: true, LogRetention: keep}
		m := newMatch(t, 2, 72, sim.LinkConfig{Latency: sim.Latency{Base: 10 * ms}}, cfg)
		m.run(time.Second)
		s := m.peers[1].sess
		start, end := s.LogRange()
		// The session keeps 30 s of turns (1500 at 20 ms) for a rejoin
		// whatever LogRetention says: a second's match is all there.
		if want := min(s.Frame(), max(core.Frame(keep), 1500)); end != s.Frame() || end-start < want || end-start > want+1 {
			t.Fatalf("LogRetention %d at turn %d: range %d..%d", keep, s.Frame(), start, end)
		}
		dst := []core.Input[tInput]{{Value: tInput{Seq: 9}}}
		for _, f := range []core.Frame{start - 1, end, -1} {
			if f >= start && f < end {
				continue
			}
			got, err := s.ReadLog(f, dst)
			if !errors.Is(err, rollstep.ErrOutOfRange) || len(got) != 1 || got[0].Value.Seq != 9 {
				t.Fatalf("LogRetention %d: ReadLog(%d) outside %d..%d = %v, %v", keep, f, start, end, got, err)
			}
		}
		for f := start; f < end; f++ {
			got, err := s.ReadLog(f, dst)
			if err != nil || len(got) != 3 || got[1].Status != core.InputConfirmed {
				t.Fatalf("ReadLog(%d) = %v, %v", f, got, err)
			}
		}
	}
	for _, keep := range []int{-1, 1<<20 + 1} {
		c := Config{Mode: rollstep.Lockstep, Players: 2, Local: []core.PlayerHandle{0}, Peers: []rollstep.Peer{{Addr: 1, Players: []core.PlayerHandle{1}}}, LogRetention: keep}
		var ce *rollstep.ConfigError
		if err := c.Validate(); !errors.As(err, &ce) || ce.Field != "LogRetention" {
			t.Errorf("LogRetention %d: Validate() = %v, want a rollstep.ConfigError naming LogRetention", keep, err)
		}
	}
	c := Config{Mode: rollstep.Lockstep, Players: 2, Local: []core.PlayerHandle{0}, Peers: []rollstep.Peer{{Addr: 1, Players: []core.PlayerHandle{1}}}, LogRetention: 1 << 20}
	if err := c.Validate(); err != nil {
		t.Errorf("LogRetention 1<<20: %v", err)
	}
}
