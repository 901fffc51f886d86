package replay_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/units"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/replay"
)

// openUnitsFarm opens the committed units replay.
func openUnitsFarm(b *testing.B) *replay.Replay[units.State, units.Order] {
	b.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "farm", "units-4p-1000u-600f.rsr"))
	if err != nil {
		b.Fatal(err)
	}
	rp, err := replay.Open[units.State, units.Order](data, unitsVersion)
	if err != nil {
		b.Fatal(err)
	}
	return rp
}

// reportRealtime reports game seconds played per wall-clock second.
func reportRealtime(b *testing.B, rp *replay.Replay[units.State, units.Order]) {
	h := rp.Header()
	game := time.Duration(b.N) * h.Duration
	b.ReportMetric(game.Seconds()/b.Elapsed().Seconds(), "x-realtime")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(h.Frames), "ns/frame")
}

// BenchmarkPlayback plays the units farm replay (4 players, 1,000 units,
// 600 turns at 10 turns per second) from the start to the end, as a
// viewer fast-forwarding does; x-realtime is how many times faster than
// the match was played.
func BenchmarkPlayback(b *testing.B) {
	rp := openUnitsFarm(b)
	pl := replay.NewPlayer(rp, units.Game{})
	b.ReportAllocs()
	for b.Loop() {
		_ = pl.Seek(0)
		for pl.Step() {
		}
	}
	reportRealtime(b, rp)
}

// BenchmarkBareSteps is the baseline of BenchmarkPlayback: the same 600
// steps with the same inputs, read from a plain slice, with no replay.
func BenchmarkBareSteps(b *testing.B) {
	rp := openUnitsFarm(b)
	var inputs []core.Input[units.Order]
	for f := range rp.Header().Frames {
		inputs, _ = rp.Inputs(f, inputs)
	}
	players := rp.Header().Players
	var s, initial units.State
	rp.Initial(&initial)
	fx := engine.NewEffectList(0)
	b.ReportAllocs()
	for b.Loop() {
		s = initial
		for f := 0; f < len(inputs); f += players {
			units.Game{}.Step(&s, inputs[f:f+players], fx)
		}
	}
	reportRealtime(b, rp)
}

// BenchmarkVerify re-simulates the units farm replay and checks its 600
// checksums and 6 keyframes.
func BenchmarkVerify(b *testing.B) {
	rp := openUnitsFarm(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := replay.Verify(rp, units.Game{}); err != nil {
			b.Fatal(err)
		}
	}
	reportRealtime(b, rp)
}

// BenchmarkSeek seeks to a frame just before a keyframe, the worst case:
// load the previous keyframe, then step K-1 frames.
func BenchmarkSeek(b *testing.B) {
	rp := openUnitsFarm(b)
	pl := replay.NewPlayer(rp, units.Game{})
	b.ReportAllocs()
	for b.Loop() {
		_ = pl.Seek(199)
		_ = pl.Seek(0)
	}
}
