package fixed

import "math/bits"

// Sin returns the sine of a. It is guaranteed within 2^-28 of the true
// value; the tests measure at most about 0.53 LSB (2^-32.9). Sin of a
// multiple of QuarterTurn is exact: 0, One or -One. The result is always
// in [-One, One]; nothing can overflow.
func Sin(a Angle) F {
	i, d := sinSplit(a)
	cosD, sinD := taylor(d)
	st, ct := sinTable[i&511], sinTable[(sinSteps-i)&511]
	if a&QuarterTurn != 0 { // odd quadrant: the cosine of the point
		st, ct, sinD = ct, st, -sinD
	}
	s := st + (st*cosD)>>sinFracBits + ((ct>>10)*sinD)>>30
	if a&HalfTurn != 0 {
		s = -s
	}
	return F((s + 1<<7) >> 8)
}

// Cos returns the cosine of a, with the accuracy of Sin: guaranteed within
// 2^-28, measured within about 0.53 LSB. Cos of a multiple of QuarterTurn
// is exact. It cannot overflow.
func Cos(a Angle) F { return Sin(a + QuarterTurn) }

// sinCos returns Sin(a) and Cos(a), bit for bit, at about the cost of one.
// FromAngle and Vec2.Rotate use it. Like them it cannot overflow.
func sinCos(a Angle) (s, c F) {
	i, d := sinSplit(a)
	cosD, sinD := taylor(d)
	st, ct := sinTable[i&511], sinTable[(sinSteps-i)&511]
	s40 := st + (st*cosD)>>sinFracBits + ((ct>>10)*sinD)>>30
	c40 := ct + (ct*cosD)>>sinFracBits + ((st>>10)*-sinD)>>30
	switch a >> 30 {
	case 1:
		s40, c40 = c40, -s40
	case 2:
		s40, c40 = -s40, -c40
	case 3:
		s40, c40 = -c40, s40
	}
	return F((s40 + 1<<7) >> 8), F((c40 + 1<<7) >> 8)
}

// How Sin, Cos and sinCos work: the angle splits into a quadrant and a
// point in it, and the point into the nearest table point t (sinSplit) and
// a small offset δ, |δ| ≤ π/1024. Then
//
//	sin(t+δ) = sin t + sin t·(cos δ - 1) + cos t·sin δ
//	cos(t+δ) = cos t + cos t·(cos δ - 1) - sin t·sin δ
//
// with sin t and cos t from sinTable and sin δ ≈ δ - δ³/6,
// cos δ - 1 ≈ -δ²/2 + δ⁴/24 (taylor), whose truncation errors are below
// 2^-46. Everything carries 40 fractional bits and every product fits in
// 64 bits; the products by sin δ use cos t and sin t cut to 30 fractional
// bits, which costs under 2^-38. The small helpers are inlined, so Sin and
// sinCos make no calls.

// sinSplit returns the index of the sinTable entry nearest to a within its
// quadrant, 0..sinSteps, and the offset d from it, |d| ≤ 2^21 units.
func sinSplit(a Angle) (i uint32, d int64) {
	const stepBits = 30 - 8 // log2(QuarterTurn/sinSteps)
	r := uint32(a) & (1<<30 - 1)
	i = (r + 1<<(stepBits-1)) >> stepBits
	return i, int64(r) - int64(i)<<stepBits
}

// taylor returns cos δ - 1 and sin δ with 40 fractional bits for the angle
// δ of d units, |d| ≤ 2^21.
func taylor(d int64) (cosD, sinD int64) {
	// δ = d · 2π/2^32 radians = d·π/2^31, with 40 fractional bits.
	dl := d * piQ40 >> 31 // |δ| < 2^31.7
	d30 := dl >> 10       // δ with 30 fractional bits
	d2 := d30 * d30 >> 20 // δ², 40 fractional bits (< 2^23.3)
	d3 := d2 * d30 >> 30  // δ³, 40 fractional bits (< 2^15)
	d4 := d2 * d2 >> 40   // δ⁴, 40 fractional bits (< 2^6.6)
	return d4*twentyFourth>>40 - d2>>1, dl - d3*sixth>>40
}

// sixth and twentyFourth are 2^40/6 and 2^40/24, rounded.
const (
	sixth        = (1<<40 + 3) / 6
	twentyFourth = (1<<40 + 12) / 24
)

// Atan2 returns the angle of the point (x, y) seen from the origin: the
// Angle whose direction is that of the vector (x, y). It is guaranteed
// within 2^-20 turn of the true value; the tests measure at most 2^-22.2
// turn (about 0.00008 degrees). Angles along the axes and the
// diagonals are exact. Atan2(0, 0) returns 0. It never panics or
// overflows, for any x and y.
func Atan2(y, x F) Angle {
	if x == 0 && y == 0 {
		return 0
	}
	ax, ay := abs64(int64(x)), abs64(int64(y))
	swap := ay > ax
	if swap {
		ax, ay = ay, ax
	}
	// t = ay/ax in [0, 1] with 32 fractional bits; ay ≤ ax keeps the
	// quotient in range.
	t, _ := bits.Div64(ay>>(64-fracBits), ay<<fracBits, ax)
	const fb = fracBits - 8 // log2(2^32/atanSteps)
	i := t >> fb            // 0..atanSteps
	f := int64(t & (1<<fb - 1))
	v0 := atanTable[i]
	v1 := atanTable[min(i+1, atanSteps)]
	v := v0 + (v1-v0)*f>>fb
	ang := Angle((v + 1<<(atanExtraBits-1)) >> atanExtraBits) // in [0, QuarterTurn/2]
	if swap {
		ang = QuarterTurn - ang
	}
	if x < 0 {
		ang = HalfTurn - ang
	}
	if y < 0 {
		ang = -ang
	}
	return ang
}
