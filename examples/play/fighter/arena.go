package main

import (
	"fmt"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/vector"
	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/examples/play/internal/duel"
	"github.com/rollstep/rollstep/fixed"
)

// The arena's place on the screen: world units scale by unit pixels, X
// from the left edge and Y up from the ground line.
const (
	unit    = float32(screenW) / fighter.ArenaWidth
	groundY = float32(screenH - 80)
)

var (
	sky        = color.RGBA{24, 26, 38, 255}
	floor      = color.RGBA{58, 52, 60, 255}
	floorLine  = color.RGBA{110, 100, 110, 255}
	bodyColour = [2]color.RGBA{{70, 140, 255, 255}, {255, 90, 74, 255}}
	hurtColour = color.RGBA{255, 255, 255, 255}
	fistColour = color.RGBA{255, 210, 74, 255}
	guard      = color.RGBA{120, 220, 255, 180}
	spark      = color.RGBA{255, 240, 160, 255}
	chip       = color.RGBA{160, 220, 255, 255}
	textShadow = color.RGBA{0, 0, 0, 160}
)

// screenX and screenY map a world position to the screen.
func screenX(x float64) float32 { return float32(x) * unit }
func screenY(y float64) float32 { return groundY - float32(y)*unit }

// lerp is the rendering interpolation of a fixed-point value between two
// frames: it only reads the states, as every renderer must.
func lerp(a, b fixed.F, t float64) float64 { return a.Float64() + (b.Float64()-a.Float64())*t }

// drawArena paints the floor and both fighters, each drawn between its
// place in prev and in cur at fraction t of the frame, with the shown
// player's fighter marked.
func drawArena(dst *ebiten.Image, prev, cur *fighter.State, t float64, you int) {
	dst.Fill(sky)
	vector.DrawFilledRect(dst, 0, groundY, screenW, screenH-groundY, floor, false)
	vector.StrokeLine(dst, 0, groundY, screenW, groundY, 2, floorLine, false)
	for p := range cur.Fighters {
		f, was := &cur.Fighters[p], &prev.Fighters[p]
		x, y := lerp(was.Pos.X, f.Pos.X, t), lerp(was.Pos.Y, f.Pos.Y, t)
		drawFighter(dst, f, p, screenX(x), screenY(y))
		if p == you {
			ebitenutil.DebugPrintAt(dst, "you", int(screenX(x))-8, int(screenY(y)-fighter.StandHeight*unit)-34)
		}
	}
}

// drawFighter paints one fighter with its feet at (x, y): a body whose
// height follows its hurtbox, a head, its guard when blocking and its
// fist during an attack (bright in the active frames, when it can hit).
func drawFighter(dst *ebiten.Image, f *fighter.Fighter, p int, x, y float32) {
	h := float32(fighter.StandHeight) * unit
	if f.Crouching {
		h = float32(fighter.CrouchHeight) * unit
	}
	w := float32(2*fighter.HalfWidth) * unit
	body := bodyColour[p]
	if f.Action == fighter.ActionHitstun && f.Timer%4 < 2 {
		body = hurtColour
	}
	vector.DrawFilledRect(dst, x-w/2+3, groundY-2, w-6, 4, color.RGBA{0, 0, 0, 90}, false) // shadow
	vector.DrawFilledRect(dst, x-w/2, y-h, w, h*0.8, body, false)
	vector.DrawFilledCircle(dst, x, y-h*0.9, w*0.32, body, true)
	face := float32(f.Facing)
	vector.DrawFilledCircle(dst, x+face*w*0.15, y-h*0.92, 2.5, color.RGBA{20, 20, 20, 255}, true)
	switch f.Action {
	case fighter.ActionBlock, fighter.ActionBlockstun:
		vector.StrokeLine(dst, x+face*(w/2+4), y-h, x+face*(w/2+4), y-h*0.2, 4, guard, false)
	case fighter.ActionAttack:
		m := fighter.Move(f.Attack)
		reach, colour := float32(10)*unit, color.RGBA{150, 130, 60, 255}
		if f.Timer >= m.Startup && f.Timer < m.Startup+m.Active {
			reach, colour = float32(22)*unit, fistColour
		}
		arm := y - h*0.6
		if f.Attack == fighter.AttackLow {
			arm = y - h*0.25
		}
		vector.StrokeLine(dst, x, arm, x+face*(w/2+reach), arm, 6, colour, false)
	}
}

