package fixed_test

import (
	"errors"
	"fmt"

	"github.com/rollstep/rollstep/fixed"
)

// A unit walks toward a target at 1.5 units per step. Every peer that runs
// this loop gets the same positions, bit for bit, on any CPU.
func Example() {
	pos := fixed.V2(fixed.FromInt(1), fixed.FromInt(-2))
	target := fixed.V2(fixed.FromInt(8), fixed.FromInt(3))
	speed := fixed.FromRatio(3, 2)

	for step := 1; pos != target; step++ {
		// Move along the line to the target, at most speed per step; the
		// last step lands exactly on it.
		pos = pos.Add(target.Sub(pos).ClampLength(speed))
		fmt.Printf("step %d: %v, %v to go\n", step, pos, pos.Distance(target))
	}
	d := pos.Sub(fixed.V2(fixed.FromInt(1), fixed.FromInt(-2)))
	fmt.Println("facing", fixed.Atan2(d.Y, d.X).Degrees(), "degrees")
	// Output:
	// step 1: (2.2206002069, -1.1281427094), 7.102325267 to go
	// step 2: (3.4412004137, -0.2562854188), 5.602325267 to go
	// step 3: (4.6618006206, 0.6155718719), 4.102325267 to go
	// step 4: (5.8824008275, 1.4874291625), 2.6023252667 to go
	// step 5: (7.1030010344, 2.359286453), 1.1023252667 to go
	// step 6: (8, 3), 0 to go
	// facing 35.5376442801 degrees
}

// Parse reads tuning values from a config file exactly, with no floats.
func ExampleParse() {
	for _, s := range []string{"1.5", "-0.25", "2.5e-3", "0.1", "1.2x", "3000000000"} {
		f, err := fixed.Parse(s)
		if errors.Is(err, fixed.ErrParse) {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%q: %v (raw %d)\n", s, f, f.Raw())
	}
	// Output:
	// "1.5": 1.5 (raw 6442450944)
	// "-0.25": -0.25 (raw -1073741824)
	// "2.5e-3": 0.0025 (raw 10737418)
	// "0.1": 0.1 (raw 429496730)
	// fixed: parsing "1.2x": invalid syntax at byte 3
	// fixed: parsing "3000000000": value out of range at byte 0
}

// Atan2 turns a direction into an Angle; FromAngle turns it back into a
// unit vector, (cos, sin).
func ExampleAtan2() {
	a := fixed.Atan2(fixed.FromInt(1), fixed.FromInt(-1)) // up and to the left
	fmt.Println(a == fixed.AngleFromTurns(3, 8), a.Degrees())

	// 30° is not a whole number of Angle units: it rounds to 1/3 unit
	// less, so its sine is 4e-10 short of 0.5.
	v := fixed.FromAngle(fixed.AngleFromDegrees(fixed.FromInt(30)))
	fmt.Println(v.Y, v.X)
	// Output:
	// true 135
	// 0.4999999995 0.866025404
}

// FromRatio writes exact constants without floats.
func ExampleFromRatio() {
	third := fixed.FromRatio(1, 3)
	fmt.Println(third, third.Mul(fixed.FromInt(3)), fixed.One.Div(fixed.FromInt(3)) == third)
	// Output:
	// 0.3333333333 0.9999999998 true
}
