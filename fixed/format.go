package fixed

import "strconv"

// String returns a in decimal: the shortest decimal that Parse maps back to
// exactly a, such as "1.5", "-0.25", "3" or "0.1" (One/10 rounded). At most
// 10 fractional digits are ever needed. It uses no floating point.
func (a F) String() string {
	var buf [24]byte
	return string(a.appendDecimal(buf[:0]))
}

// MarshalText returns the String form of a. It implements
// encoding.TextMarshaler, so an F reads and writes as a decimal string in
// JSON and other text formats.
func (a F) MarshalText() ([]byte, error) { return a.appendDecimal(nil), nil }

// appendInt appends the sign and integer part of a to b, and returns the
// fractional part of |a| as raw bits.
func (a F) appendInt(b []byte) ([]byte, uint64) {
	m := abs64(int64(a))
	if a < 0 {
		b = append(b, '-')
	}
	return strconv.AppendUint(b, m>>fracBits, 10), m & fracMask
}

// appendDecimal appends the shortest round-tripping decimal form of a.
func (a F) appendDecimal(b []byte) []byte {
	b, f := a.appendInt(b)
	if f == 0 {
		return b
	}
	// Find the fewest digits k for which the k-digit decimal c nearest to
	// f/2^32 maps back to f under Parse's rounding: |c/10^k - f/2^32| < 2^-33,
	// or, multiplying by 2^33·5^k/2^k, |2c·2^(32-k) - 2f·5^k| < 5^k. Everything
	// stays below 2^57 for k ≤ 10, and k = 10 always works since
	// 10^-10 < 2^-32. No tie is possible for k < 33.
	p5 := uint64(1)
	for k := 1; k <= 10; k++ {
		p5 *= 5
		num := f * p5
		sh := uint(fracBits - k)
		c := (num + 1<<(sh-1)) >> sh
		d := int64(c<<sh) - int64(num)
		if d < 0 {
			d = -d
		}
		if uint64(2*d) < p5 || k == 10 {
			b = append(b, '.')
			var digits [10]byte
			for j := k - 1; j >= 0; j-- {
				digits[j] = byte('0' + c%10)
				c /= 10
			}
			return append(b, digits[:k]...)
		}
	}
	return b // not reached: k = 10 always returns
}