// drawEffects paints the sparks of the hits and blocks being played, at
// the defender's body, growing and fading over their lifetime.
func drawEffects(dst *ebiten.Image, cur *fighter.State, live []duel.Playing) {
	for _, e := range live {
		if e.Effect.Kind != fighter.EffectHit && e.Effect.Kind != fighter.EffectBlock {
			continue
		}
		attacker := int(e.Effect.Args[0])
		if attacker != 0 && attacker != 1 {
			continue
		}
		d := &cur.Fighters[1-attacker]
		x := screenX(d.Pos.X.Float64()) - float32(d.Facing)*float32(fighter.HalfWidth)*unit
		y := screenY(d.Pos.Y.Float64()) - float32(fighter.StandHeight)*unit*0.55
		fade := float32(e.Fade())
		c := spark
		if e.Effect.Kind == fighter.EffectBlock {
			c = chip
		}
		c.A = uint8(255 * (1 - fade))
		r := 6 + 26*fade
		for i := range 8 {
			dx, dy := rays[i][0], rays[i][1]
			vector.StrokeLine(dst, x+dx*r*0.4, y+dy*r*0.4, x+dx*r, y+dy*r, 3, c, true)
		}
		vector.DrawFilledCircle(dst, x, y, 8*(1-fade), c, true)
	}
}

// rays are the unit directions of a spark's lines.
var rays = [8][2]float32{{1, 0}, {0.71, 0.71}, {0, 1}, {-0.71, 0.71}, {-1, 0}, {-0.71, -0.71}, {0, -1}, {0.71, -0.71}}

// drawScores paints the health bars, round wins, round clock and, between
// rounds, who won the round.
func drawScores(dst *ebiten.Image, s *fighter.State) {
	const barW, barH, top = 300, 14, 16
	for p, f := range s.Fighters {
		x := float32(20)
		if p == 1 {
			x = screenW - 20 - barW
		}
		vector.DrawFilledRect(dst, x, top, barW, barH, color.RGBA{60, 20, 20, 255}, false)
		left := float32(barW) * float32(f.Health) / fighter.MaxHealth
		fill := x
		if p == 1 {
			fill = x + barW - left
		}
		vector.DrawFilledRect(dst, fill, top, left, barH, bodyColour[p], false)
		vector.StrokeRect(dst, x, top, barW, barH, 1, color.RGBA{220, 220, 220, 255}, false)
		for w := range int(min(f.Wins, 5)) {
			cx := x + 8 + float32(w)*16
			if p == 1 {
				cx = x + barW - 8 - float32(w)*16
			}
			vector.DrawFilledCircle(dst, cx, top+barH+12, 5, fistColour, true)
		}
		label := fmt.Sprintf("P%d  hits %d  blocked %d", p, f.Hits, f.Blocked)
		lx := int(x)
		if p == 1 {
			lx = int(x+barW) - 6*len(label)
		}
		ebitenutil.DebugPrintAt(dst, label, lx, top+barH+20)
	}
	secs := (fighter.RoundFrames - s.RoundFrame + 59) / 60
	big(dst, fmt.Sprintf("%2d", max(secs, 0)), screenW/2-12, top-4, 2)
	ebitenutil.DebugPrintAt(dst, fmt.Sprintf("round %d", s.Round), screenW/2-21, top+barH+16)
	if s.Over > 0 {
		banner(dst, roundResult(s), screenH/2-40, 3)
		if p, ok := s.Winner(); ok {
			banner(dst, fmt.Sprintf("P%d leads %d-%d", p, s.Fighters[p].Wins, s.Fighters[1-p].Wins), screenH/2+10, 2)
		} else {
			banner(dst, fmt.Sprintf("even %d-%d", s.Fighters[0].Wins, s.Fighters[1].Wins), screenH/2+10, 2)
		}
	}
}

// roundResult names the newest round's outcome.
func roundResult(s *fighter.State) string {
	switch s.Last {
	case fighter.ResultPlayer0:
		return "P0 WINS THE ROUND"
	case fighter.ResultPlayer1:
		return "P1 WINS THE ROUND"
	case fighter.ResultDraw:
		return "DRAW"
	}
	return ""
}

// banner paints text centred across the screen at height y, scale times
// the debug font's size, over a shadow.
func banner(dst *ebiten.Image, text string, y, scale int) {
	w := len(text) * 6 * scale
	x := (screenW - w) / 2
	vector.DrawFilledRect(dst, float32(x-8), float32(y-4), float32(w+16), float32(16*scale+4), textShadow, false)
	big(dst, text, x, y, scale)
}

// glyphs is the scratch image banners are printed into before scaling;
// the debug font is 6×16 pixels a character.
var glyphs = ebiten.NewImage(6*64, 16)

// big prints text at (x, y), scale times the debug font's size.
func big(dst *ebiten.Image, text string, x, y, scale int) {
	glyphs.Clear()
	ebitenutil.DebugPrint(glyphs, text)
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Scale(float64(scale), float64(scale))
	op.GeoM.Translate(float64(x), float64(y))
	op.Filter = ebiten.FilterNearest
	dst.DrawImage(glyphs, op)
}
