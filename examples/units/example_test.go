package units_test

import (
	"fmt"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/units"
	"github.com/rollstep/rollstep/fixed"
)

// A player orders its unit 0 three units east; after 12 frames at a quarter
// of a unit per frame it has arrived.
func Example() {
	s, err := units.New(1, 1, 99)
	if err != nil {
		fmt.Println(err)
		return
	}
	s.Units[0].Pos = fixed.V2(fixed.FromInt(100), fixed.FromInt(50))
	s.Units[0].Target = s.Units[0].Pos

	order := units.Order{Unit: 0, Kind: units.OrderMove, X: 103, Y: 50}
	inputs := []core.Input[units.Order]{{Value: order, Status: core.InputConfirmed}}
	var fx silent
	for range 12 {
		units.Game{}.Step(&s, inputs, fx)
		inputs[0].Value = units.Order{} // no new order
		if s.Frame%4 == 0 {
			fmt.Printf("frame %d: unit 0 at (%v, %v)\n", s.Frame, s.Units[0].Pos.X, s.Units[0].Pos.Y)
		}
	}
	fmt.Println("arrived:", s.Arrived)
	// Output:
	// frame 4: unit 0 at (101, 50)
	// frame 8: unit 0 at (102, 50)
	// frame 12: unit 0 at (103, 50)
	// arrived: 1
}

// silent is an Effects that plays nothing: the example only shows the
// state.
type silent struct{}

func (silent) Emit(core.Effect) bool { return true }
