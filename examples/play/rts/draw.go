package main

import (
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"github.com/rollstep/rollstep/examples/play/rts/internal/skirmish"
	"github.com/rollstep/rollstep/examples/rts"
)

// playerColors are the players' colours, by handle; the human is blue.
var playerColors = [rts.MaxPlayers]color.RGBA{
	{70, 150, 255, 255}, {240, 80, 70, 255}, {90, 210, 90, 255}, {240, 200, 60, 255},
	{200, 100, 230, 255}, {60, 210, 210, 255}, {250, 150, 60, 255}, {220, 220, 220, 255},
}

// Colours of the marks the viewer adds.
var (
	background  = color.RGBA{16, 18, 24, 255}
	mapColor    = color.RGBA{28, 32, 40, 255}
	gridColor   = color.RGBA{40, 45, 56, 255}
	selectColor = color.RGBA{255, 255, 255, 255}
	moveColor   = color.RGBA{255, 230, 120, 255}
	attackColor = color.RGBA{255, 90, 70, 255}
)

// discRadius is the radius of the disc image units are drawn with.
const discRadius = 16

// disc is a white antialiased disc, tinted per unit: one source image, so
// ebiten draws every unit in one batch.
var disc = func() *ebiten.Image {
	img := ebiten.NewImage(2*discRadius, 2*discRadius)
	vector.DrawFilledCircle(img, discRadius, discRadius, discRadius, color.White, true)
	return img
}()

// lerp returns a + (b−a)·t.
func lerp(a, b, t float64) float64 { return a + (b-a)*t }

// unitPos returns unit i's position between prev and cur at frac, in
// world units.
func unitPos(prev, cur *rts.State, i int, frac float64) (float64, float64) {
	p, c := &prev.Units[i].Pos, &cur.Units[i].Pos
	return lerp(p.X.Float64(), c.X.Float64(), frac), lerp(p.Y.Float64(), c.Y.Float64(), frac)
}

// Draw renders the frame and, once -frames updates have run with
// -screenshot, saves it.
func (v *viewer) Draw(screen *ebiten.Image) {
	screen.Fill(background)
	prev, cur, frac := v.scene()
	v.drawMap(screen)
	v.drawUnits(screen, prev, cur, frac)
	v.drawOrders(screen, prev, cur, frac)
	v.drawMarks(screen)
	v.drawDrag(screen)
	v.drawHUD(screen, cur)
	if v.opts.screenshot != "" && !v.shot && v.ticks >= v.opts.frames {
		v.err = saveScreenshot(screen, v.opts.screenshot)
		v.shot = true
	}
}

// drawMap draws the map's area and a grid every 128 world units.
func (v *viewer) drawMap(screen *ebiten.Image) {
	x0, y0 := v.cam.ToScreen(0, 0)
	x1, y1 := v.cam.ToScreen(rts.MapSize, rts.MapSize)
	vector.DrawFilledRect(screen, float32(x0), float32(y0), float32(x1-x0), float32(y1-y0), mapColor, false)
	for w := 128.0; w < rts.MapSize; w += 128 {
		sx, sy := v.cam.ToScreen(w, w)
		vector.StrokeLine(screen, float32(sx), float32(y0), float32(sx), float32(y1), 1, gridColor, false)
		vector.StrokeLine(screen, float32(x0), float32(sy), float32(x1), float32(sy), 1, gridColor, false)
	}
}

// unitRadius returns the radius of a unit on screen, in pixels.
func (v *viewer) unitRadius() float64 { return math.Max(2.5, 2*v.cam.Scale) }

// drawDisc draws a disc of radius r at screen (x, y) in c with alpha a.
func drawDisc(screen *ebiten.Image, x, y, r float64, c color.RGBA, a float32) {
	var op ebiten.DrawImageOptions
	op.GeoM.Translate(-discRadius, -discRadius)
	op.GeoM.Scale(r/discRadius, r/discRadius)
	op.GeoM.Translate(x, y)
	op.ColorScale.ScaleWithColor(c)
	op.ColorScale.ScaleAlpha(a)
	op.Filter = ebiten.FilterLinear
	screen.DrawImage(disc, &op)
}

