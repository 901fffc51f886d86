package fixed

import (
	"errors"
	"math/big"
	"strings"
	"testing"
)

// parseOracle returns the decimal s (already known valid) rounded to the
// nearest F with ties toward +∞, and whether it is in range, via big.Rat.
func parseOracle(s string) (F, bool) {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("oracle cannot parse " + s)
	}
	r.Mul(r, new(big.Rat).SetInt64(One.Raw()))
	q := roundDiv(r.Num(), r.Denom())
	if q.Cmp(bigMax) > 0 || q.Cmp(bigMin) < 0 {
		return 0, false
	}
	return F(q.Int64()), true
}

// piF is π rounded to the nearest F.
const piF F = 13493037705

// reason returns the reason of an error from Parse or UnmarshalText,
// errSyntax or errRange, and its position; nil if err is not a
// *parseError that wraps ErrParse.
func reason(err error) (int, error) {
	var pe *parseError
	if !errors.As(err, &pe) || !errors.Is(err, ErrParse) {
		return 0, nil
	}
	return pe.pos, pe.reason
}

func TestParseValid(t *testing.T) {
	for _, c := range []struct {
		in   string
		want F
	}{
		{"0", 0},
		{"-0", 0},
		{"+0.0", 0},
		{"1", One},
		{"1.5", One + Half},
		{"-0.25", FromRatio(-1, 4)},
		{".5", Half},
		{"5.", FromInt(5)},
		{"+12", FromInt(12)},
		{"2.5e-3", FromRatio(25, 10000)},
		{"1E2", FromInt(100)},
		{"0.1", FromRatio(1, 10)},
		{"-2147483648", MinF},
		{"2147483647.99999999976716935634613037109375", MaxF},
		{"0.00000000023283064365386962890625", 1},
		{"0.000000000116415321826934814453125", 1},  // exactly ½ LSB: ties up
		{"-0.000000000116415321826934814453125", 0}, // -½ LSB: ties up, to 0
		{"0.0000000001164153218269348144531250000000000000000000001", 1},
		{"-0.0000000001164153218269348144531250000000000000000000001", -1},
		{"0.000000000116415321826934814453124999999999999999999999", 0},
		{"1e-999999999999", 0},
		{"0e999999999999", 0},
		{"00000000000000000000000000000000000000001.5", One + Half},
		{"3.14159265358979323846264338327950288419716939937510", piF},
	} {
		got, err := Parse(c.in)
		if err != nil || got != c.want {
			t.Errorf("Parse(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		in  string
		pos int
		err error
	}{
		{"", 0, errSyntax},
		{"-", 1, errSyntax},
		{".", 1, errSyntax},
		{"-.", 2, errSyntax},
		{"1.2.3", 3, errSyntax},
		{"1.2x", 3, errSyntax},
		{" 1", 0, errSyntax},
		{"1 ", 1, errSyntax},
		{"1e", 2, errSyntax},
		{"1e+", 3, errSyntax},
		{"1e5x", 3, errSyntax},
		{"e5", 0, errSyntax},
		{"--1", 1, errSyntax},
		{"1_000", 1, errSyntax},
		{"0x10", 1, errSyntax},
		{"inf", 0, errSyntax},
		{"NaN", 0, errSyntax},
		{"2147483648", 0, errRange},
		{"-2147483648.0000000002", 1, errRange},
		{"2147483647.9999999999", 0, errRange},
		{"1e10", 0, errRange},
		{"+99999999999999999999", 1, errRange},
		{"1e999999999999", 0, errRange},
	} {
		got, err := Parse(c.in)
		pos, why := reason(err)
		if why == nil {
			t.Errorf("Parse(%q) = %v, %v; want an error wrapping ErrParse", c.in, got, err)
			continue
		}
		if why != c.err || pos != c.pos || got != 0 {
			t.Errorf("Parse(%q) = %v, %v (pos %d); want %v at %d", c.in, got, err, pos, c.err, c.pos)
		}
		var u F = 7
		if err := u.UnmarshalText([]byte(c.in)); u != 7 {
			t.Errorf("UnmarshalText(%q) changed its receiver to %v", c.in, u)
		} else if pos, why := reason(err); why != c.err || pos != c.pos {
			t.Errorf("UnmarshalText(%q) = %v (pos %d); want %v at %d", c.in, err, pos, c.err, c.pos)
		}
	}
	_, err := Parse("1.2x")
	if want := `fixed: parsing "1.2x": invalid syntax at byte 3`; err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}
	_, err = Parse("3000000000")
	if want := `fixed: parsing "3000000000": value out of range at byte 0`; err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}
}

