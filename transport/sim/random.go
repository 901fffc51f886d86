package sim

import (
	"math/bits"
	"math/rand/v2"
)

// linkRand is the random source of one directed link: a PCG generator
// seeded from the network seed and the link's endpoints, so that a link's
// loss, jitter, duplication and reordering do not depend on traffic on any
// other link. It holds no pointers and is used by value.
type linkRand struct {
	pcg rand.PCG
}

// seedLinkRand returns the source for the link from → to under seed. The
// two PCG seed words are splitmix64 mixes, so neighbouring links and seeds
// give unrelated streams.
func seedLinkRand(seed uint64, from, to uint32) linkRand {
	key := uint64(from)<<32 | uint64(to)
	var r linkRand
	r.pcg.Seed(splitmix64(seed^splitmix64(key)), splitmix64((key+0x9e3779b97f4a7c15)^seed))
	return r
}

// splitmix64 is the finalizer of the SplitMix64 generator: a bijective
// mix of x in which every input bit affects every output bit.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// chance reports true with probability p, for p in [0, 1]. It draws one
// value only when 0 < p < 1, so links with no impairment use no randomness.
func (r *linkRand) chance(p float64) bool {
	switch {
	case p <= 0:
		return false
	case p >= 1:
		return true
	}
	return float64(r.pcg.Uint64()>>11)*0x1p-53 < p
}

// below returns a uniform value in [0, n) for n > 0, using Lemire's
// multiply-and-reject method so that the result is unbiased.
func (r *linkRand) below(n uint64) uint64 {
	hi, lo := bits.Mul64(r.pcg.Uint64(), n)
	if lo < n {
		threshold := -n % n
		for lo < threshold {
			hi, lo = bits.Mul64(r.pcg.Uint64(), n)
		}
	}
	return hi
}
