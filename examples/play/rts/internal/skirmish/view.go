package skirmish

import (
	"math"

	"github.com/rollstep/rollstep/examples/rts"
)

// View maps world coordinates (0 to rts.MapSize on both axes) to screen
// pixels and back: screen = origin + world·Scale. Rendering only; it
// never feeds the simulation.
type View struct {
	originX, originY float64 // screen position of the world origin
	Scale            float64 // pixels per world unit
}

// Zoom bounds, in pixels per world unit.
const (
	minScale = 0.25
	maxScale = 16
)

// FitView returns the View that shows the whole map centred in the
// rectangle of width w and height h whose top edge is at top.
func FitView(w, h, top int) View {
	Scale := math.Min(float64(w), float64(h)) / rts.MapSize
	return View{
		originX: (float64(w) - rts.MapSize*Scale) / 2,
		originY: float64(top) + (float64(h)-rts.MapSize*Scale)/2,
		Scale:   Scale,
	}
}

// ToScreen returns the screen position of world point (wx, wy).
func (v View) ToScreen(wx, wy float64) (float64, float64) {
	return v.originX + wx*v.Scale, v.originY + wy*v.Scale
}

// ToWorld returns the world point under screen position (sx, sy).
func (v View) ToWorld(sx, sy float64) (float64, float64) {
	return (sx - v.originX) / v.Scale, (sy - v.originY) / v.Scale
}

// ZoomAt returns the View scaled by factor (within minScale and
// maxScale) around screen position (sx, sy), which keeps showing the
// same world point.
func (v View) ZoomAt(sx, sy, factor float64) View {
	wx, wy := v.ToWorld(sx, sy)
	v.Scale = math.Min(math.Max(v.Scale*factor, minScale), maxScale)
	v.originX, v.originY = sx-wx*v.Scale, sy-wy*v.Scale
	return v
}

// Pan returns the View moved by (dx, dy) pixels.
func (v View) Pan(dx, dy float64) View {
	v.originX += dx
	v.originY += dy
	return v
}

// MapPoint returns world point (wx, wy) as the whole world units of a
// rts.Command, clamped to the map. It is where the screen's floats become
// the integers the simulation gets.
func MapPoint(wx, wy float64) (int16, int16) {
	clamp := func(f float64) int16 {
		if math.IsNaN(f) {
			return 0
		}
		return int16(math.Min(math.Max(math.Floor(f), 0), rts.MapSize-1))
	}
	return clamp(wx), clamp(wy)
}
