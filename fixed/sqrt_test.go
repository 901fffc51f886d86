package fixed

import (
	"fmt"
	"math/big"
	"testing"
)

// isqrtRoundOracle returns √n rounded to the nearest integer.
func isqrtRoundOracle(n *big.Int) *big.Int {
	s := new(big.Int).Sqrt(n)
	r := new(big.Int).Sub(n, new(big.Int).Mul(s, s))
	if r.Cmp(s) > 0 {
		s.Add(s, big.NewInt(1))
	}
	return s
}

func TestSqrtExact(t *testing.T) {
	m := maxErr{name: "Sqrt"}
	check := func(a F) {
		got := Sqrt(a)
		if a <= 0 {
			if got != 0 {
				t.Fatalf("Sqrt(%d) = %d, want 0", a, got)
			}
			return
		}
		n := new(big.Int).Lsh(bigF(a), fracBits)
		want := isqrtRoundOracle(n)
		if got.Raw() != want.Int64() {
			t.Fatalf("Sqrt(%d) = %d, want %d", a, got, want)
		}
		// Error in LSB: |got - √n| = |got² - n| / (got + √n), bounded using
		// got + √n ≥ 2·min(got, ⌊√n⌋).
		g := bigF(got)
		e := new(big.Int).Sub(new(big.Int).Mul(g, g), n)
		den := new(big.Int).Add(g, new(big.Int).Sqrt(n))
		m.add(errLSB(0, e, den), func() string { return fmt.Sprint(a.Raw()) })
	}
	for _, a := range edges {
		check(a)
	}
	r := newRand(10)
	for range oracleN {
		check(randF(r))
	}
	// Around perfect squares and the midpoints between them, where rounding
	// is decided.
	for range oracleN / 4 {
		s := r.Uint64() >> r.IntN(64) & (1<<47 - 1) // a root in raw units
		for _, d := range []int64{-2, -1, 0, 1, 2} {
			for _, sq := range []*big.Int{
				new(big.Int).Mul(new(big.Int).SetUint64(s), new(big.Int).SetUint64(s)),
				new(big.Int).Add(new(big.Int).Mul(new(big.Int).SetUint64(s), new(big.Int).SetUint64(s)), new(big.Int).SetUint64(s)),
			} {
				raw := new(big.Int).Rsh(sq, fracBits).Int64() + d
				if raw > 0 {
					check(F(raw))
				}
			}
		}
	}
	m.log(t, "LSB")
	if m.max > 0.5 {
		t.Errorf("Sqrt error %v LSB exceeds 0.5", m.max)
	}
	if got := Sqrt(FromInt(4)); got != FromInt(2) {
		t.Errorf("Sqrt(4) = %v", got)
	}
	if got := Sqrt(FromRatio(1, 4)); got != Half {
		t.Errorf("Sqrt(¼) = %v", got)
	}
}

func TestIsqrtWide(t *testing.T) {
	// isqrtWide and isqrtRound over the whole documented domain, up to 3·2^126.
	limit := new(big.Int).Lsh(big.NewInt(3), 126)
	r := newRand(11)
	check := func(n *big.Int) {
		hi := new(big.Int).Rsh(n, 64).Uint64()
		lo := new(big.Int).And(n, new(big.Int).SetUint64(1<<64-1)).Uint64()
		if hi != 0 {
			if got, floor := isqrtWide(hi, lo), new(big.Int).Sqrt(n).Uint64(); got < floor || got > floor+4 {
				t.Fatalf("isqrtWide(%v) = %d, want ⌊√N⌋ = %d or a little above", n, got, floor)
			}
		}
		if got, want := isqrtRound(hi, lo), isqrtRoundOracle(n); got != want.Uint64() {
			t.Fatalf("isqrtRound(%v) = %d, want %v", n, got, want)
		}
	}
	check(limit)
	check(big.NewInt(0))
	check(big.NewInt(1))
	for range oracleN {
		n := new(big.Int).SetUint64(r.Uint64())
		n.Lsh(n, 64).Or(n, new(big.Int).SetUint64(r.Uint64()))
		n.Rsh(n, uint(r.IntN(128)))
		if n.Cmp(limit) > 0 {
			n.Rsh(n, 1)
		}
		check(n)
		// Around the square of a random root.
		s := new(big.Int).Sqrt(n)
		sq := new(big.Int).Mul(s, s)
		for _, d := range []int64{-1, 1} {
			v := new(big.Int).Add(sq, big.NewInt(d))
			if v.Sign() >= 0 && v.Cmp(limit) <= 0 {
				check(v)
			}
		}
	}
}
