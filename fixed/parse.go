package fixed

import (
	"errors"
	"math/bits"
	"strconv"
)

// ErrParse is wrapped by every error that Parse and F.UnmarshalText
// return; match it with errors.Is. The error's own message quotes the input
// and says what is wrong (invalid syntax, or a value out of range) and at
// which byte offset, for example:
//
//	fixed: parsing "1.2x": invalid syntax at byte 3
var ErrParse = errors.New("fixed: invalid decimal number")

// The reasons a parseError gives.
var (
	// errSyntax means the input is not a decimal number.
	errSyntax = errors.New("invalid syntax")
	// errRange means the number, once rounded, is outside [MinF, MaxF].
	errRange = errors.New("value out of range")
)

// parseError is the error Parse returns: the input, the byte offset of the
// problem and the reason, errSyntax or errRange. It wraps ErrParse.
type parseError struct {
	input string
	// pos is the byte offset of the first offending byte. For a syntax
	// error at the end of the input (such as "1e") it is len(input); for a
	// range error it is the offset of the number's first digit or dot.
	pos    int
	reason error
}

// Error returns a message naming the input, the reason and the position.
func (e *parseError) Error() string {
	return "fixed: parsing " + strconv.Quote(e.input) + ": " + e.reason.Error() + " at byte " + strconv.Itoa(e.pos)
}

// Unwrap returns ErrParse, so that errors.Is(err, ErrParse) works.
func (e *parseError) Unwrap() error { return ErrParse }

// Parse reads a decimal number into the nearest F, ties toward +∞. It is
// exact and deterministic, using only integers: the way to load tuning
// values from config files.
//
// The syntax is an optional sign, digits with an optional decimal point
// (at least one digit on either side), and an optional exponent:
//
//	[+-] digits [. digits] [(e|E) [+-] digits]     for example
//	"1.5", "-0.25", ".5", "3.", "+12", "2.5e-3", "1E2"
//
// Any number of digits is accepted and rounded exactly. Spaces,
// underscores, hexadecimal, "inf" and "nan" are syntax errors. A value
// outside [MinF, MaxF] after rounding is a range error, not clamped. Every
// String form parses back to the same F.
//
// On failure it returns 0 and an error that wraps ErrParse.
func Parse(s string) (F, error) {
	f, pos, err := parse(s)
	if err != nil {
		return 0, &parseError{s, pos, err}
	}
	return f, nil
}

// UnmarshalText parses text with Parse into a. It implements
// encoding.TextUnmarshaler; on error a is unchanged and the error, like
// Parse's, wraps ErrParse. It does not allocate unless it fails.
func (a *F) UnmarshalText(text []byte) error {
	f, pos, err := parse(text)
	if err != nil {
		return &parseError{string(text), pos, err}
	}
	*a = f
	return nil
}

// parse reads s as Parse does. On failure it returns the offending
// position and errSyntax or errRange.
func parse[S string | []byte](s S) (F, int, error) {
	var p decimal
	if pos := scan(&p, s); pos >= 0 {
		return 0, pos, errSyntax
	}
	f, ok := value(&p, s)
	if !ok {
		return 0, p.start, errRange
	}
	return f, 0, nil
}

// decimal is a scanned decimal number: the mantissa digits are s[start:end]
// less the byte at dot (if dot ≥ 0), and the value is 0.digits · 10^point.
type decimal struct {
	neg        bool
	start, end int // mantissa bytes in s, dot included
	dot        int // offset of '.', or -1
	nd         int // number of mantissa digits
	point      int // decimal exponent of 0.digits
}

// scan parses the syntax of s into p. It returns -1, or the offset of the
// first offending byte.
func scan[S string | []byte](p *decimal, s S) int {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		p.neg = s[i] == '-'
		i++
	}
	p.start, p.dot = i, -1
	for ; i < len(s); i++ {
		if c := s[i]; c >= '0' && c <= '9' {
			p.nd++
		} else if c == '.' && p.dot < 0 {
			p.dot = i
		} else {
			break
		}
	}
	p.end = i
	if p.nd == 0 {
		return i
	}
	p.point = p.nd
	if p.dot >= 0 {
		p.point = p.dot - p.start
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		e, j := 0, i
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			if e < 1e6 { // beyond this the value is 0 or out of range anyway
				e = e*10 + int(s[i]-'0')
			}
		}
		if i == j {
			return i
		}
		if eneg {
			e = -e
		}
		p.point += e
	}
	if i != len(s) {
		return i
	}
	return -1
}

