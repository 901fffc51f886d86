package fixed

// Vec3 is a 3D vector of F, with the same rules as Vec2: Add and Sub wrap
// like F's operators; Scale, Dot, Cross, LengthSq, Length, Distance and Lerp
// are exactly rounded (ties toward +∞); everything but Add and Sub
// saturates per component instead of overflowing. The zero value is the
// zero vector.
type Vec3 struct{ X, Y, Z F }

// V3 returns the vector (x, y, z). It cannot overflow.
func V3(x, y, z F) Vec3 { return Vec3{x, y, z} }

// Add returns v+w. Components wrap on overflow, like +.
func (v Vec3) Add(w Vec3) Vec3 { return Vec3{v.X + w.X, v.Y + w.Y, v.Z + w.Z} }

// Sub returns v-w. Components wrap on overflow, like -.
func (v Vec3) Sub(w Vec3) Vec3 { return Vec3{v.X - w.X, v.Y - w.Y, v.Z - w.Z} }

// Neg returns -v, saturating like F.Neg.
func (v Vec3) Neg() Vec3 { return Vec3{v.X.Neg(), v.Y.Neg(), v.Z.Neg()} }

// Scale returns v·s, each component as by Mul: exactly rounded and
// saturated.
func (v Vec3) Scale(s F) Vec3 { return Vec3{v.X.Mul(s), v.Y.Mul(s), v.Z.Mul(s)} }

// Dot returns the dot product v·w, exactly rounded and saturated, with no
// internal overflow.
func (v Vec3) Dot(w Vec3) F {
	return dot3(int64(v.X), int64(w.X), int64(v.Y), int64(w.Y), int64(v.Z), int64(w.Z))
}

// Cross returns the cross product v×w (right-handed), each component
// exactly rounded and saturated.
func (v Vec3) Cross(w Vec3) Vec3 {
	return Vec3{
		det2(int64(v.Y), int64(w.Z), int64(v.Z), int64(w.Y)),
		det2(int64(v.Z), int64(w.X), int64(v.X), int64(w.Z)),
		det2(int64(v.X), int64(w.Y), int64(v.Y), int64(w.X)),
	}
}

// sumSq returns X² + Y² + Z² in raw units squared; it is at most 3·2^126.
func (v Vec3) sumSq() u128 {
	x, y, z := abs64(int64(v.X)), abs64(int64(v.Y)), abs64(int64(v.Z))
	s, _ := mulU64(x, x).add(mulU64(y, y))
	s, _ = s.add(mulU64(z, z))
	return s
}

// LengthSq returns X² + Y² + Z², exactly rounded. The sum cannot overflow
// internally; the result saturates to MaxF for lengths above about 46341.
func (v Vec3) LengthSq() F { return v.sumSq().toF() }

// Length returns √(X² + Y² + Z²), exactly rounded, from the 128-bit sum of
// squares: nothing overflows internally, and only a length of 2^31 or more
// saturates to MaxF.
func (v Vec3) Length() F {
	s := v.sumSq()
	return rawToF(isqrtRound(s.hi, s.lo))
}

// Distance returns the length of w-v, exactly rounded. The difference is
// taken without wrapping, so a distance of 2^31 or more saturates to MaxF.
func (v Vec3) Distance(w Vec3) F {
	dx, ox := subOver(w.X, v.X)
	dy, oy := subOver(w.Y, v.Y)
	dz, oz := subOver(w.Z, v.Z)
	if ox || oy || oz {
		return MaxF
	}
	return Vec3{dx, dy, dz}.Length()
}

// Normalize returns v scaled to length One, each component within
// 2^-33 + 2^-63 of exact (half an LSB, and a hair). The zero vector
// returns the zero vector.
func (v Vec3) Normalize() Vec3 {
	if v == (Vec3{}) {
		return Vec3{}
	}
	u := [3]uint64{abs64(int64(v.X)), abs64(int64(v.Y)), abs64(int64(v.Z))}
	scaleTo(u[:], uint64(One))
	return Vec3{withSign(u[0], v.X), withSign(u[1], v.Y), withSign(u[2], v.Z)}
}

// ClampLength returns v if its length is at most limit, and otherwise v
// scaled to length limit in the same direction, each component within
// 2^-33 + limit·2^-63 of exact, as for Vec2. A limit of zero or below
// returns the zero vector. It never overflows.
func (v Vec3) ClampLength(limit F) Vec3 {
	if limit <= 0 {
		return Vec3{}
	}
	if !mulU64(uint64(limit), uint64(limit)).less(v.sumSq()) {
		return v
	}
	u := [3]uint64{abs64(int64(v.X)), abs64(int64(v.Y)), abs64(int64(v.Z))}
	scaleTo(u[:], uint64(limit))
	return Vec3{withSign(u[0], v.X), withSign(u[1], v.Y), withSign(u[2], v.Z)}
}

// Lerp returns v + (w-v)·t per component, as by the function Lerp.
func (v Vec3) Lerp(w Vec3, t F) Vec3 {
	return Vec3{Lerp(v.X, w.X, t), Lerp(v.Y, w.Y, t), Lerp(v.Z, w.Z, t)}
}

// String returns v as "(X, Y, Z)" with each component in F's String form.
func (v Vec3) String() string {
	var buf [72]byte
	b := append(buf[:0], '(')
	b = v.X.appendDecimal(b)
	b = append(b, ", "...)
	b = v.Y.appendDecimal(b)
	b = append(b, ", "...)
	b = v.Z.appendDecimal(b)
	return string(append(b, ')'))
}