func TestParseOracle(t *testing.T) {
	r := newRand(40)
	digits := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(byte('0' + r.IntN(10)))
		}
		return b.String()
	}
	for range oracleN / 4 {
		s := digits(r.IntN(11))
		if r.IntN(4) != 0 {
			s += "." + digits(r.IntN(45))
		}
		if s == "" || s == "." {
			s = "0" + s
		}
		if r.IntN(2) == 0 {
			s = "-" + s
		}
		if r.IntN(5) == 0 {
			s += "e" + []string{"", "-", "+"}[r.IntN(3)] + digits(1+r.IntN(2))
		}
		want, inRange := parseOracle(s)
		got, err := Parse(s)
		switch {
		case !inRange && !isRange(err):
			t.Fatalf("Parse(%q) = %d, %v; want a range error", s, got, err)
		case inRange && (err != nil || got != want):
			t.Fatalf("Parse(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
}

func TestStringRoundTrip(t *testing.T) {
	for _, c := range []struct {
		a    F
		want string
	}{
		{0, "0"},
		{One, "1"},
		{One + Half, "1.5"},
		{FromRatio(-1, 4), "-0.25"},
		{FromRatio(1, 10), "0.1"},
		{FromRatio(-1, 3), "-0.3333333333"},
		{1, "0.0000000002"},
		{-1, "-0.0000000002"},
		{MaxF, "2147483647.9999999998"},
		{MinF, "-2147483648"},
		{piF, "3.1415926537"},
	} {
		if got := c.a.String(); got != c.want {
			t.Errorf("%d.String() = %q, want %q", c.a, got, c.want)
		}
	}
	r := newRand(41)
	for range oracleN {
		a := randF(r)
		s := a.String()
		if got, err := Parse(s); err != nil || got != a {
			t.Fatalf("Parse(%d.String() = %q) = %d, %v", a, s, got, err)
		}
		// Shortest: dropping the last digit must not round-trip.
		if i := strings.IndexByte(s, '.'); i >= 0 && len(s)-i > 2 {
			if got, _ := Parse(s[:len(s)-1]); got == a {
				t.Fatalf("%d.String() = %q is not the shortest", a, s)
			}
		}
		e := exactString(a)
		if got, err := Parse(e); err != nil || got != a {
			t.Fatalf("Parse(exactString(%d) = %q) = %d, %v", a, e, got, err)
		}
		if want, _ := parseOracle(e); new(big.Rat).SetFrac(bigF(a), big.NewInt(One.Raw())).RatString() != mustRat(e).RatString() || want != a {
			t.Fatalf("exactString(%d) = %q is not exact", a, e)
		}
		var b F
		txt, _ := a.MarshalText()
		if err := b.UnmarshalText(txt); err != nil || b != a {
			t.Fatalf("text round trip of %d: %q → %d, %v", a, txt, b, err)
		}
		if string(txt) != s {
			t.Fatalf("%d.MarshalText() = %q, String %q", a, txt, s)
		}
	}
	var b F = 7
	if err := b.UnmarshalText([]byte("nope")); err == nil || b != 7 {
		t.Errorf("UnmarshalText(nope) = %v, left %d", err, b)
	}
}

// isRange reports whether err is a range error from Parse.
func isRange(err error) bool {
	_, why := reason(err)
	return why == errRange
}

func mustRat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic(s)
	}
	return r
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"0", "1.5", "-0.25", ".5", "5.", "2.5e-3", "-2147483648",
		"2147483647.9999999998", "0.1", "1e", "x", "", "-", "00001.000001e+3",
		"0.000000000116415321826934814453125", exactString(MinF), piF.String()} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := Parse(s)
		if err != nil {
			var pe *parseError
			if !errors.As(err, &pe) || !errors.Is(err, ErrParse) || pe.pos < 0 || pe.pos > len(s) || pe.input != s ||
				!(pe.reason == errSyntax || pe.reason == errRange) || a != 0 {
				t.Fatalf("Parse(%q) = %d, %v", s, a, err)
			}
			return
		}
		if b, err := Parse(a.String()); err != nil || b != a {
			t.Fatalf("Parse(%q) = %d, String %q parses to %d, %v", s, a, a.String(), b, err)
		}
		if b, err := Parse(exactString(a)); err != nil || b != a {
			t.Fatalf("Parse(%q) = %d, exact expansion %q parses to %d, %v", s, a, exactString(a), b, err)
		}
		// Against the big.Rat oracle, for inputs it reads the same way and
		// whose exponent is small enough to evaluate.
		if len(s) < 200 && !strings.ContainsAny(s, "eE") {
			if want, ok := parseOracle(strings.TrimPrefix(s, "+")); !ok || want != a {
				t.Fatalf("Parse(%q) = %d, oracle %d (in range %v)", s, a, want, ok)
			}
		}
	})
}
