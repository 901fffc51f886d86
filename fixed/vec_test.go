package fixed

import (
	"math/big"
	"testing"
)

// scaleErr returns, in LSB, the largest distance of got[i] from the exact
// v[i]·l/|v|, computed with 256-bit floats.
func scaleErr(v, got []F, l F) float64 {
	const prec = 256
	ss := new(big.Float).SetPrec(prec).SetInt(sumSqOracle(v...))
	n := new(big.Float).SetPrec(prec).Sqrt(ss)
	worst := 0.0
	for i := range v {
		e := new(big.Float).SetPrec(prec).SetInt(new(big.Int).Mul(bigF(v[i]), bigF(l)))
		e.Quo(e, n)
		e.Sub(e, new(big.Float).SetPrec(prec).SetInt64(got[i].Raw()))
		f, _ := e.Abs(e).Float64()
		worst = max(worst, f)
	}
	return worst
}

// sumSqOracle returns Σ raw² exactly.
func sumSqOracle(cs ...F) *big.Int {
	s := new(big.Int)
	for _, c := range cs {
		s.Add(s, new(big.Int).Mul(bigF(c), bigF(c)))
	}
	return s
}

// dotOracle returns Σ a[i]·b[i] / 2^32, exactly rounded and saturated.
func dotOracle(a, b []F) F {
	s := new(big.Int)
	for i := range a {
		s.Add(s, new(big.Int).Mul(bigF(a[i]), bigF(b[i])))
	}
	return clampF(roundDiv(s, big.NewInt(One.Raw())))
}

func TestVec2Exact(t *testing.T) {
	r := newRand(30)
	rf := func() F { return randF(r) }
	check := func(v, w Vec2) {
		if got, want := v.Dot(w), dotOracle([]F{v.X, v.Y}, []F{w.X, w.Y}); got != want {
			t.Fatalf("%v.Dot(%v) = %d, want %d", v, w, got, want)
		}
		cr := new(big.Int).Sub(new(big.Int).Mul(bigF(v.X), bigF(w.Y)), new(big.Int).Mul(bigF(v.Y), bigF(w.X)))
		if got, want := v.Cross(w), clampF(roundDiv(cr, big.NewInt(One.Raw()))); got != want {
			t.Fatalf("%v.Cross(%v) = %d, want %d", v, w, got, want)
		}
		ss := sumSqOracle(v.X, v.Y)
		if got, want := v.LengthSq(), clampF(roundDiv(ss, big.NewInt(One.Raw()))); got != want {
			t.Fatalf("%v.LengthSq() = %d, want %d", v, got, want)
		}
		if got, want := v.Length(), clampF(isqrtRoundOracle(ss)); got != want {
			t.Fatalf("%v.Length() = %d, want %d", v, got, want)
		}
		dx := new(big.Int).Sub(bigF(w.X), bigF(v.X))
		dy := new(big.Int).Sub(bigF(w.Y), bigF(v.Y))
		dd := new(big.Int).Add(dx.Mul(dx, dx), dy.Mul(dy, dy))
		if got, want := v.Distance(w), clampF(isqrtRoundOracle(dd)); got != want {
			t.Fatalf("%v.Distance(%v) = %d, want %d", v, w, got, want)
		}
		tt := rf()
		if got, want := v.Lerp(w, tt), (Vec2{Lerp(v.X, w.X, tt), Lerp(v.Y, w.Y, tt)}); got != want {
			t.Fatalf("Lerp mismatch")
		}
		if got, want := v.Scale(tt), (Vec2{v.X.Mul(tt), v.Y.Mul(tt)}); got != want {
			t.Fatalf("Scale mismatch")
		}
		if got, want := v.Add(w).Sub(w), v; got != want {
			t.Fatalf("Add/Sub mismatch")
		}
		if got, want := v.Neg(), (Vec2{v.X.Neg(), v.Y.Neg()}); got != want {
			t.Fatalf("Neg mismatch")
		}
	}
	for _, a := range edges {
		for _, b := range edges {
			check(Vec2{a, b}, Vec2{b, a})
			check(Vec2{a, b}, Vec2{MinF, MaxF})
		}
	}
	for range oracleN / 2 {
		check(Vec2{rf(), rf()}, Vec2{rf(), rf()})
	}
}

