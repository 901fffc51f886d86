// Package flagged holds every misuse the analyzer reports.
package flagged

import "github.com/rollstep/rollstep/fixed"

func operators(a, b fixed.F) {
	_ = a * b // want `^multiplying two fixed\.F values with \* gives a wrongly scaled result: use a\.Mul\(b\)$`
	_ = a / b // want `^dividing two fixed\.F values with / gives a wrongly scaled result: use a\.Div\(b\)$`
	_ = a % b // want `^taking the remainder of two fixed\.F values with % panics when the divisor is zero: use a\.Mod\(b\)$`
}

func assignments(a, b fixed.F) {
	a *= b // want `^multiplying two fixed\.F values with \*= gives a wrongly scaled result: use a = a\.Mul\(b\)$`
	a /= b // want `^dividing two fixed\.F values with /= gives a wrongly scaled result: use a = a\.Div\(b\)$`
	a %= b // want `^taking the remainder of two fixed\.F values with %= panics when the divisor is zero: use a = a\.Mod\(b\)$`
}

func vectors(v, w fixed.Vec2, p *fixed.Vec2) fixed.F {
	p.X *= w.X               // want `use p\.X = p\.X\.Mul\(w\.X\)$`
	return v.X*w.Y - v.Y*w.X // want `use v\.X\.Mul\(w\.Y\)$` `use v\.Y\.Mul\(w\.X\)$`
}

func typedConstants(a fixed.F) {
	const two fixed.F = 2
	const half = fixed.One / 2 // typed: fixed.One is typed
	_ = a * fixed.One          // want `use a\.Mul\(fixed\.One\)$`
	_ = fixed.One * a          // want `use fixed\.One\.Mul\(a\)$`
	_ = a / fixed.Half         // want `use a\.Div\(fixed\.Half\)$`
	_ = a * two                // want `use a\.Mul\(two\)$`
	_ = a * half               // want `use a\.Mul\(half\)$`
	_ = a * -two               // want `use a\.Mul\(-two\)$`
	_ = a * (2 * fixed.One)    // want `use a\.Mul\(2 \* fixed\.One\)$`
	_ = a * fixed.F(2)         // want `use a\.Mul\(fixed\.F\(2\)\)$`
	_ = a / fixed.F(3)         // want `use a\.Div\(fixed\.F\(3\)\)$`
	_ = a * fixed.FromInt(2)   // want `use a\.Mul\(fixed\.FromInt\(2\)\)$`
	a *= fixed.One             // want `use a = a\.Mul\(fixed\.One\)$`
}

func shapes(a, b, c fixed.F, p *fixed.F, s []fixed.F, m map[int]fixed.F) bool {
	_ = (a) * (b)                         // want `use a\.Mul\(b\)$`
	_ = (a + b) * c                       // want `use \(a \+ b\)\.Mul\(c\)$`
	_ = a * (b - c)                       // want `use a\.Mul\(b - c\)$`
	_ = a * b * c                         // want `use \(a \* b\)\.Mul\(c\)$` `use a\.Mul\(b\)$`
	_ = a.Abs() * b.Abs()                 // want `use a\.Abs\(\)\.Mul\(b\.Abs\(\)\)$`
	_ = -a * b                            // want `use \(-a\)\.Mul\(b\)$`
	_ = *p * a                            // want `use \(\*p\)\.Mul\(a\)$`
	_ = s[0] / m[1]                       // want `use s\[0\]\.Div\(m\[1\]\)$`
	_ = fixed.F(3) * fixed.F(4)           // want `use fixed\.F\(3\)\.Mul\(fixed\.F\(4\)\)$`
	_ = fixed.Vec2{X: a}.X * b            // want `Mul\(b\)$`
	_ = []fixed.F{a * b}                  // want `use a\.Mul\(b\)$`
	_ = max(a, 1) * b                     // want `use max\(a, 1\)\.Mul\(b\)$`
	_ = sink(a * b)                       // want `use a\.Mul\(b\)$`
	_ = a * func() fixed.F { return b }() // want `Mul`
	return a*b > c                        // want `use a\.Mul\(b\)$`
}

func sink(f fixed.F) fixed.F { return f }

func multiline(a, b fixed.F) fixed.F {
	return a * // want `use a\.Mul\(b\)$`
		b
}

func longOperands(firstVeryLongOperandName, secondVeryLongOperandName fixed.F) {
	_ = firstVeryLongOperandName.Abs() * secondVeryLongOperandName.Abs()    // want `^multiplying two fixed\.F values with \* gives a wrongly scaled result: use a\.Mul\(b\)$`
	firstVeryLongOperandName *= secondVeryLongOperandName.Abs().Abs().Abs() // want `use a = a\.Mul\(b\)$`
}

// Untyped constants are integers read in raw units of 2^-32 when they are a
// dividend or either operand of %.
func rawUnits(a fixed.F, n uint) {
	const k = 3
	_ = 2 / a        // want `^dividing an untyped constant by a fixed\.F value with / gives a wrongly scaled result: use fixed\.FromInt\(2\)\.Div\(a\)$`
	_ = k / a.Abs()  // want `use fixed\.FromInt\(k\)\.Div\(a\.Abs\(\)\)$`
	_ = a % 3        // want `^taking the remainder of a fixed\.F value by an untyped constant with % reads the constant in units of 2\^-32: use a\.Mod\(fixed\.FromInt\(3\)\)$`
	_ = 3 % a        // want `^taking the remainder of an untyped constant by a fixed\.F value with % reads the constant in units of 2\^-32: use fixed\.FromInt\(3\)\.Mod\(a\)$`
	_ = a % (1 << n) // want `use a\.Mod\(fixed\.FromInt\(1 << n\)\)$`
	a %= k           // want `^taking the remainder of a fixed\.F value by an untyped constant with %= reads the constant in units of 2\^-32: use a = a\.Mod\(fixed\.FromInt\(k\)\)$`
}

// Fx is an alias of fixed.F, so it is checked.
type Fx = fixed.F

func alias(a, b Fx) Fx {
	return a * b // want `use a\.Mul\(b\)$`
}

var x, y fixed.F

var area = x * y // want `use x\.Mul\(y\)$`

const quarter = fixed.Half * fixed.Half // want `use fixed\.Half\.Mul\(fixed\.Half\)$`
