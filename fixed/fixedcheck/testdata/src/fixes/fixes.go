// Package fixes checks the suggested fixes.
package fixes

import "github.com/rollstep/rollstep/fixed"

func fixes(a, b, c fixed.F, v, w fixed.Vec2, p *fixed.F, s []fixed.F, i int) {
	_ = a * b                   // want `Mul`
	_ = a / b                   // want `Div`
	_ = a % b                   // want `Mod`
	_ = a * fixed.One           // want `Mul`
	_ = v.X*w.Y - v.Y*w.X       // want `Mul` `Mul`
	_ = (a + b) * c             // want `Mul`
	_ = a * (b + c)             // want `Mul`
	_ = a * b * c               // want `Mul` `Mul`
	_ = a * (b * c)             // want `Mul` `Mul`
	_ = (a * b) / c             // want `Div` `Mul`
	_ = (a + b*c) / (c - a*b)   // want `Div` `Mul` `Mul`
	_ = -a * b                  // want `Mul`
	_ = *p * a                  // want `Mul`
	_ = a.Abs() * b.Abs()       // want `Mul`
	_ = a * /* scale */ b       // want `Mul`
	_ = (a * 2) * b             // want `Mul`
	_ = fixed.F(3) * fixed.F(4) // want `Mul`
	_ = a *                     // want `Mul`
		b
	a *= b     // want `Mul`
	a /= b * c // want `Div` `Mul`
	s[i] %= b  // want `Mod`
	*p *= a    // want `Mul`
	v.X *= w.Y // want `Mul`
}

// These are reported without a fix.
func noFix(a, b fixed.F, s []fixed.F) {
	get(s)[0] *= a                            // want `Mul`
	s[len(s)-1] *= a                          // want `Mul`
	_ = a * func() fixed.F { return b * b }() // want `Mul` `Mul`
	_ = 2 / a                                 // want `Div`
	_ = a % 3                                 // want `Mod`
}

func get(s []fixed.F) []fixed.F { return s }

// A method call is not a constant, so a constant declaration gets no fix.
const quarter = fixed.One / 2 * (fixed.One / 2) // want `Mul`

// Fx is an alias of fixed.F; its operands get fixes too.
type Fx = fixed.F

func alias(a, b Fx) Fx {
	return a * b // want `Mul`
}
