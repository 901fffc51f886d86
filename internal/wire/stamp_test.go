package wire

import (
	"fmt"
	"testing"
)

// TestStampDue checks that the timing rides in every one of the first
// 4·StampEvery packets, then in one packet in StampEvery of every
// arithmetic progression of sequence numbers a front end may use (every
// number, every other one after another packet type, ...), with no long
// gap: round-trip samples keep coming whatever else the peer sends.
func TestStampDue(t *testing.T) {
	for seq := range uint64(4 * StampEvery) {
		if !StampDue(seq) {
			t.Fatalf("StampDue(%d) = false in the first %d packets", seq, 4*StampEvery)
		}
	}
	for _, step := range []uint64{1, 2, 3, 4, 5, 6, 8} {
		for first := range step {
			t.Run(fmt.Sprintf("every %d from %d", step, first), func(t *testing.T) {
				const n = 100_000
				due, gap, worst := 0, 0, 0
				for k := range uint64(n) {
					if StampDue(1000 + first + step*k) {
						due++
						worst, gap = max(worst, gap), 0
					} else {
						gap++
					}
				}
				if f := float64(due) / n; f < 0.9/StampEvery || f > 1.1/StampEvery {
					t.Errorf("%.4f of packets stamped, want about 1/%d", f, StampEvery)
				}
				if worst > 4*StampEvery {
					t.Errorf("%d packets in a row without timing", worst)
				}
			})
		}
	}
}
