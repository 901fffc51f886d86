package rts

import (
	"errors"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/testenv"
	"github.com/rollstep/rollstep/replay"
	"github.com/rollstep/rollstep/state"
)

// TestReplayOfSimMatch: peer 0 of a simulated match records a replay that
// opens with this build, verifies (every stored checksum and keyframe is
// reproduced), ends in the state the peers agreed on, and is refused by
// another build.
func TestReplayOfSimMatch(t *testing.T) {
	turns := testenv.Pick[core.Frame](400, 700)
	r := playSim(t, SimConfig{Players: 3, Units: testenv.Pick(800, 1500), Turns: int(turns), Latency: 30 * ms, Loss: 0.02, Seed: 21, Record: true})
	rp, err := replay.Open[State, Command](r.Replay, Build)
	if err != nil {
		t.Fatal(err)
	}
	if h := rp.Header(); h.Frames != turns {
		t.Fatalf("replay has %d frames, want %d", h.Frames, turns)
	}
	if err := replay.VerifyData(r.Replay, Build, Game{}); err != nil {
		t.Fatalf("VerifyData: %v", err)
	}
	pl := replay.NewPlayer(rp, Game{})
	start := time.Now()
	for pl.Step() {
	}
	wall := time.Since(start)
	if got := state.Checksum(pl.State()); got != r.Peers[0].Checksum {
		t.Errorf("replay ends at checksum %#016x, the match at %#016x", got, r.Peers[0].Checksum)
	}
	played := float64(turns) / 10 // 100 ms turns
	t.Logf("replay: %d bytes, %d turns (%.0f s of play) in %v: %.0f× real time", len(r.Replay), turns, played, wall.Round(ms), played/wall.Seconds())
	if _, err := replay.Open[State, Command](r.Replay, core.GameVersion("another build")); !errors.Is(err, replay.ErrMismatch) {
		t.Errorf("another build: %v, want ErrMismatch", err)
	}
}