// drawUnits draws the units: the dead as faint dots, the live as discs
// in their owner's colour (the human's selected ones ringed in white),
// with a health bar when hurt or selected, and a line to the foe of each
// unit that struck in the latest tick.
func (v *viewer) drawUnits(screen *ebiten.Image, prev, cur *rts.State, frac float64) {
	r := v.unitRadius()
	players := int(cur.Players)
	n := int(cur.Count)
	for i := range n {
		u := &cur.Units[i]
		if u.Alive() {
			continue
		}
		x, y := v.cam.ToScreen(unitPos(prev, cur, i, frac))
		drawDisc(screen, x, y, r*0.6, playerColors[u.Owner%rts.MaxPlayers], 0.18)
	}
	for i := range n {
		u := &cur.Units[i]
		if !u.Alive() || int(u.Owner) != v.cmd.Player || !v.cmd.Sel.Has(skirmish.GroupOf(i, players)) {
			continue
		}
		x, y := v.cam.ToScreen(unitPos(prev, cur, i, frac))
		drawDisc(screen, x, y, r+1.5, selectColor, 1)
	}
	for i := range n {
		u := &cur.Units[i]
		if !u.Alive() {
			continue
		}
		x, y := v.cam.ToScreen(unitPos(prev, cur, i, frac))
		drawDisc(screen, x, y, r, playerColors[u.Owner%rts.MaxPlayers], 1)
	}
	for i := range n {
		u := &cur.Units[i]
		if !u.Alive() {
			continue
		}
		x, y := v.cam.ToScreen(unitPos(prev, cur, i, frac))
		if u.Reload == rts.Cooldown && u.Foe > 0 && int(u.Foe) <= n {
			fx, fy := v.cam.ToScreen(unitPos(prev, cur, int(u.Foe-1), frac))
			vector.StrokeLine(screen, float32(x), float32(y), float32(fx), float32(fy), 1, playerColors[u.Owner%rts.MaxPlayers], true)
		}
		selected := int(u.Owner) == v.cmd.Player && v.cmd.Sel.Has(skirmish.GroupOf(i, players))
		if u.HP < rts.MaxHP || selected {
			drawHealth(screen, x, y-r-3, r, u.HP)
		}
	}
}

// drawHealth draws a health bar centred above (x, y), 2r+2 pixels wide.
func drawHealth(screen *ebiten.Image, x, y, r float64, hp int32) {
	w := 2*r + 2
	left := float32(x - w/2)
	frac := math.Max(0, math.Min(1, float64(hp)/rts.MaxHP))
	vector.DrawFilledRect(screen, left, float32(y), float32(w), 2, color.RGBA{60, 0, 0, 255}, false)
	vector.DrawFilledRect(screen, left, float32(y), float32(w*frac), 2, color.RGBA{80, 230, 80, 255}, false)
}

// orderColor returns the colour of an order of kind k.
func orderColor(k rts.Kind) color.RGBA {
	if k == rts.KindAttack {
		return attackColor
	}
	return moveColor
}