func TestVec2Normalize(t *testing.T) {
	r := newRand(31)
	worst, worstDir := 0.0, 0.0
	check := func(v Vec2) {
		n := v.Normalize()
		if v == (Vec2{}) {
			if n != (Vec2{}) {
				t.Fatalf("zero.Normalize() = %v", n)
			}
			return
		}
		e := scaleErr([]F{v.X, v.Y}, []F{n.X, n.Y}, One)
		worst = max(worst, e)
		if e > 0.5+0x1p-28 {
			t.Fatalf("%v.Normalize() = %v, off by %.3f LSB", v, n, e)
		}
		lim := randF(r).Abs()
		c := v.ClampLength(lim)
		if !mulU64(uint64(lim), uint64(lim)).less(func() u128 {
			x, y := abs64(int64(v.X)), abs64(int64(v.Y))
			s, _ := mulU64(x, x).add(mulU64(y, y))
			return s
		}()) {
			if c != v {
				t.Fatalf("%v.ClampLength(%v) = %v, want unchanged", v, lim, c)
			}
			return
		}
		if lim == 0 {
			if c != (Vec2{}) {
				t.Fatalf("ClampLength(0) = %v", c)
			}
			return
		}
		e = scaleErr([]F{v.X, v.Y}, []F{c.X, c.Y}, lim)
		worstDir = max(worstDir, e)
		if e > 0.5+lim.Float64()*0x1p-31+0x1p-30 {
			t.Fatalf("%v.ClampLength(%v) = %v, off by %.3f LSB", v, lim, c, e)
		}
	}
	for _, a := range edges {
		for _, b := range edges {
			check(Vec2{a, b})
		}
	}
	for range oracleN / 2 {
		check(Vec2{randF(r), randF(r)})
	}
	t.Logf("Normalize: max component error %.3f LSB; ClampLength %.3f LSB", worst, worstDir)
	if got := (Vec2{FromInt(3), FromInt(-4)}).Normalize(); got != (Vec2{FromRatio(3, 5), FromRatio(-4, 5)}) {
		t.Errorf("(3, -4).Normalize() = %v", got)
	}
	if got := (Vec2{1, 1}).Normalize(); got != (Vec2{FromRatio(7071067812, 1e10), FromRatio(7071067812, 1e10)}) {
		t.Errorf("(1 LSB, 1 LSB).Normalize() = %v", got)
	}
	if got := (Vec2{FromInt(30), FromInt(40)}).ClampLength(FromInt(5)); got != (Vec2{FromInt(3), FromInt(4)}) {
		t.Errorf("ClampLength = %v", got)
	}
	if got := (Vec2{FromInt(3), FromInt(4)}).ClampLength(-One); got != (Vec2{}) {
		t.Errorf("ClampLength(-1) = %v", got)
	}
}

func TestVec2Rotate(t *testing.T) {
	r := newRand(32)
	for range oracleN / 2 {
		v, a := Vec2{randF(r), randF(r)}, Angle(r.Uint32())
		s, c := sinCos(a)
		want := Vec2{
			clampF(roundDiv(new(big.Int).Sub(new(big.Int).Mul(bigF(v.X), bigF(c)), new(big.Int).Mul(bigF(v.Y), bigF(s))), big.NewInt(One.Raw()))),
			clampF(roundDiv(new(big.Int).Add(new(big.Int).Mul(bigF(v.X), bigF(s)), new(big.Int).Mul(bigF(v.Y), bigF(c))), big.NewInt(One.Raw()))),
		}
		if got := v.Rotate(a); got != want {
			t.Fatalf("%v.Rotate(%d) = %v, want %v", v, a, got, want)
		}
	}
	for _, c := range []struct {
		v    Vec2
		a    Angle
		want Vec2
	}{
		{Vec2{One, 0}, QuarterTurn, Vec2{0, One}},
		{Vec2{FromInt(3), FromInt(4)}, HalfTurn, Vec2{FromInt(-3), FromInt(-4)}},
		{Vec2{FromInt(3), FromInt(4)}, 3 * QuarterTurn, Vec2{FromInt(4), FromInt(-3)}},
		{Vec2{MaxF, MaxF}, eighthTurn, Vec2{0, MaxF}},
		{Vec2{MinF, 0}, QuarterTurn, Vec2{0, MinF}},
	} {
		if got := c.v.Rotate(c.a); got != c.want {
			t.Errorf("%v.Rotate(%d) = %v, want %v", c.v, c.a, got, c.want)
		}
	}
	for _, a := range boundaryAngles() {
		if got, want := FromAngle(a), (Vec2{Cos(a), Sin(a)}); got != want {
			t.Fatalf("FromAngle(%d) = %v, want %v", a, got, want)
		}
		v := FromAngle(a).Scale(FromInt(100))
		if got := Atan2(v.Y, v.X); int32(got-a) > 1<<12 || int32(got-a) < -1<<12 {
			t.Fatalf("Atan2 of FromAngle(%d) = %d", a, got)
		}
	}
}
