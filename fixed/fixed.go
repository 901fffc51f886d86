package fixed

// F is a signed Q32.32 fixed-point number: the real value is Raw()/2^32.
//
// Its range is [-2^31, 2^31 - 2^-32] and its resolution is 2^-32. The zero
// value is 0. F is an int64 underneath so it is arena-serializable: it can
// live inside a game state that rollstep copies, hashes and diffs as bytes.
//
// Add and subtract with the ordinary + and - operators (they wrap on
// overflow, like int64). Never multiply, divide or take the remainder of two
// F values with *, / or %: the result is wrongly scaled. Use Mul and Div;
// the fixedcheck analyzer flags the mistake.
type F int64

// fracBits is the number of fractional bits of F.
const fracBits = 32

// One is the F value 1.0.
const One F = 1 << fracBits

// Half is the F value 0.5.
const Half F = One / 2

// MaxF and MinF are the largest and smallest values an F can hold.
const (
	MaxF F = 1<<63 - 1
	MinF F = -1 << 63
)

// FromInt returns n as an F. n must lie in [-2^31, 2^31-1]; outside that
// range the result wraps (the high bits are lost), as int64 shifts do.
func FromInt(n int64) F { return F(n << fracBits) }

// FromRaw returns the F whose raw Q32.32 representation is raw.
func FromRaw(raw int64) F { return F(raw) }

// Raw returns the raw Q32.32 representation of a: the real value times 2^32.
func (a F) Raw() int64 { return int64(a) }