// digit returns mantissa digit j (0-based), or 0 past the end.
func digit[S string | []byte](p *decimal, s S, j int) uint64 {
	if j < 0 || j >= p.nd {
		return 0
	}
	k := p.start + j
	if p.dot >= 0 && k >= p.dot {
		k++
	}
	return uint64(s[k] - '0')
}

// fracDigits is how many fractional digits value keeps exactly; the rest
// only matter as a sticky bit. A rounding tie needs 33 digits, so 40 are
// plenty.
const fracDigits = 40

// value returns the scanned number rounded to the nearest F, or false if it
// is out of range.
func value[S string | []byte](p *decimal, s S) (F, bool) {
	// Drop leading zeros: then digit 0 is nonzero, and the integer part has
	// exactly point digits when point > 0.
	z := 0
	for z < p.nd && digit(p, s, z) == 0 {
		z++
	}
	if z == p.nd {
		return 0, true
	}
	first, point := z, p.point-z
	if point > 10 {
		return 0, false // at least 10^10 > 2^31
	}
	var ip uint64
	for j := 0; j < point; j++ {
		ip = ip*10 + digit(p, s, first+j)
	}
	if ip > 1<<31 {
		return 0, false
	}
	// frac gets the 32 fraction bits and the rounding bit below them; rest
	// says whether anything nonzero lies below the rounding bit.
	var frac uint64
	var rest bool
	if nf := p.nd - first - point; nf <= 18 {
		// Up to 18 fractional digits: the fraction is D/10^nf with D below
		// 10^18, and D·2^32/10^nf is one 128-by-64-bit division.
		var d uint64
		for j := first + point; j < p.nd; j++ {
			d = d*10 + digit(p, s, j)
		}
		if nf > 0 {
			den := pow10[nf]
			q, r := bits.Div64(d>>(64-fracBits), d<<fracBits, den)
			r *= 2 // < 2^61
			frac = q << 1
			if r >= den {
				frac |= 1
				r -= den
			}
			rest = r != 0
		}
	} else {
		frac, rest = fracLong(p, s, first+point)
	}
	m := ip<<fracBits | frac>>1
	if frac&1 != 0 && (rest || !p.neg) {
		m++ // above the half, or a tie rounded toward +∞
	}
	if p.neg {
		if m > 1<<63 {
			return 0, false
		}
		return F(-int64(m)), true
	}
	if m > 1<<63-1 {
		return 0, false
	}
	return F(m), true
}

// pow10[k] is 10^k.
var pow10 = [19]uint64{
	1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
}

// fracLong returns the 32 fraction bits and the rounding bit of the
// fraction whose first digit is mantissa digit j0 (digits before the
// mantissa are zeros), and whether anything nonzero lies below. It is the
// slow path of value, exact for any number of digits: it keeps the first
// fracDigits digits and a sticky bit for the rest, and doubles the decimal
// fraction 33 times, collecting the carries.
func fracLong[S string | []byte](p *decimal, s S, j0 int) (frac uint64, rest bool) {
	var fd [fracDigits]byte // fd[k] is the digit at 10^-(k+1)
	n := 0                  // fd[n:] are all zero
	for k := range fd {
		if d := digit(p, s, j0+k); d != 0 {
			fd[k] = byte(d)
			n = k + 1
		}
	}
	for j := max(j0+fracDigits, 0); j < p.nd; j++ {
		if digit(p, s, j) != 0 {
			rest = true
			break
		}
	}
	for range fracBits + 1 {
		carry := byte(0)
		for k := n - 1; k >= 0; k-- {
			d := fd[k]*2 + carry
			carry = d / 10
			fd[k] = d - carry*10
		}
		frac = frac<<1 | uint64(carry)
	}
	for _, d := range fd[:n] {
		rest = rest || d != 0
	}
	return frac, rest
}
