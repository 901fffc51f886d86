package fighter

import (
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/state"
)

// play runs frames frames of a match between two bots seeded with seed,
// with every input confirmed, and returns the final state.
func play(frames int, seed uint64) *State {
	s := New(seed)
	bots := [2]*Bot{NewBot(0, seed), NewBot(1, seed)}
	in := make([]core.Input[Input], 2)
	fx := engine.NewEffectList(0) // zero capacity: effects are dropped here
	for range frames {
		for p, b := range bots {
			in[p] = core.Input[Input]{Value: b.Next(&s), Status: core.InputConfirmed}
		}
		Game{}.Step(&s, in, fx)
	}
	return &s
}

func TestSameSeedSameMatch(t *testing.T) {
	a, b := play(3000, 42), play(3000, 42)
	if state.Checksum(a) != state.Checksum(b) {
		t.Fatalf("two runs with one seed differ: %v", state.Diff(a, b))
	}
	if c := play(3000, 43); state.Checksum(a) == state.Checksum(c) {
		t.Fatal("two seeds gave the same match")
	}
}

// goldenChecksum is the checksum of play(10_000, 2026): the same on every
// target of the CI matrix (amd64, 32-bit (386 or arm), arm64, wasm). Never edit it to make
// a target pass; a deliberate change of the rules changes it, and the
// commit says why.
const goldenChecksum = 0xf230c42f37e1bc00

func TestGoldenChecksum(t *testing.T) {
	s := play(10_000, 2026)
	a, b := &s.Fighters[0], &s.Fighters[1]
	if s.Round < 4 || a.Hits+b.Hits < 50 || a.Blocked+b.Blocked < 10 || a.Wins+b.Wins < 3 {
		t.Errorf("round %d, hits %d+%d, blocks %d+%d, wins %d+%d: the golden match exercises too little",
			s.Round, a.Hits, b.Hits, a.Blocked, b.Blocked, a.Wins, b.Wins)
	}
	if got := state.Checksum(s); got != goldenChecksum {
		t.Errorf("checksum = %#016x, want %#016x", got, uint64(goldenChecksum))
	}
}
