package rollstep

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/core/replay"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport/sim"
)

// TestLogRecordsEveryMode drains each mode's input log, through the
// Session interface, into a replay Recorder after every round of
// Updates; the replay verifies and ends at the confirmed state.
func TestLogRecordsEveryMode(t *testing.T) {
	build := replay.VersionHash("root test game")
	dg, err := core.DigestOf[gInput](2, 60, 0, build)
	if err != nil {
		t.Fatal(err)
	}
	game := func() core.Game[gState, gInput] { return core.GameFunc[gState, gInput]((&gPeer{}).step) }
	for _, mode := range []Mode{Lockstep, Rollback, Auto} {
		t.Run(mode.String(), func(t *testing.T) {
			net, err := sim.New(sim.Config{Seed: 5, Link: sim.LinkConfig{Latency: sim.Latency{Base: 40 * ms, Jitter: 10 * ms}, Loss: 0.05}})
			if err != nil {
				t.Fatal(err)
			}
			peers := newPeers(t, net, Config{Mode: mode, LogRetention: 32})
			rec, err := replay.NewRecorder(replay.Config{Game: build, Match: dg}, game(), &gState{})
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
