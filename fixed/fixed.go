package fixed

// F is a signed Q32.32 fixed-point number: the real value is Raw()/2^32.
//
// Its range is [-2^31, 2^31 - 2^-32] and its resolution is 2^-32. The zero
// value is 0. F is an int64 underneath so it is arena-serializable: it can
// live inside a game state that rollstep copies, hashes and diffs as bytes.
//
// Add and subtract with the ordinary + and - operators (they wrap on
// overflow, like int64). Never multiply, divide or take the remainder of two
// F values with *, / or %: the result is wrongly scaled. Use Mul, Div and
// Mod; the fixedcheck analyzer flags the mistake.
type F int64

// fracBits is the number of fractional bits of F.
const fracBits = 32

// fracMask selects the fractional bits of a raw value.
const fracMask = 1<<fracBits - 1

// One is the F value 1.0.
const One F = 1 << fracBits

// Half is the F value 0.5.
const Half F = 1 << (fracBits - 1)

// MaxF and MinF are the largest and smallest values an F can hold.
const (
	// MaxF is 2^31 - 2^-32, the largest F; saturating functions return it
	// for results that are too large.
	MaxF F = 1<<63 - 1
	// MinF is -2^31, the smallest F; saturating functions return it for
	// results that are too small.
	MinF F = -1 << 63
)

// FromInt returns n as an F. n must lie in [-2^31, 2^31-1]; outside that
// range the result wraps (the high bits are lost), as int64 shifts do.
func FromInt(n int64) F { return F(n << fracBits) }

// FromRaw returns the F whose raw Q32.32 representation is raw. Every
// int64 is a valid F, so it cannot overflow.
func FromRaw(raw int64) F { return F(raw) }

// Raw returns the raw Q32.32 representation of a: the real value times
// 2^32. It cannot overflow.
func (a F) Raw() int64 { return int64(a) }

// FromRatio returns num/den rounded to the nearest F (ties toward +∞),
// computed exactly with integers: FromRatio(1, 3) is the F closest to 1/3.
// It is the way to write a non-integer constant without floats.
//
// A quotient outside the range of F saturates to MaxF or MinF. A zero den
// gives MaxF for a positive num, MinF for a negative num and 0 for a zero
// num. It never panics.
func FromRatio(num, den int64) F { return divRaw(num, den) }

// Int returns a rounded down to an integer (toward -∞), as an int64 in
// [-2^31, 2^31-1]. It never overflows.
func (a F) Int() int64 { return int64(a) >> fracBits }

// Float64 returns a as a float64, rounded to nearest even. It is exact when
// |a| < 2^21, where the raw value fits in a float64's 53-bit mantissa.
//
// Use it for rendering and debugging only. A float64 must never flow back
// into a simulation step: floating point is not deterministic across
// machines, which is why the package has no conversion from float64. Load
// non-integer values with Parse or FromRatio instead.
func (a F) Float64() float64 { return float64(int64(a)) / (1 << fracBits) }
