package fixed

import "math/bits"

// Mul returns a·b rounded to the nearest F, ties toward +∞. The full
// 128-bit product is formed first, so the result is exactly rounded: it is
// within 2^-33 (half an LSB) of the true product.
//
// A product beyond the range of F saturates to MaxF or MinF.
func (a F) Mul(b F) F {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	hi -= uint64(a>>63)&uint64(b) + uint64(b>>63)&uint64(a)
	lo, c := bits.Add64(lo, 1<<(fracBits-1), 0)
	hi += c
	// The product fits when hi, read as signed, is in [-2^31, 2^31).
	if hi+1<<(fracBits-1) >= 1<<fracBits {
		return sat(a^b < 0)
	}
	return F(hi<<fracBits | lo>>fracBits)
}

// Div returns a/b rounded to the nearest F, ties toward +∞; the result is
// exactly rounded (within half an LSB of the true quotient).
//
// It never panics. A quotient beyond the range of F saturates to MaxF or
// MinF; MinF.Div(-One) is MaxF. Division by zero saturates by the sign of
// a: MaxF for a > 0, MinF for a < 0, and 0 for 0/0.
func (a F) Div(b F) F { return divRaw(int64(a), int64(b)) }

// divRaw returns a·2^32/b rounded to the nearest F, ties toward +∞,
// saturated; see Div.
func divRaw(a, b int64) F {
	if b == 0 {
		switch {
		case a > 0:
			return MaxF
		case a < 0:
			return MinF
		}
		return 0
	}
	neg := a^b < 0
	ua, ub := abs64(a), abs64(b)
	hi, lo := ua>>(64-fracBits), ua<<fracBits
	if hi >= ub {
		return sat(neg) // the quotient is at least 2^64
	}
	q, r := bits.Div64(hi, lo, ub)
	if q >= 1<<63 {
		return sat(neg)
	}
	// Round the magnitude: up past the half, and at exactly half only when
	// the quotient is positive, so that ties go toward +∞.
	if h := ub - r; r > h || (r == h && !neg) {
		q++
	}
	if neg {
		return F(-int64(q)) // q ≤ 2^63, and -2^63 is MinF
	}
	if q >= 1<<63 {
		return MaxF
	}
	return F(q)
}

// Mod returns the remainder of a/b truncated toward zero: the result has the
// sign of a (or is zero) and a magnitude below |b|, exactly like Go's % on
// integers. It is exact and never overflows; MinF.Mod(-1 LSB) is 0.
//
// Mod by zero returns a, so that a == q·b + a.Mod(b) holds with q = 0. It
// never panics.
func (a F) Mod(b F) F {
	if b == 0 {
		return a
	}
	if b == -1 {
		return 0 // MinInt64 % -1 is 0 in Go, but say it plainly.
	}
	return F(int64(a) % int64(b))
}

// Neg returns -a. Unlike the unary - operator, which wraps, Neg saturates:
// Neg(MinF) is MaxF.
func (a F) Neg() F {
	if a == MinF {
		return MaxF
	}
	return -a
}

// Abs returns |a|. It saturates: MinF.Abs() is MaxF, one LSB short of the
// true 2^31.
func (a F) Abs() F {
	if a < 0 {
		return a.Neg()
	}
	return a
}

// Sign returns -1, 0 or +1 as a is negative, zero or positive. It cannot
// overflow.
func (a F) Sign() int {
	return int(a>>63) | int(uint64(-a)>>63)
}

// Clamp returns a limited to [lo, hi]: min(max(a, lo), hi). If lo > hi it
// returns hi. It never overflows. (For the smaller or larger of two values,
// use the built-in min and max, which work on F.)
func Clamp(a, lo, hi F) F {
	if a < lo {
		a = lo
	}
	if a > hi {
		a = hi
	}
	return a
}

// Floor returns the largest integral F not above a. It never overflows.
func (a F) Floor() F { return a &^ fracMask }

// Ceil returns the smallest integral F not below a. Above 2^31-1 the true
// ceiling, 2^31, does not fit, and Ceil saturates to MaxF.
func (a F) Ceil() F {
	if a > MaxF-fracMask {
		return MaxF
	}
	return (a + fracMask) &^ fracMask
}

// Round returns the integral F nearest to a, ties toward +∞ (Round(2.5) is
// 3, Round(-2.5) is -2). At and above 2^31-0.5 the true result, 2^31, does
// not fit, and Round saturates to MaxF.
func (a F) Round() F {
	if a > MaxF-Half {
		return MaxF
	}
	return (a + Half) &^ fracMask
}

// Lerp returns a + (b-a)·t rounded to the nearest F, ties toward +∞: a at
// t = 0, b at t = One, and an extrapolation for t outside [0, 1]. It is
// computed exactly in 128 bits, so b-a cannot overflow; a result beyond
// the range of F saturates to MaxF or MinF.
func Lerp(a, b, t F) F {
	d, _ := i128From(int64(b)).sub(i128From(int64(a))) // 65 significant bits
	// d·t = d.lo·t + d.hi·t·2^64, where d.lo is unsigned and d.hi is 0 or -1.
	hi, lo := bits.Mul64(d.lo, uint64(t))
	hi -= uint64(t>>63) & d.lo
	hi += d.hi * uint64(t)
	p := i128{hi, lo}
	s, over := p.add(i128{uint64(int64(a) >> (64 - fracBits)), uint64(a) << fracBits})
	if over {
		return sat(a < 0)
	}
	return s.shiftF()
}
