// Package fixed is a minimal stand-in for github.com/rollstep/rollstep/fixed,
// with just enough API for the fixedcheck tests.
package fixed

// F is a Q32.32 fixed-point number.
type F int64

// Bits is an untyped constant, so a*Bits is an integer scale.
const Bits = 32

// One is the typed F constant 1.0.
const One F = 1 << Bits

// Half is 0.5: a typed constant divided by an untyped one, which is allowed.
const Half = One / 2

// FromInt returns n as an F.
func FromInt(n int64) F { return F(n << Bits) }

// Mul returns a*b. Arithmetic on int64 is never reported.
func (a F) Mul(b F) F { return F(int64(a) * int64(b) >> Bits) }

// Div returns a/b.
func (a F) Div(b F) F { return F(int64(a) << 16 / int64(b) << 16) }

// Mod returns a modulo b.
func (a F) Mod(b F) F { return F(int64(a) % int64(b)) }

// Abs returns |a|.
func (a F) Abs() F {
	if a < 0 {
		return -a
	}
	return a
}

// Vec2 is a 2D vector.
type Vec2 struct{ X, Y F }

// Cross returns the z component of v×w.
func (v Vec2) Cross(w Vec2) F { return v.X.Mul(w.Y) - v.Y.Mul(w.X) }
