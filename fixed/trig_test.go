package fixed

import (
	"fmt"
	"math"
	"testing"
)

// eighthTurn is 45 degrees, an octant.
const eighthTurn = QuarterTurn / 2

// boundaryAngles are every octant boundary and its neighbours.
func boundaryAngles() []Angle {
	var as []Angle
	for k := range Angle(8) {
		b := k * eighthTurn
		for _, d := range []Angle{0, 1, 2, 1 << 10, 1 << 21, 1<<21 + 1} {
			as = append(as, b+d, b-d)
		}
	}
	return as
}

// radians returns a in radians as a float64 (accurate to 2^-50).
func radians(a Angle) float64 { return float64(a) * (2 * math.Pi / (1 << 32)) }

func TestSinCosAccuracy(t *testing.T) {
	const bound = 0x1p-28
	ms, mc := maxErr{name: "Sin"}, maxErr{name: "Cos"}
	check := func(a Angle) {
		s, c := sinCos(a)
		if s != Sin(a) || c != Cos(a) {
			t.Fatalf("sinCos(%d) = %d, %d; Sin, Cos = %d, %d", a, s, c, Sin(a), Cos(a))
		}
		if v := FromAngle(a); v.X != c || v.Y != s {
			t.Fatalf("FromAngle(%d) = %v; Cos, Sin = %d, %d", a, v, c, s)
		}
		if s > One || s < -One || c > One || c < -One {
			t.Fatalf("sinCos(%d) = %v, %v: outside [-1, 1]", a, s, c)
		}
		ws, wc := math.Sin(radians(a)), math.Cos(radians(a))
		ms.add(math.Abs(s.Float64()-ws), func() string { return fmt.Sprint(a) })
		mc.add(math.Abs(c.Float64()-wc), func() string { return fmt.Sprint(a) })
	}
	for _, a := range boundaryAngles() {
		check(a)
	}
	// A dense sweep of every 2^12th angle, and seeded random angles.
	for a := uint64(0); a < 1<<32; a += 1 << 12 {
		check(Angle(a) + 0x5a5)
	}
	r := newRand(20)
	for range oracleN {
		check(Angle(r.Uint32()))
	}
	ms.log(t, "(absolute)")
	mc.log(t, "(absolute)")
	t.Logf("in LSB: Sin %.3f, Cos %.3f; bound 2^-28 = 16 LSB", ms.max*0x1p32, mc.max*0x1p32)
	if ms.max > bound || mc.max > bound {
		t.Errorf("error exceeds 2^-28")
	}
}

func TestSinCosExact(t *testing.T) {
	for _, c := range []struct {
		a    Angle
		s, c F
	}{
		{0, 0, One},
		{QuarterTurn, One, 0},
		{HalfTurn, 0, -One},
		{3 * QuarterTurn, -One, 0},
		{eighthTurn, FromRatio(7071067812, 10000000000), FromRatio(7071067812, 10000000000)},
	} {
		s, co := Sin(c.a), Cos(c.a)
		if s != c.s || co != c.c {
			t.Errorf("Sin, Cos(%d) = %v, %v; want %v, %v", c.a, s, co, c.s, c.c)
		}
		if v := FromAngle(c.a); v != V2(c.c, c.s) {
			t.Errorf("FromAngle(%d) = %v; want (%v, %v)", c.a, v, c.c, c.s)
		}
	}
}

func TestAtan2Accuracy(t *testing.T) {
	const bound = 0x1p-20
	m := maxErr{name: "Atan2"}
	check := func(y, x F) {
		got := Atan2(y, x)
		if x == 0 && y == 0 {
			if got != 0 {
				t.Fatalf("Atan2(0, 0) = %d", got)
			}
			return
		}
		want := math.Atan2(y.Float64(), x.Float64()) / (2 * math.Pi) // turns in (-½, ½]
		d := float64(got)/(1<<32) - want
		d -= math.Round(d) // wrap
		m.add(math.Abs(d), func() string { return fmt.Sprint(y.Raw(), ", ", x.Raw()) })
	}
	for _, y := range edges {
		for _, x := range edges {
			check(y, x)
		}
	}
	for _, a := range boundaryAngles() {
		v := FromAngle(a).Scale(FromInt(1000))
		check(v.Y, v.X)
	}
	r := newRand(21)
	for range oracleN {
		check(randF(r), randF(r))
	}
	m.log(t, "turn")
	t.Logf("Atan2: max error 2^%.2f turn; bound 2^-20", math.Log2(m.max))
	if m.max > bound {
		t.Errorf("Atan2 error exceeds 2^-20 turn")
	}
}

func TestAtan2Exact(t *testing.T) {
	for _, c := range []struct {
		y, x F
		want Angle
	}{
		{0, 0, 0},
		{0, One, 0},
		{One, One, eighthTurn},
		{One, 0, QuarterTurn},
		{One, -One, 3 * eighthTurn},
		{0, -One, HalfTurn},
		{-One, -One, 5 * eighthTurn},
		{-One, 0, 3 * QuarterTurn},
		{-One, One, 7 * eighthTurn},
		{MaxF, MaxF, eighthTurn},
		{MinF, MinF, 5 * eighthTurn},
		{MinF, 0, 3 * QuarterTurn},
		{0, MinF, HalfTurn},
		{1, 1, eighthTurn},
	} {
		if got := Atan2(c.y, c.x); got != c.want {
			t.Errorf("Atan2(%v, %v) = %d, want %d", c.y, c.x, got, c.want)
		}
	}
}

func TestAngleConversions(t *testing.T) {
	for _, c := range []struct {
		got, want Angle
	}{
		{AngleFromDegrees(FromInt(90)), QuarterTurn},
		{AngleFromDegrees(FromInt(-90)), 3 * QuarterTurn},
		{AngleFromDegrees(FromInt(450)), QuarterTurn},
		{AngleFromDegrees(FromInt(45)), eighthTurn},
		{AngleFromDegrees(FromInt(360)), 0},
		{AngleFromDegrees(MinF), AngleFromTurns(-1<<31, 360)},
		{AngleFromDegrees(MaxF), AngleFromDegrees(MaxF - FromInt(360*5965232))},
		{AngleFromTurns(1, 4), QuarterTurn},
		{AngleFromTurns(-1, 4), 3 * QuarterTurn},
		{AngleFromTurns(5, 4), QuarterTurn},
		{AngleFromTurns(1, -4), 3 * QuarterTurn},
		{AngleFromTurns(1, 0), 0},
		{AngleFromTurns(1, 3), 1431655765},
		{AngleFromTurns(2, 3), 2863311531},
		{AngleFromTurns(-1<<63, -1), 0},
		{AngleFromTurns(3, 8), 3 * eighthTurn},
	} {
		if c.got != c.want {
			t.Errorf("got %d, want %d", c.got, c.want)
		}
	}
	r := newRand(22)
	for range oracleN {
		a := Angle(r.Uint32())
		if got := AngleFromDegrees(a.Degrees()); got != a {
			t.Fatalf("AngleFromDegrees(%d.Degrees()) = %d", a, got)
		}
		// F(a) is a in turns, exactly, as the Angle documentation says.
		if got := AngleFromTurns(F(a).Raw(), 1<<32); got != a {
			t.Fatalf("AngleFromTurns(F(%d) in turns) = %d", a, got)
		}
		if got, want := F(a).Mul(FromInt(360)), a.Degrees(); got != want {
			t.Fatalf("F(%d)·360 = %v, Degrees %v", a, got, want)
		}
	}
}
