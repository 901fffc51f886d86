// Package allowed holds code the analyzer must not report.
package allowed

import (
	"github.com/rollstep/rollstep/fixed"
	other "other/fixed"
)

// G is an unrelated named int64.
type G int64

// Meters is defined from fixed.F but is a distinct type with underlying
// type int64; the analyzer checks fixed.F itself only.
type Meters fixed.F

const k = 4

func integers(i, j int64, g, h G, m, n Meters, o, p other.F) {
	_ = i * j
	_ = i / j
	_ = i % j
	i *= j
	_ = g * h
	_ = g / h
	_ = m * n
	_ = o * p
}

func addition(a, b fixed.F, v fixed.Vec2) {
	_ = a + b
	_ = a - b
	_ = v.X + v.Y
	a += b
	a -= b
	_ = a == b
	_ = a < b
	_ = a << 2
	_ = a & b
}

// Untyped constants are integer scale factors for * and for a divisor.
func scale(a fixed.F, v fixed.Vec2, n uint) {
	_ = a * 2
	_ = 2 * a
	_ = a / 3
	_ = a * k
	_ = k * a
	_ = a / k
	_ = a * fixed.Bits
	_ = a * -2
	_ = a * (k + 1)
	_ = a * (1 << 3)
	_ = a * (1 << n)
	_ = a / (1 << n)
	_ = a * 2.0
	_ = a * 'x'
	_ = a * max(2, k)
	_ = a * real(2+0i)
	_ = v.X * 2
	_ = fixed.One * 3
	_ = fixed.One / 2
	a *= 2
	a /= k
	v.Y *= 3
}

// Untyped constant arithmetic whose result is an F is not a misuse.
func constants() {
	var x fixed.F = 6 / 3
	var y fixed.F = 7 % 3
	var z fixed.F = k * k
	_, _, _ = x, y, z
}

func methods(a, b fixed.F, v fixed.Vec2) {
	_ = a.Mul(b)
	_ = a.Div(b)
	_ = a.Mod(b)
	_ = v.Cross(v)
	_ = fixed.F(int64(a) * int64(b) >> 32)
	_ = a.Mul(fixed.FromInt(2))
}
