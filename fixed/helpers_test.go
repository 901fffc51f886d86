package fixed

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// edges are the raw values every accuracy test tries: zero, ±1 LSB, ±½, ±1,
// the ends of the range and their neighbours.
var edges = []F{
	0, 1, -1, 2, -2, Half, -Half, Half + 1, Half - 1, One, -One, One + 1, One - 1,
	-One + 1, -One - 1, FromInt(2), FromInt(-2), FromInt(3), FromRatio(1, 3),
	FromRatio(-7, 3), MaxF, MinF, MaxF - 1, MinF + 1, MaxF - Half, MinF + Half,
	FromInt(46340), FromInt(46341), FromInt(-46341), FromInt(1 << 30), FromInt(-1 << 30),
	1 << 31, -1 << 31, 1 << 48, -1 << 48, 1<<62 + 12345, -1<<62 - 12345,
}

// newRand returns the seeded generator of the accuracy tests.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// randF returns a value from a mixture that covers every magnitude: a full
// range raw value, one shifted down to a random size, a near-integer, or an
// edge value.
func randF(r *rand.Rand) F {
	switch r.IntN(8) {
	case 0:
		return edges[r.IntN(len(edges))]
	case 1, 2:
		return F(r.Int64() - r.Int64())
	case 3:
		return F(int64(r.IntN(2001))-1000) << fracBits // integer in ±1000
	default:
		return F((r.Int64() - r.Int64()) >> r.IntN(63))
	}
}

// bigF returns a's raw value as a big.Int.
func bigF(a F) *big.Int { return big.NewInt(int64(a)) }

var (
	bigMax = big.NewInt(int64(MaxF))
	bigMin = big.NewInt(int64(MinF))
)

// roundDiv returns num/den rounded to the nearest integer, ties toward +∞,
// for den ≠ 0: ⌊(2·num + den) / (2·den)⌋ with den made positive.
func roundDiv(num, den *big.Int) *big.Int {
	n, d := new(big.Int).Set(num), new(big.Int).Set(den)
	if d.Sign() < 0 {
		n.Neg(n)
		d.Neg(d)
	}
	n.Lsh(n, 1).Add(n, d)
	d.Lsh(d, 1)
	q, m := new(big.Int), new(big.Int)
	q.DivMod(n, d, m) // Euclidean: floor for a positive divisor
	return q
}

// clampF saturates the exact integer x to the raw range of F.
func clampF(x *big.Int) F {
	if x.Cmp(bigMax) > 0 {
		return MaxF
	}
	if x.Cmp(bigMin) < 0 {
		return MinF
	}
	return F(x.Int64())
}

// errLSB returns |got·2^32 - exactNum/exactDen·2^0|, in LSB, as a float64
// for logging: the distance of got's raw value from the exact raw value
// num/den.
func errLSB(got F, num, den *big.Int) float64 {
	e := new(big.Rat).SetFrac(num, den)
	e.Sub(new(big.Rat).SetInt(bigF(got)), e)
	f, _ := e.Abs(e).Float64()
	return f
}

// maxErr tracks and logs the largest error seen by a test.
type maxErr struct {
	name string
	max  float64
	at   string
}

func (m *maxErr) add(e float64, at func() string) {
	if e > m.max {
		m.max, m.at = e, at()
	}
}

func (m *maxErr) log(t *testing.T, unit string) {
	t.Helper()
	t.Logf("%s: max error %.4g %s (at %s)", m.name, m.max, unit, m.at)
}

// exactString returns the exact decimal expansion of a, with every digit:
// a Q32.32 value has at most 32 fractional digits (2^-32 is
// 0.00000000023283064365386962890625). It is the oracle input of the
// parsing tests: Parse must read it back as exactly a.
func exactString(a F) string {
	var buf [48]byte
	b, f := a.appendInt(buf[:0])
	if f != 0 {
		b = append(b, '.')
		for f != 0 {
			f *= 10
			b = append(b, byte('0'+f>>fracBits))
			f &= fracMask
		}
	}
	return string(b)
}

// fromFloat64 returns x rounded to the nearest F, ties away from zero. NaN
// gives 0; values beyond the range of F, infinities included, saturate to
// MaxF or MinF. Only tests use it: package fixed has no float-to-F
// conversion, so that none can creep into a simulation step.
func fromFloat64(x float64) F {
	switch {
	case x != x:
		return 0
	case x >= 1<<31:
		return MaxF
	case x <= -(1 << 31):
		return MinF
	}
	v := math.Round(x * (1 << fracBits))
	if v >= 1<<63 {
		return MaxF
	}
	return F(int64(v))
}
