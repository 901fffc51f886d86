package fixed

import "math/bits"

// Angle is a binary angle: 2^32 units make one full turn, so an Angle is
// always in [0, 1) turn and wraps around for free with uint32 arithmetic
// (QuarterTurn*5 == QuarterTurn). One unit is about 8.4e-8 degrees.
//
// Add and subtract Angles with + and -; negate with -a (a turn minus a).
// The zero value is the angle 0, pointing along +X.
type Angle uint32

// Common angles. Counter-clockwise is positive, in the math convention
// where +X is 0 and +Y is QuarterTurn.
const (
	// EighthTurn is 45 degrees, π/4 radians.
	EighthTurn Angle = 1 << 29
	// QuarterTurn is 90 degrees, π/2 radians: the direction of +Y.
	QuarterTurn Angle = 1 << 30
	// HalfTurn is 180 degrees, π radians: the direction of -X.
	HalfTurn Angle = 1 << 31
	// ThreeQuarterTurn is 270 degrees, 3π/2 radians: the direction of -Y.
	ThreeQuarterTurn Angle = 3 << 30
)

// AngleFromTurns returns the angle num/den of a full turn, rounded to the
// nearest unit (ties toward +∞) and wrapped into [0, 1) turn: exact and
// float-free, so AngleFromTurns(1, 3) is a third of a turn and
// AngleFromTurns(-1, 4) is ThreeQuarterTurn. A zero den returns 0.
func AngleFromTurns(num, den int64) Angle {
	if den == 0 {
		return 0
	}
	// Whole turns do not matter; |num % den| < |den| keeps the quotient
	// within one turn, so divRaw cannot saturate.
	return Angle(uint32(divRaw(num%den, den)))
}

// AngleFromDegrees returns the angle of deg degrees, rounded to the nearest
// unit (ties toward +∞) and wrapped into [0, 360): AngleFromDegrees(FromInt(90))
// is QuarterTurn. It is exact and never overflows.
func AngleFromDegrees(deg F) Angle {
	// deg/360 turns = raw/2^32/360 · 2^32 units = raw/360 units. Reduce
	// modulo a whole number of turns first so that nothing overflows.
	const turn = 360 << fracBits
	r := int64(deg) % turn
	r += 180 // round to nearest, ties up
	q := r / 360
	if r%360 < 0 {
		q-- // floor division
	}
	return Angle(uint32(q))
}

// AngleFromRadians returns the angle of rad radians, wrapped into [0, 2π)
// and within one unit (2^-32 turn) of the exact value. It never overflows.
func AngleFromRadians(rad F) Angle {
	// rad/(2π) turns = raw · (2^64/(2π)) / 2^64 units.
	p := mulI64(int64(rad), invTwoPiQ64)
	return Angle(uint32(p.hi + p.lo>>63))
}

// Turns returns a as a fraction of a full turn, in [0, 1). It is exact.
func (a Angle) Turns() F { return F(a) }

// Degrees returns a in degrees, in [0, 360). It is exact.
func (a Angle) Degrees() F { return F(uint64(a) * 360) }

// Radians returns a in radians, in [0, 2π), within half an LSB (plus
// 2^-29 LSB for the rounding of 2π) of the exact value.
func (a Angle) Radians() F {
	hi, lo := bits.Mul64(uint64(a), twoPiQ60)
	lo, c := bits.Add64(lo, 1<<59, 0)
	hi += c
	return F(hi<<4 | lo>>60)
}
