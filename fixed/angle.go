package fixed

// Angle is a binary angle: 2^32 units make one full turn, so an Angle is
// always in [0, 1) turn and wraps around for free with uint32 arithmetic
// (QuarterTurn*5 == QuarterTurn). One unit is about 8.4e-8 degrees.
//
// Add and subtract Angles with + and -; negate with -a (a turn minus a);
// multiply by an integer for multiples (3*QuarterTurn is 270 degrees). The
// zero value is the angle 0, pointing along +X.
//
// The conversion F(a) is exactly a as a fraction of a full turn, in [0, 1).
// Radians are for rendering code only: F(a).Float64() * 2 * math.Pi.
type Angle uint32

// Common angles. Counter-clockwise is positive, in the math convention
// where +X is 0 and +Y is QuarterTurn. Other fractions of a turn are
// AngleFromTurns(num, den), or multiples of these.
const (
	// QuarterTurn is 90 degrees, π/2 radians: the direction of +Y.
	QuarterTurn Angle = 1 << 30
	// HalfTurn is 180 degrees, π radians: the direction of -X.
	HalfTurn Angle = 1 << 31
)

// AngleFromTurns returns the angle num/den of a full turn, rounded to the
// nearest unit (ties toward +∞) and wrapped into [0, 1) turn: exact and
// float-free, so AngleFromTurns(1, 3) is a third of a turn and
// AngleFromTurns(-1, 4) is 3*QuarterTurn. A zero den returns 0.
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

// Degrees returns a in degrees, in [0, 360). It is exact.
func (a Angle) Degrees() F { return F(uint64(a) * 360) }
