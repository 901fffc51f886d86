package fighter_test

import (
	"errors"
	"testing"
	"time"

	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/examples/fighter/internal/match"
	"github.com/rollstep/rollstep/replay"
	"github.com/rollstep/rollstep/state"
)

// recordMatch records a replay of a minute of netplay at 100 ms and 5 %
// loss, from player 0's confirmed inputs.
func recordMatch(tb testing.TB) ([]byte, uint64) {
	tb.Helper()
	r, err := match.RunSim(match.SimConfig{Frames: 3600, Latency: 100 * time.Millisecond, Loss: 0.05, Seed: 11, Record: true})
	if err != nil {
		tb.Fatal(err)
	}
	return r.Replay.Bytes(), r.Peers[0].Checksum
}

func TestReplayOfNetplayVerifies(t *testing.T) {
	data, final := recordMatch(t)
	rp, err := replay.Open[fighter.State, fighter.Input](data, match.GameID)
	if err != nil {
		t.Fatal(err)
	}
	if err := replay.VerifyData(data, match.GameID, fighter.Game{}); err != nil {
		t.Fatal(err)
	}
	pl := replay.NewPlayer(rp, fighter.Game{})
	if err := pl.Seek(rp.Header().Frames); err != nil {
		t.Fatal(err)
	}
	if got := state.Checksum(pl.State()); got != final {
		t.Errorf("replay ends in %#x, the match in %#x", got, final)
	}
	var other [16]byte
	if _, err := replay.Open[fighter.State, fighter.Input](data, other); !errors.Is(err, replay.ErrMismatch) {
		t.Errorf("another build opened the replay: %v", err)
	}
	t.Logf("a minute of play in %d bytes", len(data))
}

// BenchmarkReplayPlayback plays a recorded minute back as fast as the CPU
// allows and reports the speed as a multiple of real time.
func BenchmarkReplayPlayback(b *testing.B) {
	data, _ := recordMatch(b)
	rp, err := replay.Open[fighter.State, fighter.Input](data, match.GameID)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		pl := replay.NewPlayer(rp, fighter.Game{})
		for pl.Step() {
		}
	}
	per := time.Since(start) / time.Duration(b.N)
	b.ReportMetric(float64(time.Minute)/float64(per), "x-realtime")
}
