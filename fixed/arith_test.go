package fixed

import (
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/rollstep/rollstep/internal/testenv"
)

// oracleN is the number of random samples each oracle test draws, on top of
// its edge cases: 30,000 by default, 1,000,000 in the soak run.
var oracleN = testenv.Pick(30_000, 1_000_000)

// mulOracle returns a·b exactly rounded (ties toward +∞) and saturated.
func mulOracle(a, b F) F {
	p := new(big.Int).Mul(bigF(a), bigF(b))
	return clampF(roundDiv(p, big.NewInt(One.Raw())))
}

// divOracle returns a/b exactly rounded (ties toward +∞) and saturated,
// with the documented division-by-zero results.
func divOracle(a, b F) F {
	if b == 0 {
		switch {
		case a > 0:
			return MaxF
		case a < 0:
			return MinF
		}
		return 0
	}
	n := new(big.Int).Lsh(bigF(a), fracBits)
	return clampF(roundDiv(n, bigF(b)))
}

func TestMulExact(t *testing.T) {
	m := maxErr{name: "Mul"}
	check := func(a, b F) {
		got, want := a.Mul(b), mulOracle(a, b)
		if got != want {
			t.Fatalf("%d.Mul(%d) = %d, want %d", a, b, got, want)
		}
		if got != MaxF && got != MinF {
			p := new(big.Int).Mul(bigF(a), bigF(b))
			m.add(errLSB(got, p, big.NewInt(One.Raw())), func() string { return fmt.Sprint(a.Raw(), "·", b.Raw()) })
		}
	}
	for _, a := range edges {
		for _, b := range edges {
			check(a, b)
		}
	}
	r := newRand(1)
	for range oracleN {
		check(randF(r), randF(r))
	}
	m.log(t, "LSB")
	if m.max > 0.5 {
		t.Errorf("Mul error %v LSB exceeds 0.5", m.max)
	}
}

