package fixed

// Vec2 is a 2D vector of F. The zero value is the zero vector. Like F it
// is plain data, safe to copy, hash and diff as bytes.
//
// Add and Sub wrap like F's operators. Scale, Dot, Cross, LengthSq, Length,
// Distance and Lerp are computed exactly through 128-bit intermediates and
// rounded once to the nearest F (ties toward +∞); Normalize, ClampLength and
// Rotate are within the bounds their docs give. Every method except Add and
// Sub saturates to MaxF or MinF per component when the true result does not
// fit, and none overflows internally.
//
// The direction of v is the Angle Atan2(v.Y, v.X); FromAngle turns an Angle
// back into a unit vector.
type Vec2 struct{ X, Y F }

// V2 returns the vector (x, y). It cannot overflow.
func V2(x, y F) Vec2 { return Vec2{x, y} }

// Add returns v+w. Components wrap on overflow, like +.
func (v Vec2) Add(w Vec2) Vec2 { return Vec2{v.X + w.X, v.Y + w.Y} }

// Sub returns v-w. Components wrap on overflow, like -.
func (v Vec2) Sub(w Vec2) Vec2 { return Vec2{v.X - w.X, v.Y - w.Y} }

// Neg returns -v. It saturates like F.Neg: a MinF component becomes MaxF.
func (v Vec2) Neg() Vec2 { return Vec2{v.X.Neg(), v.Y.Neg()} }

// Scale returns v·s, each component as by Mul: exactly rounded and
// saturated.
func (v Vec2) Scale(s F) Vec2 { return Vec2{v.X.Mul(s), v.Y.Mul(s)} }

// Dot returns the dot product v·w, exactly rounded and saturated. It never
// overflows internally, whatever the components.
func (v Vec2) Dot(w Vec2) F {
	return dot2(int64(v.X), int64(w.X), int64(v.Y), int64(w.Y))
}

// Cross returns the z component of the 3D cross product, v.X·w.Y - v.Y·w.X:
// positive when w is counter-clockwise from v. Exactly rounded and
// saturated, with no internal overflow.
func (v Vec2) Cross(w Vec2) F {
	return det2(int64(v.X), int64(w.Y), int64(v.Y), int64(w.X))
}

// LengthSq returns X² + Y², exactly rounded. The sum is formed in 128 bits
// and cannot overflow; the result saturates to MaxF once the squared length
// reaches 2^31, that is for lengths above about 46341.
func (v Vec2) LengthSq() F {
	x, y := abs64(int64(v.X)), abs64(int64(v.Y))
	s, _ := mulU64(x, x).add(mulU64(y, y)) // ≤ 2^127: no overflow
	return s.toF()
}

// Length returns √(X² + Y²), exactly rounded. The squares are summed in 128
// bits and the root taken of the 128-bit sum, so nothing overflows for any
// components; only a length of 2^31 or more (possible when both components
// are near ±2^31) saturates to MaxF.
func (v Vec2) Length() F {
	x, y := abs64(int64(v.X)), abs64(int64(v.Y))
	s, _ := mulU64(x, x).add(mulU64(y, y))
	return rawToF(isqrtRound(s.hi, s.lo))
}

// Distance returns the length of w-v, exactly rounded. The difference is
// taken without wrapping, so a distance of 2^31 or more saturates to MaxF.
func (v Vec2) Distance(w Vec2) F {
	dx, ox := subOver(w.X, v.X)
	dy, oy := subOver(w.Y, v.Y)
	if ox || oy {
		return MaxF // one component differs by at least 2^31
	}
	return Vec2{dx, dy}.Length()
}

// Normalize returns v scaled to length One, in the same direction, each
// component within 2^-33 + 2^-63 of exact (half an LSB, and a hair). The
// zero vector returns the zero vector. It never overflows.
func (v Vec2) Normalize() Vec2 {
	if v.X == 0 && v.Y == 0 {
		return Vec2{}
	}
	u := [2]uint64{abs64(int64(v.X)), abs64(int64(v.Y))}
	scaleTo(u[:], uint64(One))
	return Vec2{withSign(u[0], v.X), withSign(u[1], v.Y)}
}

// ClampLength returns v if its length is at most limit, and otherwise v
// scaled to length limit in the same direction, each component within
// 2^-33 + limit·2^-63 of exact (half an LSB, plus under 2^-20 LSB for
// limits below 2^11). A limit of zero or below returns the zero vector.
// It never overflows.
func (v Vec2) ClampLength(limit F) Vec2 {
	if limit <= 0 {
		return Vec2{}
	}
	x, y := abs64(int64(v.X)), abs64(int64(v.Y))
	s, _ := mulU64(x, x).add(mulU64(y, y))
	if !mulU64(uint64(limit), uint64(limit)).less(s) {
		return v
	}
	u := [2]uint64{x, y}
	scaleTo(u[:], uint64(limit))
	return Vec2{withSign(u[0], v.X), withSign(u[1], v.Y)}
}

// Rotate returns v rotated counter-clockwise by a. Each component is
// computed exactly from Sin(a) and Cos(a) and rounded once; a component
// beyond the range of F (a long vector turned toward a diagonal) saturates.
func (v Vec2) Rotate(a Angle) Vec2 {
	s, c := sinCos(a)
	x, y := int64(v.X), int64(v.Y)
	return Vec2{
		det2(x, int64(c), y, int64(s)),
		dot2(x, int64(s), y, int64(c)),
	}
}

// FromAngle returns the unit vector (Cos(a), Sin(a)) pointing along a, bit
// for bit, at about the cost of one Sin. It cannot overflow.
func FromAngle(a Angle) Vec2 {
	s, c := sinCos(a)
	return Vec2{c, s}
}

// Lerp returns v + (w-v)·t per component, as by the function Lerp: exactly
// rounded and saturated.
func (v Vec2) Lerp(w Vec2, t F) Vec2 {
	return Vec2{Lerp(v.X, w.X, t), Lerp(v.Y, w.Y, t)}
}

// subOver returns a-b and whether it overflowed int64.
func subOver(a, b F) (F, bool) {
	d := a - b
	return d, (a >= 0) != (b >= 0) && (d >= 0) != (a >= 0)
}

// withSign returns the magnitude u (at most 2^63-1) with the sign of s.
func withSign(u uint64, s F) F {
	if s < 0 {
		return F(-int64(u))
	}
	return F(u)
}

// String returns v as "(X, Y)" with each component in F's String form.
func (v Vec2) String() string {
	var buf [48]byte
	b := append(buf[:0], '(')
	b = v.X.appendDecimal(b)
	b = append(b, ", "...)
	b = v.Y.appendDecimal(b)
	return string(append(b, ')'))
}
