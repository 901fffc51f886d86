package skirmish

import (
	"github.com/rollstep/rollstep/examples/rts"
)

// clickSlop is how far, in pixels, the cursor may move between press and
// release for a left click to be a click rather than a drag.
const clickSlop = 4

// pickPixels is how near, in pixels, a click must fall to a unit to pick it.
const pickPixels = 8

// Commander turns the human's frame inputs into a Selection and orders.
type Commander struct {
	Player   int       // the player it commands
	Sel      Selection // the selected groups
	Dragging bool      // the left button is down: a click or a box under way
	DragX    int       // screen position where the left button went down
	DragY    int
}

// Handle applies one update's input: a left click picks the group of the
// human's unit under the cursor, a left drag selects the groups of the
// units in the box, number keys select squads and E every group (Shift
// adds to the Selection), and a right click orders the Selection to the
// point (see orderKind). It returns the order's commands, if any.
func (c *Commander) Handle(in Input, v View, s *rts.State) []rts.Command {
	switch {
	case in.All:
		c.Sel = AllGroups
	case in.Squad > 0 && in.Shift:
		c.Sel |= Squad(in.Squad)
	case in.Squad > 0:
		c.Sel = Squad(in.Squad)
	}
	if in.LeftPressed {
		c.Dragging, c.DragX, c.DragY = true, in.X, in.Y
	}
	if in.LeftReleased && c.Dragging {
		c.Dragging = false
		picked := c.pick(in, v, s)
		if in.Shift {
			c.Sel |= picked
		} else {
			c.Sel = picked
		}
	}
	if !in.RightPressed || c.Sel == 0 {
		return nil
	}
	wx, wy := v.ToWorld(float64(in.X), float64(in.Y))
	x, y := MapPoint(wx, wy)
	return buildOrder(c.Sel, orderKind(s, c.Player, wx, wy, in.AttackMove), x, y)
}

// pick returns the groups a left button released at the cursor selects:
// the group of the nearest own unit for a click, the groups in the box
// for a drag.
func (c *Commander) pick(in Input, v View, s *rts.State) Selection {
	if abs(in.X-c.DragX) <= clickSlop && abs(in.Y-c.DragY) <= clickSlop {
		wx, wy := v.ToWorld(float64(in.X), float64(in.Y))
		own := func(owner int) bool { return owner == c.Player }
		if i, ok := nearestUnit(s, wx, wy, pickPixels/v.Scale, own); ok {
			return Selection(0).With(GroupOf(i, int(s.Players)))
		}
		return 0
	}
	x0, y0 := v.ToWorld(float64(c.DragX), float64(c.DragY))
	x1, y1 := v.ToWorld(float64(in.X), float64(in.Y))
	return selectBox(s, c.Player, rect{x0, y0, x1, y1})
}

// abs returns |v|.
func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
