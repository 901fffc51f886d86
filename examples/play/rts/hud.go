package main

import (
	"fmt"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"github.com/rollstep/rollstep/examples/play/rts/internal/skirmish"
	"github.com/rollstep/rollstep/examples/rts"
)

// drawHUD draws the status bar (and, in a replay, the progress bar): each
// player's colour and live units, the tick, and the human's selection and
// orders or the playback's position and speed.
func (v *viewer) drawHUD(screen *ebiten.Image, s *rts.State) {
	vector.DrawFilledRect(screen, 0, 0, screenW, hudH, color.RGBA{10, 11, 15, 255}, false)
	x := 8
	for p := range int(s.Players) {
		vector.DrawFilledRect(screen, float32(x), 6, 10, 10, playerColors[p], false)
		label := fmt.Sprintf("%d", s.Alive[p])
		if p == skirmish.Human {
			label += " (you)"
		}
		ebitenutil.DebugPrintAt(screen, label, x+14, 2)
		x += 24 + 7*len(label)
	}
	units := 0
	for i := v.cmd.Player; i < int(s.Count); i += int(s.Players) {
		if s.Units[i].Alive() && v.cmd.Sel.Has(skirmish.GroupOf(i, int(s.Players))) {
			units++
		}
	}
	sel := fmt.Sprintf("selected: %d groups, %d units", v.cmd.Sel.Count(), units)
	if v.pb != nil {
		v.drawProgress(screen)
		state := "playing"
		if v.pb.Paused() {
			state = "paused"
		}
		line := fmt.Sprintf("replay  frame %d/%d  %s at %d%%  |  space pause  , . step  left/right 10s  up/down speed  home/end", v.pb.Frame(), v.pb.Frames(), state, v.pb.Speed())
		ebitenutil.DebugPrintAt(screen, fmt.Sprintf("tick %d  deaths %d  |  %s", s.Tick, s.Deaths, sel), x+8, 2)
		ebitenutil.DebugPrintAt(screen, line, 8, 18)
		return
	}
	st := v.match.Session().Stats()
	ebitenutil.DebugPrintAt(screen, fmt.Sprintf("live lockstep  tick %d  D=%d  stall %.2fs  deaths %d", s.Tick, st.Delay, st.Stall.Seconds(), s.Deaths), x+8, 2)
	ebitenutil.DebugPrintAt(screen, fmt.Sprintf("%s  |  orders queued %d, in flight %d  |  drag/click select, 1-0 squads, E all, right click order, A+right attack-move",
		sel, len(v.match.Out.Queued()), len(v.match.Out.InFlight())), 8, 18)
}

// drawProgress draws the replay's progress bar: the part played filled,
// with a handle at the current frame.
func (v *viewer) drawProgress(screen *ebiten.Image) {
	bx, by, bw, bh := progressBar()
	vector.DrawFilledRect(screen, float32(bx), float32(by), float32(bw), float32(bh), color.RGBA{45, 50, 62, 255}, false)
	frac := 0.0
	if n := v.pb.Frames(); n > 0 {
		frac = float64(v.pb.Frame()) / float64(n)
	}
	w := float32(float64(bw) * frac)
	vector.DrawFilledRect(screen, float32(bx), float32(by), w, float32(bh), color.RGBA{90, 140, 220, 255}, false)
	vector.DrawFilledRect(screen, float32(bx)+w-2, float32(by-3), 4, float32(bh+6), color.White, false)
}
