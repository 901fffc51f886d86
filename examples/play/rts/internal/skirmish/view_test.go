package skirmish

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/examples/rts"
)

// TestFitViewShowsTheWholeMap checks that the fitted view puts the map's
// corners inside the area, centred, and that toWorld inverts toScreen.
func TestFitViewShowsTheWholeMap(t *testing.T) {
	v := FitView(960, 660, 36)
	x0, y0 := v.ToScreen(0, 0)
	x1, y1 := v.ToScreen(rts.MapSize, rts.MapSize)
	require.InDelta(t, 36, y0, 1e-9)
	require.InDelta(t, 36+660, y1, 1e-9)
	require.InDelta(t, 960-x1, x0, 1e-9, "centred horizontally")
	for _, p := range [][2]float64{{0, 0}, {512, 300}, {1023.5, 1}} {
		sx, sy := v.ToScreen(p[0], p[1])
		wx, wy := v.ToWorld(sx, sy)
		require.InDelta(t, p[0], wx, 1e-9)
		require.InDelta(t, p[1], wy, 1e-9)
	}
}

// TestZoomKeepsTheCursorPoint checks that zooming keeps the world point
// under the cursor there, within the zoom bounds.
func TestZoomKeepsTheCursorPoint(t *testing.T) {
	v := FitView(960, 660, 36)
	wx, wy := v.ToWorld(300, 200)
	z := v.ZoomAt(300, 200, 2)
	require.InDelta(t, 2*v.Scale, z.Scale, 1e-12)
	gx, gy := z.ToWorld(300, 200)
	require.InDelta(t, wx, gx, 1e-9)
	require.InDelta(t, wy, gy, 1e-9)
	for range 100 {
		z = z.ZoomAt(1, 1, 2)
	}
	require.Equal(t, float64(maxScale), z.Scale)
}

// TestMapPointClamps checks the conversion of a world point to a
// command's integers: floored, and clamped to the map.
func TestMapPointClamps(t *testing.T) {
	for _, c := range []struct {
		wx, wy float64
		x, y   int16
	}{{10.9, 20.1, 10, 20}, {-5, 2000, 0, rts.MapSize - 1}, {1023.99, 0, 1023, 0}} {
		x, y := MapPoint(c.wx, c.wy)
		require.Equal(t, [2]int16{c.x, c.y}, [2]int16{x, y}, "%v,%v", c.wx, c.wy)
	}
}

// TestProgressFrame checks the progress bar's mapping: its first pixel
// seeks to frame 0, its last to the last frame, its middle to the middle,
// and clicks past either end to that end.
func TestProgressFrame(t *testing.T) {
	const left, width = 8, 945
	require.EqualValues(t, 0, ProgressFrame(left, left, width, 600))
	require.EqualValues(t, 600, ProgressFrame(left+width-1, left, width, 600))
	require.EqualValues(t, 300, ProgressFrame(left+(width-1)/2, left, width, 600))
	require.EqualValues(t, 0, ProgressFrame(0, left, width, 600))
	require.EqualValues(t, 600, ProgressFrame(5000, left, width, 600))
}
