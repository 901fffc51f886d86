package wire

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestXorDeltaMatchesBytewise checks the word-at-a-time xorDelta against
// a byte loop for every length up to 40, so each tail width (4, 2 and 1
// bytes after the whole words) is covered, with deltas that have zero
// and nonzero bytes in every position.
func TestXorDeltaMatchesBytewise(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 41 {
		for range 50 {
			cur, prev := make([]byte, n), make([]byte, n)
			for i := range n {
				cur[i] = byte(rng.IntN(4)) // many equal bytes: zero deltas
				prev[i] = byte(rng.IntN(4))
			}
			wantCur, wantPrev, wantNZ := make([]byte, n), bytes.Clone(cur), 0
			for i := range n {
				wantCur[i] = cur[i] ^ prev[i]
				if wantCur[i] != 0 {
					wantNZ++
				}
			}
			if nz := xorDelta(cur, prev); nz != wantNZ || !bytes.Equal(cur, wantCur) || !bytes.Equal(prev, wantPrev) {
				t.Fatalf("n=%d: nz %d want %d; delta %x want %x; prev %x want %x", n, nz, wantNZ, cur, wantCur, prev, wantPrev)
			}
		}
	}
}
