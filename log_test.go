package rollstep

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/replay"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport/sim"
)

// TestLogRecordsEveryMode drains each mode's input log, through the
// Session interface, into a replay Recorder after every round of
// Updates; the replay verifies and ends at the confirmed state.
func TestLogRecordsEveryMode(t *testing.T) {
	build := core.GameVersion("root test game")
	game := func() core.Game[gState, gInput] { return core.GameFunc[gState, gInput]((&gPeer{}).step) }
	for _, mode := range []Mode{Lockstep, Rollback, Auto} {
		t.Run(mode.String(), func(t *testing.T) {
			net, err := sim.New(sim.Config{Seed: 5, Link: sim.LinkConfig{Latency: sim.Latency{Base: 40 * ms, Jitter: 10 * ms}, Loss: 0.05}})
			if err != nil {
				t.Fatal(err)
			}
			peers := newPeers(t, net, Config{Mode: mode, LogRetention: 32})
			rec, err := replay.NewRecorder(replay.Config{Game: build, Players: 2, TickRate: 60}, game(), &gState{})
			if err != nil {
				t.Fatal(err)
			}
			var now time.Duration
			for now < 6*time.Second {
				play(t, net, peers, &now, now+4*ms, 4*ms)
				if err := rec.AddLog(peers[0].sess); err != nil {
					t.Fatalf("at %v: %v", now, err)
				}
			}
			end := agree(t, peers)
			_, logEnd := peers[0].sess.LogRange()
			if rec.Frames() != logEnd || logEnd < end || end < 50 {
				t.Fatalf("replay of %d frames, log ends at %d, %d confirmed by both", rec.Frames(), logEnd, end)
			}
			if got, want := state.Checksum(rec.State()), peers[0].sums[logEnd-1]; got != want {
				t.Errorf("replay ends at checksum %#x, the session's frame %d at %#x", got, logEnd-1, want)
			}
			if err := replay.VerifyData(rec.Bytes(), build, game()); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestAddLogReplaysPausesAndTicks: AddLog records one replay frame per
// call of the game's Step, so a match that pauses (in every mode) or runs
// three Steps a turn (Lockstep) replays exactly. Before, AddLog recorded
// one frame per log frame (ReadLog): a paused frame became a Step and a
// turn of three ticks one Step, and the replay ended elsewhere.
func TestAddLogReplaysPausesAndTicks(t *testing.T) {
	build := core.GameVersion("root test game")
	game := func() core.Game[gState, gInput] { return core.GameFunc[gState, gInput]((&gPeer{}).step) }
	for _, tc := range []struct {
		mode  Mode
		ticks int
	}{{Lockstep, 3}, {Rollback, 0}, {Auto, 0}} {
		t.Run(tc.mode.String(), func(t *testing.T) {
			net, err := sim.New(sim.Config{Seed: 6, Link: sim.LinkConfig{Latency: sim.Latency{Base: 30 * ms, Jitter: 5 * ms}, Loss: 0.05}})
			if err != nil {
				t.Fatal(err)
			}
			peers := newPeers(t, net, Config{Mode: tc.mode, LogRetention: 64, TicksPerTurn: tc.ticks, TickRate: 60})
			rec, err := replay.NewRecorder(replay.Config{Game: build, Players: 2, TickRate: 60}, game(), &gState{})
			if err != nil {
				t.Fatal(err)
			}
			var now time.Duration
			for now < 6*time.Second {
				switch now {
				case 2 * time.Second:
					if err := peers[1].sess.Pause(1); err != nil {
						t.Fatal(err)
					}
				case 3 * time.Second:
					if err := peers[0].sess.Resume(0); err != nil {
						t.Fatal(err)
					}
				}
				play(t, net, peers, &now, now+4*ms, 4*ms)
				if err := rec.AddLog(peers[0].sess); err != nil {
					t.Fatalf("at %v: %v", now, err)
				}
			}
			_, logEnd := peers[0].sess.LogRange()
			steps := rec.Frames()
			// agree compares by frame; a paused match has fewer Steps
			// than frames, so compare the confirmed Steps here.
			for i, p := range peers {
				if n := p.sess.Stats().Desyncs; n != 0 {
					t.Fatalf("peer %d: %d desyncs", i, n)
				}
			}
			for g := range int(steps) {
				if peers[0].sums[g] != peers[1].sums[g] {
					t.Fatalf("Step %d differs between the peers", g)
				}
			}
			t.Logf("%d frames logged, %d Steps recorded", logEnd, steps)
			if steps >= logEnd*core.Frame(max(tc.ticks, 1))-30 {
				t.Fatalf("%d Steps in %d frames of %d ticks: the match did not pause", steps, logEnd, max(tc.ticks, 1))
			}
			if got, want := state.Checksum(rec.State()), peers[0].sums[steps-1]; got != want {
				t.Errorf("replay ends at checksum %#x, the session after Step %d at %#x", got, steps-1, want)
			}
			if err := replay.VerifyData(rec.Bytes(), build, game()); err != nil {
				t.Error(err)
			}
		})
	}
}
