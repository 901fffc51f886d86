// Package fixedcheck defines an [analysis.Analyzer] that reports the
// built-in *, / and % operators applied to two [fixed.F] values, where the
// methods Mul, Div and Mod must be used instead.
//
// A fixed.F is a Q32.32 fixed-point number held in an int64: the raw integer
// is the real value times 2^32. Go lets a*b, a/b and a%b compile on two F
// values because F is an integer type, but the raw arithmetic does not
// respect the scale:
//
//   - a*b multiplies two raw values that each carry 2^32, so the result is
//     2^32 times too large and wraps whenever |a·b| ≥ 0.5; a.Mul(b) keeps a
//     128-bit intermediate and rounds;
//   - a/b divides the scales away, so the result is 2^32 times too small
//     (One/One is one LSB, not 1.0); a.Div(b) rounds and saturates on a zero
//     divisor;
//   - a%b is scaled correctly but panics when b is zero; a.Mod(b) gives the
//     same truncated remainder and returns a instead of panicking.
//
// The mistake is silent and deterministic, so every peer of a match agrees
// on the wrong answer and no desync check catches it. The analyzer catches
// it before the code runs; CI runs it over the whole module
// (docs/architecture.md §4).
//
// # What is reported
//
// A binary expression x*y, x/y or x%y, or an assignment x *= y, x /= y or
// x %= y, whose operands both have type fixed.F (directly or through an
// alias), unless the untyped-constant rules below allow it. Operands may be
// anything of that type: variables, Vec2 fields (v.X*w.Y), typed constants
// (a*fixed.One), conversions (a*fixed.F(2)), calls (a.Abs()*b.Abs()),
// parenthesised or nested expressions (a*b*c reports both products).
// Messages name the replacement, for example:
//
//	multiplying two fixed.F values with * gives a wrongly scaled result: use v.X.Mul(w.Y)
//
// Package fixed itself is not exempt: it works on raw int64 values instead.
//
// # Untyped constants
//
// An operand that is untyped in the source, such as 2, k after const k = 4,
// 1<<20 or 1<<n, has no scale of its own: the type checker converts it to F
// from its context. The analyzer decides on the syntax, because the type
// checker records such an operand with type F after the conversion; a
// literal or an untyped constant is untyped, while a typed constant
// (fixed.One), a conversion (fixed.F(2)) or a call (fixed.FromInt(2)) is
// not. Such an integer is
//
//   - allowed as either factor of *: a*2 and 2*a double a;
//   - allowed as the divisor of /: a/3 is a third of a;
//   - reported as the dividend of /: 2/a divides two LSBs by a, so use
//     fixed.FromInt(2).Div(a);
//   - reported as either operand of %: a%3 is a remainder modulo three LSBs,
//     so use a.Mod(fixed.FromInt(3)).
//
// Arithmetic between two untyped operands (var x fixed.F = 6/3) is constant
// arithmetic on integers and is allowed.
//
// # What is not reported
//
// Operands of other types are never reported: int64(a)*int64(b), which is
// how Mul itself is written, a named type G int64, and a type defined from
// F (type Meters fixed.F), whose underlying type is int64 and which the
// analyzer does not track. Neither is generic code such as
// func sq[T ~int64](a T) T { return a*a } instantiated with F, because the
// analyzer looks at each expression's static type. Addition, subtraction,
// comparison and shifts of F values are correct and never reported.
//
// # Suggested fixes
//
// Each report of two typed operands carries a fix when F has the method
// with the signature func(F) F: x*y becomes x.Mul(y), x/y becomes x.Div(y),
// x%y becomes x.Mod(y), and x *= y becomes x = x.Mul(y). Operands keep
// their source text; a receiver that is not a primary expression is
// parenthesised ((a+b).Mul(c)); nested misuses are rewritten together
// (a*b*c becomes a.Mul(b).Mul(c)). No fix is offered when the left side of
// an assignment might not be safe to evaluate twice (s[f()] *= b), when the
// expression holds a function literal, or for the untyped-constant reports,
// which need an import of package fixed.
//
// # Usage
//
// The command in cmd/fixedcheck runs the analyzer under go vet:
//
//  1. Build the tool: go build -o /tmp/fixedcheck ./fixed/fixedcheck/cmd/fixedcheck
//     (or go install ./fixed/fixedcheck/cmd/fixedcheck).
//  2. Run it over the module: go vet -vettool=/tmp/fixedcheck ./...
//     (or go vet -vettool=$(which fixedcheck) ./... after go install). It
//     prints one line per misuse and exits non-zero if there is any.
//  3. Optionally apply the fixes: go fix -fixtool=/tmp/fixedcheck ./...
//
// The Analyzer can also be added to any driver built on
// [golang.org/x/tools/go/analysis], such as a multichecker.
//
// [analysis.Analyzer]: https://pkg.go.dev/golang.org/x/tools/go/analysis#Analyzer
// [fixed.F]: https://pkg.go.dev/github.com/rollstep/rollstep/fixed#F
package fixedcheck
