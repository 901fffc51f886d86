package rts

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/internal/testenv"
)

const ms = time.Millisecond

// playSim runs PlaySim and fails the test unless every peer ended with
// the same checksum and no desync.
func playSim(t *testing.T, cfg SimConfig) *SimResult {
	t.Helper()
	start := time.Now()
	r, err := PlaySim(cfg)
	require.NoError(t, err)
	t.Logf("%d peers × %d units × %d turns: %v wall, %v virtual, %d deaths", cfg.Players, cfg.Units, cfg.Turns,
		time.Since(start).Round(ms), r.Elapsed, r.Final.Deaths)
	for i, p := range r.Peers {
		t.Logf("  peer %d: %.0f B/s up, stall %v (%d turns), D=%d, checksum %#016x", i, p.Upload, p.Stall, p.StalledTurns, p.Delay, p.Checksum)
	}
	require.True(t, r.Agree(), "peers disagree: %+v", r.Peers)
	require.Equal(t, int32(cfg.Turns), r.Final.Tick, "the final state's tick")
	return r
}

// TestFourPeersAgree: 4 peers over a network with latency, jitter and loss
// reach identical checksums: 1,000 units × 800 turns by default, and
// 5,000 units × 2,000 turns (about 9 s on the 2-core development machines)
// in the soak run.
func TestFourPeersAgree(t *testing.T) {
	cfg := SimConfig{Players: 4, Latency: 40 * ms, Jitter: 10 * ms, Loss: 0.02, Seed: 11,
		Units: testenv.Pick(1000, 5000), Turns: testenv.Pick(800, 2000)}
	r := playSim(t, cfg)
	assert.NotZero(t, r.Final.Deaths, "no unit died: the match exercises too little")
}

// TestPeersAgreeUnderHeavyLoss: 8 peers on a bad network (150 ms ± 50 ms,
// 10 % loss) agree, with stalls.
func TestPeersAgreeUnderHeavyLoss(t *testing.T) {
	playSim(t, SimConfig{Players: 8, Units: 800, Turns: 300, Latency: 150 * ms, Jitter: 50 * ms, Loss: 0.10, Seed: 12})
}

// TestUploadIndependentOfUnits: lockstep sends commands, never state, and
// a Command names points, not units, so each peer's upload at 1,000 units
// (and 5,000 and 10,000 in the soak run) is within 1 % of its upload at
// 10, over 300 turns (600 in the soak run).
func TestUploadIndependentOfUnits(t *testing.T) {
	counts := testenv.Pick([]int{10, 1000}, []int{10, 1000, 5000, 10000})
	var base *SimResult
	for _, n := range counts {
		t.Run(fmt.Sprintf("units=%d", n), func(t *testing.T) {
			r := playSim(t, SimConfig{Players: 4, Units: n, Turns: testenv.Pick(300, 600), Latency: 40 * ms, Jitter: 5 * ms, Seed: 13})
			if base == nil {
				base = r
				return
			}
			for i, p := range r.Peers {
				assert.InEpsilon(t, base.Peers[i].Upload, p.Upload, 0.01,
					"peer %d: B/s at %d units against %d units", i, n, counts[0])
			}
		})
	}
}
