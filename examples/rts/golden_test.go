package rts

import (
	"testing"

	"github.com/rollstep/rollstep/state"
)

// goldenChecksum is state.Checksum of the state after play(t, 4, 1000,
// 1500, 2026): a bot match with no network. It is the same on every target
// of the determinism matrix (amd64, 32-bit (386, or arm under qemu),
// arm64 under qemu, wasm under node). Never edit it to make a target pass: a change that alters the
// simulation must change it on purpose, with the reason in the commit.
const goldenChecksum = 0xd7a0e6f06faac36d

// goldenDeaths is the number of units killed in that match, which says
// the golden run exercises combat and not only movement.
const goldenDeaths = 137

func TestGoldenChecksum(t *testing.T) {
	s, died := play(t, 4, 1000, 1500, 2026)
	if died != int(s.Deaths) {
		t.Errorf("%d deaths counted, State.Deaths = %d", died, s.Deaths)
	}
	if s.Deaths != goldenDeaths {
		t.Errorf("deaths = %d, want %d", s.Deaths, goldenDeaths)
	}
	if got := state.Checksum(s); got != goldenChecksum {
		t.Errorf("checksum = %#016x, want %#016x", got, uint64(goldenChecksum))
	}
}
