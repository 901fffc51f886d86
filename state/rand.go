package state

import (
	"math/bits"

	"github.com/rollstep/rollstep/fixed"
)

// Rand is a seeded pseudo-random generator that lives inside a game state:
// PCG32 (XSH-RR output, 64-bit LCG state, the reference increment). Because
// it is a plain value inside S, it is saved, loaded, checksummed and diffed
// with the state, so a rollback replays exactly the same numbers.
//
// Rand is the only randomness allowed in a simulation step: never math/rand,
// hash/maphash, map iteration order or the clock. Seed it from the match
// configuration with NewRand, identically on every peer.
//
// A Rand is 8 bytes with 4-byte alignment on every target (its state is
// kept as two uint32 halves), so it never adds padding that differs between
// 32- and 64-bit targets. The zero Rand is usable and yields a fixed
// sequence, but prefer NewRand. Rand is not safe for concurrent use; it is
// not a cryptographic generator.
type Rand struct {
	lo, hi uint32 // the 64-bit LCG state
}

// pcgMul and pcgInc are the multiplier and increment of the reference PCG32
// (pcg_basic.c). The increment must be odd.
const (
	pcgMul = 6364136223846793005
	pcgInc = 1442695040888963407
)

// NewRand returns a Rand seeded with seed, following the reference
// pcg32_srandom_r seeding.
func NewRand(seed uint64) Rand {
	s := uint64(0)*pcgMul + pcgInc
	s += seed
	s = s*pcgMul + pcgInc
	return Rand{lo: uint32(s), hi: uint32(s >> 32)}
}

// next advances an LCG state with increment inc and returns the PCG32
// output of the old state.
func pcgNext(s *uint64, inc uint64) uint32 {
	old := *s
	*s = old*pcgMul + inc
	x := uint32(((old >> 18) ^ old) >> 27)
	return bits.RotateLeft32(x, -int(old>>59))
}

// Uint32 returns a uniformly distributed uint32.
func (r *Rand) Uint32() uint32 {
	s := uint64(r.hi)<<32 | uint64(r.lo)
	v := pcgNext(&s, pcgInc)
	r.lo, r.hi = uint32(s), uint32(s>>32)
	return v
}

// Uint64 returns a uniformly distributed uint64, made of two Uint32 results
// (the first is the high half).
func (r *Rand) Uint64() uint64 {
	hi := r.Uint32()
	return uint64(hi)<<32 | uint64(r.Uint32())
}

// Uint32N returns a uniformly distributed value in [0, n), without modulo
// bias, using Lemire's multiply-and-reject method. It panics if n is 0.
func (r *Rand) Uint32N(n uint32) uint32 {
	if n == 0 {
		panic("state: Rand.Uint32N with n == 0")
	}
	m := uint64(r.Uint32()) * uint64(n)
	if low := uint32(m); low < n {
		thresh := -n % n // 2^32 mod n: the size of the biased band
		for low < thresh {
			m = uint64(r.Uint32()) * uint64(n)
			low = uint32(m)
		}
	}
	return uint32(m >> 32)
}

// Int32N returns a uniformly distributed value in [0, n), without modulo
// bias. It panics if n <= 0.
func (r *Rand) Int32N(n int32) int32 {
	if n <= 0 {
		panic("state: Rand.Int32N with n <= 0")
	}
	return int32(r.Uint32N(uint32(n)))
}

// Bool returns true or false with equal probability.
func (r *Rand) Bool() bool { return r.Uint32()&(1<<31) != 0 }

// Fixed returns a uniformly distributed fixed.F in [0, 1): every multiple of
// 2^-32 in that range is equally likely.
func (r *Rand) Fixed() fixed.F { return fixed.FromRaw(int64(r.Uint32())) }
