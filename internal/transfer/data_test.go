package transfer

import (
	"encoding/binary"
	"math/rand/v2"
)

// pseudoState returns n bytes that look like a game state: 16-byte unit
// records with slowly varying positions, a few flags and zero padding.
// They compress about 3:1.
func pseudoState(n int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	var x, y int16
	for off, id := 0, uint32(0); off+16 <= n; off, id = off+16, id+1 {
		x += int16(rng.IntN(5) - 2)
		y += int16(rng.IntN(5) - 2)
		binary.LittleEndian.PutUint32(b[off:], id)
		binary.LittleEndian.PutUint16(b[off+4:], uint16(x))
		binary.LittleEndian.PutUint16(b[off+6:], uint16(y))
		b[off+8] = byte(rng.IntN(101)) // hit points
		if rng.IntN(8) == 0 {
			b[off+9] = byte(rng.IntN(4)) // state flags
		}
	}
	return b
}

// randomBytes returns n incompressible bytes.
func randomBytes(n int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}
