package overlay

import (
	"fmt"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/vector"
	"github.com/rollstep/rollstep/examples/play/internal/netstats"
)

// Layout of the window, in screen pixels.
const (
	// Width is the overlay's width; Draw returns its height.
	Width    = 360
	graphH   = 30
	margin   = 4
	lineH    = 16 // the debug font's line height
	labelGap = 14
)

// Colours of the graphs.
var (
	panel    = color.RGBA{0, 0, 0, 170}
	frame    = color.RGBA{90, 90, 90, 255}
	zeroLine = color.RGBA{60, 60, 60, 255}
	lines    = [...]color.RGBA{{90, 200, 255, 255}, {255, 170, 60, 255}, {140, 255, 120, 255}, {255, 100, 200, 255}}
)

// plot is one graph: a title, its series with their colours, and the
// smallest span of its vertical axis (so a quiet graph is not all noise).
type plot struct {
	title   string
	series  []*netstats.Series
	colours []color.RGBA
	span    float64
	signed  bool // the axis is centred on zero
}

// Draw paints the window of h with its top-left corner at (x, y) on dst
// and returns its height.
func Draw(dst *ebiten.Image, h *netstats.History, x, y int) int {
	plots := plotsOf(h)
	height := margin + len(plots)*(graphH+labelGap+margin) + lineH*(netstats.LogLines+1) + margin
	vector.DrawFilledRect(dst, float32(x), float32(y), Width, float32(height), panel, false)
	cy := y + margin
	for _, p := range plots {
		drawPlot(dst, p, x+margin, cy)
		cy += graphH + labelGap + margin
	}
	ebitenutil.DebugPrintAt(dst, fmt.Sprintf("events (rollbacks %d, stall %v)", h.TotalRollbacks, h.TotalStall.Round(1e6)), x+margin, cy)
	for i, line := range h.Log() {
		ebitenutil.DebugPrintAt(dst, line, x+margin, cy+lineH*(i+1))
	}
	return height
}

// plotsOf lists the graphs of h, the per-peer ones with a line per peer.
func plotsOf(h *netstats.History) []plot {
	rtt := plot{title: "RTT ms", span: 20}
	ahead := plot{title: "frames ahead", span: 4, signed: true}
	up := plot{title: "bytes/s up", span: 1000}
	down := plot{title: "bytes/s down", span: 1000}
	for i := range h.Peers {
		c := lines[i%len(lines)]
		g := &h.Peers[i]
		rtt.series, rtt.colours = append(rtt.series, &g.RTT), append(rtt.colours, c)
		ahead.series, ahead.colours = append(ahead.series, &g.Ahead), append(ahead.colours, c)
		up.series, up.colours = append(up.series, &g.Upload), append(up.colours, c)
		down.series, down.colours = append(down.series, &g.Download), append(down.colours, c)
	}
	return []plot{
		rtt, ahead,
		{title: "D (blue) W (orange)", series: []*netstats.Series{&h.Delay, &h.Prediction}, colours: lines[:2], span: 4},
		{title: "rollbacks (blue) depth (orange)", series: []*netstats.Series{&h.Rollbacks, &h.Depth}, colours: lines[:2], span: 4},
		{title: "stall ms", series: []*netstats.Series{&h.Stall}, colours: lines[:1], span: 5},
		up, down,
	}
}

// drawPlot paints one graph with its top-left corner at (x, y).
func drawPlot(dst *ebiten.Image, p plot, x, y int) {
	w := float32(Width - 2*margin)
	top := float32(y + labelGap)
	lo, hi := 0.0, p.span
	for _, s := range p.series {
		hi = max(hi, s.Max())
		if p.signed {
			hi = max(hi, -s.Min())
		}
	}
	hi *= 1.15 // headroom, so a line at the maximum clears the frame
	if p.signed {
		lo = -hi
	}
	yOf := func(v float64) float32 { return top + graphH - float32((v-lo)/(hi-lo))*graphH }
	vector.StrokeRect(dst, float32(x), top, w, graphH, 1, frame, false)
	if p.signed {
		vector.StrokeLine(dst, float32(x), yOf(0), float32(x)+w, yOf(0), 1, zeroLine, false)
	}
	label := p.title
	for i, s := range p.series {
		n := s.Len()
		for j := 1; j < n; j++ {
			x0 := float32(x) + w*float32(netstats.Window-n+j-1)/netstats.Window
			x1 := float32(x) + w*float32(netstats.Window-n+j)/netstats.Window
			vector.StrokeLine(dst, x0, yOf(s.At(j-1)), x1, yOf(s.At(j)), 1, p.colours[i], false)
		}
		label += fmt.Sprintf("  %.0f", s.Last())
	}
	label += fmt.Sprintf("  (max %.0f)", hi/1.15)
	ebitenutil.DebugPrintAt(dst, label, x, y-2)
}