func TestMulTies(t *testing.T) {
	// 1 LSB · ½ = ½ LSB: ties go toward +∞.
	for _, c := range []struct{ a, b, want F }{
		{1, Half, 1},
		{-1, Half, 0},
		{3, Half, 2},
		{-3, Half, -1},
		{MaxF, One, MaxF},
		{MinF, One, MinF},
		{MinF, -One, MaxF},
		{MaxF, MaxF, MaxF},
		{MaxF, MinF, MinF},
		{MinF, MinF, MaxF},
	} {
		if got := c.a.Mul(c.b); got != c.want {
			t.Errorf("%d.Mul(%d) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestDivExact(t *testing.T) {
	m := maxErr{name: "Div"}
	check := func(a, b F) {
		got, want := a.Div(b), divOracle(a, b)
		if got != want {
			t.Fatalf("%d.Div(%d) = %d, want %d", a, b, got, want)
		}
		if got != MaxF && got != MinF && b != 0 {
			m.add(errLSB(got, new(big.Int).Lsh(bigF(a), fracBits), bigF(b)), func() string { return fmt.Sprint(a.Raw(), "/", b.Raw()) })
		}
	}
	for _, a := range edges {
		for _, b := range edges {
			check(a, b)
		}
	}
	r := newRand(2)
	for range oracleN {
		check(randF(r), randF(r))
	}
	m.log(t, "LSB")
	if m.max > 0.5 {
		t.Errorf("Div error %v LSB exceeds 0.5", m.max)
	}
}

func TestDivSpecial(t *testing.T) {
	for _, c := range []struct{ a, b, want F }{
		{One, 0, MaxF},
		{-One, 0, MinF},
		{0, 0, 0},
		{MinF, -1, MaxF},
		{MinF, -One, MaxF},
		{MinF, One, MinF},
		{MaxF, -One, -MaxF},
		{1, FromInt(2), 1},  // ½ LSB ties up
		{-1, FromInt(2), 0}, // -½ LSB ties up
		{One, FromInt(3), FromRatio(1, 3)},
	} {
		if got := c.a.Div(c.b); got != c.want {
			t.Errorf("%d.Div(%d) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestFromRatio(t *testing.T) {
	r := newRand(3)
	for i := range oracleN {
		num, den := r.Int64()-r.Int64(), r.Int64()>>r.IntN(64)
		if i%2 == 0 {
			num >>= r.IntN(64)
		}
		if r.IntN(2) == 0 {
			den = -den
		}
		if got, want := FromRatio(num, den), divOracle(F(num), F(den)); got != want {
			t.Fatalf("FromRatio(%d, %d) = %d, want %d", num, den, got, want)
		}
	}
	if got := FromRatio(1, 10); got.String() != "0.1" {
		t.Errorf("FromRatio(1, 10) = %v", got)
	}
	if got := FromRatio(-3, 2); got != -One-Half {
		t.Errorf("FromRatio(-3, 2) = %v", got)
	}
}

func TestMod(t *testing.T) {
	r := newRand(4)
	check := func(a, b F) {
		got := a.Mod(b)
		var want F
		switch {
		case b == 0:
			want = a
		default:
			want = F(new(big.Int).Rem(bigF(a), bigF(b)).Int64()) // truncated, like Go
		}
		if got != want {
			t.Fatalf("%d.Mod(%d) = %d, want %d", a, b, got, want)
		}
	}
	for _, a := range edges {
		for _, b := range edges {
			check(a, b)
		}
	}
	for range oracleN {
		check(randF(r), randF(r))
	}
	if got := FromInt(7).Mod(FromInt(-3)); got != One {
		t.Errorf("7 mod -3 = %v, want 1", got)
	}
	if got := FromInt(-7).Mod(FromInt(3)); got != -One {
		t.Errorf("-7 mod 3 = %v, want -1", got)
	}
	if got := FromRatio(11, 2).Mod(FromInt(2)); got != One+Half {
		t.Errorf("5.5 mod 2 = %v, want 1.5", got)
	}
}

func TestRounding(t *testing.T) {
	check := func(a F) {
		// Floor: largest integer ≤ a.
		fl := new(big.Int).Rsh(bigF(a), fracBits) // arithmetic: floor
		if got, want := a.Floor(), F(fl.Int64()<<fracBits); got != want {
			t.Fatalf("Floor(%d) = %d, want %d", a, got, want)
		}
		if got, want := a.Int(), fl.Int64(); got != want {
			t.Fatalf("Int(%d) = %d, want %d", a, got, want)
		}
		ce := new(big.Int).Neg(new(big.Int).Rsh(new(big.Int).Neg(bigF(a)), fracBits))
		if got, want := a.Ceil(), clampF(ce.Lsh(ce, fracBits)); got != want {
			t.Fatalf("Ceil(%d) = %d, want %d", a, got, want)
		}
		ro := roundDiv(bigF(a), big.NewInt(One.Raw()))
		if got, want := a.Round(), clampF(ro.Lsh(ro, fracBits)); got != want {
			t.Fatalf("Round(%d) = %d, want %d", a, got, want)
		}
		if got, want := a.Abs(), clampF(new(big.Int).Abs(bigF(a))); got != want {
			t.Fatalf("Abs(%d) = %d, want %d", a, got, want)
		}
		if got, want := a.Neg(), clampF(new(big.Int).Neg(bigF(a))); got != want {
			t.Fatalf("Neg(%d) = %d, want %d", a, got, want)
		}
		if got, want := a.Sign(), bigF(a).Sign(); got != want {
			t.Fatalf("Sign(%d) = %d, want %d", a, got, want)
		}
	}
	for _, a := range edges {
		check(a)
	}
	r := newRand(5)
	for range oracleN {
		check(randF(r))
	}
	for _, c := range []struct {
		a                  F
		floor, ceil, round F
	}{
		{FromRatio(5, 2), FromInt(2), FromInt(3), FromInt(3)},
		{FromRatio(-5, 2), FromInt(-3), FromInt(-2), FromInt(-2)},
		{FromRatio(-7, 4), FromInt(-2), FromInt(-1), FromInt(-2)},
		{MaxF, FromInt(1<<31 - 1), MaxF, MaxF},
		{MinF, MinF, MinF, MinF},
	} {
		if c.a.Floor() != c.floor || c.a.Ceil() != c.ceil || c.a.Round() != c.round {
			t.Errorf("%v: Floor, Ceil, Round = %v, %v, %v; want %v, %v, %v",
				c.a, c.a.Floor(), c.a.Ceil(), c.a.Round(), c.floor, c.ceil, c.round)
		}
	}
}

func TestClamp(t *testing.T) {
	r := newRand(6)
	for range oracleN / 4 {
		a, b, c := randF(r), randF(r), randF(r)
		if got, want := Clamp(a, b, c), min(max(a, b), c); got != want {
			t.Fatalf("Clamp(%d, %d, %d) = %d, want %d", a, b, c, got, want)
		}
	}
	if got := Clamp(FromInt(5), FromInt(3), FromInt(1)); got != FromInt(1) {
		t.Errorf("Clamp with lo > hi = %v, want hi", got)
	}
}

func TestLerpExact(t *testing.T) {
	check := func(a, b, tt F) {
		d := new(big.Int).Sub(bigF(b), bigF(a))
		d.Mul(d, bigF(tt))
		d.Add(d, new(big.Int).Lsh(bigF(a), fracBits))
		want := clampF(roundDiv(d, big.NewInt(One.Raw())))
		if got := Lerp(a, b, tt); got != want {
			t.Fatalf("Lerp(%d, %d, %d) = %d, want %d", a, b, tt, got, want)
		}
	}
	for _, a := range edges {
		for _, b := range edges {
			for _, tt := range edges {
				check(a, b, tt)
			}
		}
	}
	r := newRand(7)
	for range oracleN {
		check(randF(r), randF(r), randF(r))
	}
	if got := Lerp(FromInt(10), FromInt(20), FromRatio(1, 4)); got != FromRatio(25, 2) {
		t.Errorf("Lerp(10, 20, ¼) = %v, want 12.5", got)
	}
}

func TestFloat64(t *testing.T) {
	for _, c := range []struct {
		a F
		f float64
	}{
		{One, 1}, {-Half, -0.5}, {1, 0x1p-32}, {MinF, -0x1p31}, {FromRatio(3, 8), 0.375},
	} {
		if got := c.a.Float64(); got != c.f {
			t.Errorf("%d.Float64() = %v, want %v", c.a, got, c.f)
		}
		if got := fromFloat64(c.f); got != c.a {
			t.Errorf("fromFloat64(%v) = %d, want %d", c.f, got, c.a)
		}
	}
	for _, c := range []struct {
		f    float64
		want F
	}{
		{math.NaN(), 0}, {math.Inf(1), MaxF}, {math.Inf(-1), MinF}, {1e300, MaxF}, {-1e300, MinF}, {0x1p31, MaxF}, {-0x1p31, MinF},
		{0x1p-33, 1}, {-0x1p-33, -1}, {0x1p-34, 0}, {2147483647.9999999999, MaxF},
	} {
		if got := fromFloat64(c.f); got != c.want {
			t.Errorf("fromFloat64(%v) = %d, want %d", c.f, got, c.want)
		}
	}
}
