package fixed

import "math/bits"

// Sqrt returns the square root of a, exactly rounded: the F nearest to the
// true √a (a tie cannot occur). Sqrt of a negative value returns 0. It never
// overflows: √MaxF is about 46341.
func Sqrt(a F) F {
	if a <= 0 {
		return 0
	}
	// √(raw/2^32) · 2^32 = √(raw · 2^32).
	return F(isqrtRound(uint64(a)>>(64-fracBits), uint64(a)<<fracBits))
}

// isqrtRound returns √(hi·2^64 + lo) rounded to the nearest integer. It
// requires hi·2^64 + lo ≤ 3·2^126, which keeps the result and every
// intermediate below 2^64.
func isqrtRound(hi, lo uint64) uint64 {
	var x uint64 // an estimate of ⌊√N⌋, never below it
	if hi == 0 {
		if lo == 0 {
			return 0
		}
		// Scale by an even power of two into [2^62, 2^64): exact.
		sh := uint(bits.LeadingZeros64(lo)) &^ 1
		x = isqrtNorm(lo<<sh) >> (sh / 2)
	} else {
		x = isqrtWide(hi, lo)
	}
	for {
		// With R = N - x²: x is ⌊√N⌋ once R ≥ 0, and then the root rounds
		// up when R > x, that is when N ≥ (x + 1/2)² = x² + x + 1/4.
		ph, pl := bits.Mul64(x, x)
		rl, b := bits.Sub64(lo, pl, 0)
		rh, b := bits.Sub64(hi, ph, b)
		if b == 0 {
			if rh != 0 || rl > x {
				x++
			}
			return x
		}
		x--
	}
}

// isqrtWide returns an estimate of ⌊√N⌋ for N = hi·2^64 + lo with 0 < hi
// and N ≤ 3·2^126: never below it, and at most a few above.
func isqrtWide(hi, lo uint64) uint64 {
	// Take the top 63 or 64 bits with an even shift, take their root, and
	// refine with one Newton step on the full 128-bit value.
	k := uint(bits.Len64(hi)+1) &^ 1 // 2..64
	x := isqrtNorm(hi<<(64-k)|lo>>k) << (k / 2)
	// x is within a relative 2^-31 of √N, so hi < x and the quotient fits.
	q, _ := bits.Div64(hi, lo, x)
	sum, c := bits.Add64(x, q, 0)
	// Newton's step never lands below ⌊√N⌋; it is at most a few above.
	return sum>>1 | c<<63
}

// isqrtNorm returns ⌊√m⌋ for m in [2^62, 2^64).
func isqrtNorm(m uint64) uint64 {
	// Interpolate √m between the table points around m: the chord is
	// within 2^-16 relative, so one Newton step lands within 2^-33 relative,
	// at most 1 above ⌊√m⌋ and never below it.
	i := (m>>56 - 64) & 255 // 0..191
	f := m >> 48 & 255      // position between points i and i+1, /256
	t0, t1 := uint64(sqrtTable[i]), uint64(sqrtTable[(i+1)&255])
	x := (t0<<8 + (t1-t0)*f) >> 7 // √m, to 2^-16
	x = (x + m/x) >> 1
	x = min(x, 1<<32-1)
	for x*x > m {
		x--
	}
	return x
}