// drawOrders draws the human's orders: from each selected unit a line to
// its foe, or to its goal while it is away from it (yellow for a move,
// red for an attack-move); for every order in flight (given to the
// session, not yet applied) a line from each unit of its group to the
// target and a ring on it; for every order still waiting in the outbox a
// square on the target.
func (v *viewer) drawOrders(screen *ebiten.Image, prev, cur *rts.State, frac float64) {
	players, n := int(cur.Players), int(cur.Count)
	me := v.cmd.Player
	for i := me; i < n; i += players {
		u := &cur.Units[i]
		if !u.Alive() || !v.cmd.Sel.Has(skirmish.GroupOf(i, players)) {
			continue
		}
		x, y := v.cam.ToScreen(unitPos(prev, cur, i, frac))
		switch {
		case u.Foe > 0 && int(u.Foe) <= n:
			fx, fy := v.cam.ToScreen(unitPos(prev, cur, int(u.Foe-1), frac))
			vector.StrokeLine(screen, float32(x), float32(y), float32(fx), float32(fy), 1, withAlpha(attackColor, 140), true)
		case u.Goal.Sub(u.Pos).LengthSq() > rts.ArriveRadius.Mul(rts.ArriveRadius):
			c := withAlpha(attackColor, 110) // an attack-move: it fights what it meets
			if u.Flags&rts.FlagMoving != 0 {
				c = withAlpha(moveColor, 90)
			}
			gx, gy := v.cam.ToScreen(u.Goal.X.Float64(), u.Goal.Y.Float64())
			vector.StrokeLine(screen, float32(x), float32(y), float32(gx), float32(gy), 1, c, true)
		}
	}
	if v.match == nil {
		return
	}
	pulse := 0.5 + 0.5*math.Sin(float64(v.ticks)/5)
	for _, o := range v.match.Out.InFlight() {
		c := orderColor(o.Cmd.Kind)
		tx, ty := v.cam.ToScreen(float64(o.Cmd.X)+0.5, float64(o.Cmd.Y)+0.5)
		for r := int(o.Cmd.Group); ; r += rts.Groups {
			i := me + r*players
			if i >= n {
				break
			}
			if cur.Units[i].Alive() {
				x, y := v.cam.ToScreen(unitPos(prev, cur, i, frac))
				vector.StrokeLine(screen, float32(x), float32(y), float32(tx), float32(ty), 1.5, withAlpha(c, 200), true)
			}
		}
		vector.StrokeCircle(screen, float32(tx), float32(ty), float32(6+4*pulse), 2, c, true)
	}
	for _, q := range v.match.Out.Queued() {
		tx, ty := v.cam.ToScreen(float64(q.X)+0.5, float64(q.Y)+0.5)
		vector.StrokeRect(screen, float32(tx-5), float32(ty-5), 10, 10, 1.5, withAlpha(orderColor(q.Kind), 160), true)
	}
}

// withAlpha returns c at opacity a (premultiplied, as ebiten wants).
func withAlpha(c color.RGBA, a uint8) color.RGBA {
	f := float64(a) / 255
	return color.RGBA{uint8(float64(c.R) * f), uint8(float64(c.G) * f), uint8(float64(c.B) * f), a}
}

// drawMarks draws each death as a ring in the dead unit's colour that
// widens and fades over markTicks updates.
func (v *viewer) drawMarks(screen *ebiten.Image) {
	for _, m := range v.marks {
		age := float64(v.ticks-m.born) / markTicks
		x, y := v.cam.ToScreen(m.x, m.y)
		a := uint8(255 * (1 - age))
		vector.StrokeCircle(screen, float32(x), float32(y), float32(v.unitRadius()*(1+3*age)), 1.5, withAlpha(playerColors[m.owner%rts.MaxPlayers], a), true)
		vector.StrokeLine(screen, float32(x-3), float32(y-3), float32(x+3), float32(y+3), 1, withAlpha(selectColor, a), true)
		vector.StrokeLine(screen, float32(x-3), float32(y+3), float32(x+3), float32(y-3), 1, withAlpha(selectColor, a), true)
	}
}

// drawDrag draws the selection box while the left button is held.
func (v *viewer) drawDrag(screen *ebiten.Image) {
	if !v.cmd.Dragging {
		return
	}
	x0, y0 := float32(min(v.cmd.DragX, v.lastX)), float32(min(v.cmd.DragY, v.lastY))
	x1, y1 := float32(max(v.cmd.DragX, v.lastX)), float32(max(v.cmd.DragY, v.lastY))
	vector.DrawFilledRect(screen, x0, y0, x1-x0, y1-y0, withAlpha(selectColor, 30), false)
	vector.StrokeRect(screen, x0, y0, x1-x0, y1-y0, 1, selectColor, false)
}
