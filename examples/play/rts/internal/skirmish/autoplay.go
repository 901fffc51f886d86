package skirmish

import (
	"github.com/rollstep/rollstep/examples/rts"
)

// Updates at which the autoplay script acts (60 a second).
const (
	autoDragStart = 30  // left button down at the corner of a box around the Human's base
	autoDragEnd   = 36  // released at the opposite corner: the groups in the box
	autoMove      = 40  // right click on the map's centre: a move order
	autoSquad     = 80  // key 3: squad 3
	autoAttack    = 84  // A + right click on the next player's base: an attack-move
	autoBoxHalf   = 100 // half the side of the box, in world units
)

// Autoplay returns the scripted input of update tick, which stands in
// for the Human's hands with -autoplay: it drag-selects the units around
// the Human's base, sends them to the centre of the map, then selects
// squad 3 and attack-moves it onto the next player's base. The cursor
// positions come from v, so the script clicks where a person would.
func Autoplay(tick int, v View, players int) Input {
	base := rts.Base(Human, players)
	bx, by := base.X.Float64(), base.Y.Float64()
	at := func(wx, wy float64) (int, int) {
		sx, sy := v.ToScreen(wx, wy)
		return int(sx), int(sy)
	}
	var in Input
	in.X, in.Y = at(rts.MapSize/2, rts.MapSize/2)
	switch tick {
	case autoDragStart:
		in.X, in.Y = at(bx-autoBoxHalf, by-autoBoxHalf)
		in.LeftPressed = true
	case autoDragEnd:
		in.X, in.Y = at(bx+autoBoxHalf, by+autoBoxHalf)
		in.LeftReleased = true
	case autoMove:
		in.RightPressed = true
	case autoSquad:
		in.Squad = 3
	case autoAttack:
		enemy := rts.Base((Human+1)%players, players)
		in.X, in.Y = at(enemy.X.Float64(), enemy.Y.Float64())
		in.RightPressed, in.AttackMove = true, true
	}
	return in
}
