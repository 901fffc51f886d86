package fixed

import "math/bits"

// u128 is an unsigned 128-bit integer hi·2^64 + lo.
type u128 struct{ hi, lo uint64 }

// mulU64 returns the full product a·b.
func mulU64(a, b uint64) u128 {
	hi, lo := bits.Mul64(a, b)
	return u128{hi, lo}
}

// add returns x+y and whether it overflowed 128 bits.
func (x u128) add(y u128) (u128, bool) {
	lo, c := bits.Add64(x.lo, y.lo, 0)
	hi, c := bits.Add64(x.hi, y.hi, c)
	return u128{hi, lo}, c != 0
}

// less reports whether x < y.
func (x u128) less(y u128) bool {
	return x.hi < y.hi || (x.hi == y.hi && x.lo < y.lo)
}

// i128 is a signed 128-bit integer in two's complement: hi·2^64 + lo with
// hi read as int64.
type i128 struct{ hi, lo uint64 }

// mulI64 returns the full signed product a·b.
func mulI64(a, b int64) i128 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	// The unsigned product of the two's complement bit patterns is off by
	// b·2^64 when a < 0 and by a·2^64 when b < 0.
	hi -= uint64(a>>63)&uint64(b) + uint64(b>>63)&uint64(a)
	return i128{hi, lo}
}

// i128From returns a sign-extended to 128 bits.
func i128From(a int64) i128 { return i128{uint64(a >> 63), uint64(a)} }

// neg reports whether x < 0.
func (x i128) neg() bool { return int64(x.hi) < 0 }

// add returns x+y and whether the signed sum overflowed 128 bits.
func (x i128) add(y i128) (i128, bool) {
	lo, c := bits.Add64(x.lo, y.lo, 0)
	hi, _ := bits.Add64(x.hi, y.hi, c)
	s := i128{hi, lo}
	return s, x.neg() == y.neg() && s.neg() != x.neg()
}

// sub returns x-y and whether the signed difference overflowed 128 bits.
func (x i128) sub(y i128) (i128, bool) {
	lo, b := bits.Sub64(x.lo, y.lo, 0)
	hi, _ := bits.Sub64(x.hi, y.hi, b)
	d := i128{hi, lo}
	return d, x.neg() != y.neg() && d.neg() != x.neg()
}

// shiftF returns x/2^32 rounded to the nearest integer (ties toward +∞),
// saturated to the range of F. It is how a Q64.64 product becomes an F.
func (x i128) shiftF() F {
	lo, c := bits.Add64(x.lo, 1<<(fracBits-1), 0)
	hi := x.hi + c
	if c != 0 && hi == 1<<63 {
		// x was just below 2^127 and the rounding carried out of range.
		return MaxF
	}
	return satShift(hi, lo)
}

// satShift returns the 128-bit two's complement value hi:lo shifted right by
// 32 as an F, saturated to MaxF or MinF when it does not fit.
func satShift(hi, lo uint64) F {
	if t := int64(hi) >> (fracBits - 1); t != 0 && t != -1 {
		if int64(hi) < 0 {
			return MinF
		}
		return MaxF
	}
	return F(hi<<fracBits | lo>>fracBits)
}

// sat returns MinF when neg is true and MaxF otherwise.
func sat(neg bool) F {
	if neg {
		return MinF
	}
	return MaxF
}

// abs64 returns |a| as a uint64; abs64(MinInt64) is 2^63.
func abs64(a int64) uint64 {
	m := a >> 63
	return uint64((a ^ m) - m)
}

// mulDivRound returns a·b/c rounded to the nearest integer, ties up. The
// caller guarantees c > 0 and a·b/c < 2^64 - 1.
func mulDivRound(a, b, c uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	q, r := bits.Div64(hi, lo, c)
	if r >= c-r {
		q++
	}
	return q
}

// dot2 returns (a·b + c·d)/2^32 rounded to the nearest F, ties toward +∞,
// saturated: exact for any inputs.
func dot2(a, b, c, d int64) F {
	s, over := mulI64(a, b).add(mulI64(c, d))
	if over {
		return sat(!s.neg()) // the true sum is ±2^127; the wrapped sign is flipped
	}
	return s.shiftF()
}

// det2 returns (a·b - c·d)/2^32 rounded to the nearest F, ties toward +∞,
// saturated: exact for any inputs.
func det2(a, b, c, d int64) F {
	s, over := mulI64(a, b).sub(mulI64(c, d))
	if over {
		return sat(!s.neg())
	}
	return s.shiftF()
}

// toF returns x/2^32 rounded to the nearest F (ties up), saturated to MaxF.
func (x u128) toF() F {
	lo, c := bits.Add64(x.lo, 1<<(fracBits-1), 0)
	hi := x.hi + c
	if hi >= 1<<(fracBits-1) {
		return MaxF
	}
	return F(hi<<fracBits | lo>>fracBits)
}

// rawToF returns the non-negative raw value r as an F, saturated to MaxF.
func rawToF(r uint64) F {
	if r > uint64(MaxF) {
		return MaxF
	}
	return F(r)
}

// scaleTo replaces the magnitudes u (each at most 2^63, at least one
// nonzero) of a vector's components with those of the vector of length l in
// the same direction: u[i]·l/|u|, rounded to nearest. l must be below 2^63.
// Small vectors are first scaled exactly by a power of two so that their
// largest magnitude is at least 2^62: then |u| is rounded to 1 part in 2^63
// and each result is within ½ + l·2^-63 of exact (in raw units).
func scaleTo(u []uint64, l uint64) {
	var m uint64
	for _, x := range u {
		m = max(m, x)
	}
	if lz := bits.LeadingZeros64(m); lz > 1 {
		for i := range u {
			u[i] <<= uint(lz - 1)
		}
	}
	var s u128
	for _, x := range u {
		s, _ = s.add(mulU64(x, x)) // ≤ 3·2^126: no overflow
	}
	n := isqrtRound(s.hi, s.lo) // ≥ 2^62, within ½ of |u|
	for i, x := range u {
		u[i] = mulDivRound(x, l, n) // ≤ l, since x ≤ n (up to rounding)
	}
}
