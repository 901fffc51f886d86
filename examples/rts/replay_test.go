package rts

import (
	"errors"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core/replay"
	"github.com/rollstep/rollstep/state"
)

// TestReplayOfSimMatch: peer 0 of a simulated match records a replay that
// opens with this build, verifies (every stored checksum and keyframe is
// reproduced), ends in the state the peers agreed on, and is refused by
// another build.
func TestReplayOfSimMatch(t *testing.T) {
	r := playSim(t, SimConfig{Players: 3, Units: 1500, Turns: 700, Latency: 30 * ms, Loss: 0.02, Seed: 21, Record: true})
	rp, err := replay.Open[State, Command](r.Replay, Build)
	if err != nil {
		t.Fatal(err)
	}
	if rp.Frames() != 700 {
		t.Fatalf("replay has %d frames, want 700", rp.Frames())
	}
	if err := rp.Verify(Game{}); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	pl := replay.NewPlayer(rp, Game{})
	start := time.Now()
	for pl.Step() {
	}
	wall := time.Since(start)
	if got := state.Checksum(pl.State()); got != r.Peers[0].Checksum {
		t.Errorf("replay ends at checksum %#016x, the match at %#016x", got, r.Peers[0].Checksum)
	}
	t.Logf("replay: %d bytes, 700 turns (70 s of play) in %v: %.0f× real time", len(r.Replay), wall.Round(ms), 70/wall.Seconds())
	if _, err := replay.Open[State, Command](r.Replay, replay.VersionHash("another build")); !errors.Is(err, replay.ErrMismatch) {
		t.Errorf("another build: %v, want ErrMismatch", err)
	}
}
