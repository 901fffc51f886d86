package main

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/rollstep/rollstep/examples/play/rts/internal/skirmish"
)

// squadKeys are the number keys, key 1 first: key k selects squad k+1,
// and key 0 squad 10.
var squadKeys = [skirmish.Squads]ebiten.Key{ebiten.Key1, ebiten.Key2, ebiten.Key3, ebiten.Key4, ebiten.Key5,
	ebiten.Key6, ebiten.Key7, ebiten.Key8, ebiten.Key9, ebiten.Key0}

// panStep is how far an arrow key pans per update, in pixels.
const panStep = 8

// readInput reads the devices once, for the update it is called in.
func readInput(replayMode bool) skirmish.Input {
	var in skirmish.Input
	in.X, in.Y = ebiten.CursorPosition()
	in.LeftPressed = inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft)
	in.LeftReleased = inpututil.IsMouseButtonJustReleased(ebiten.MouseButtonLeft)
	in.RightPressed = inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonRight)
	in.MiddleDown = ebiten.IsMouseButtonPressed(ebiten.MouseButtonMiddle)
	in.Shift = ebiten.IsKeyPressed(ebiten.KeyShift)
	in.AttackMove = ebiten.IsKeyPressed(ebiten.KeyA)
	for k, key := range squadKeys {
		if inpututil.IsKeyJustPressed(key) {
			in.Squad = k + 1
		}
	}
	in.All = inpututil.IsKeyJustPressed(ebiten.KeyE)
	_, in.Wheel = ebiten.Wheel()
	if replayMode {
		in.Pause = inpututil.IsKeyJustPressed(ebiten.KeySpace)
		in.StepForward = inpututil.IsKeyJustPressed(ebiten.KeyPeriod)
		in.StepBack = inpututil.IsKeyJustPressed(ebiten.KeyComma)
		in.JumpBack = inpututil.IsKeyJustPressed(ebiten.KeyArrowLeft)
		in.JumpForward = inpututil.IsKeyJustPressed(ebiten.KeyArrowRight)
		in.Home = inpututil.IsKeyJustPressed(ebiten.KeyHome)
		in.End = inpututil.IsKeyJustPressed(ebiten.KeyEnd)
		in.Faster = inpututil.IsKeyJustPressed(ebiten.KeyArrowUp)
		in.Slower = inpututil.IsKeyJustPressed(ebiten.KeyArrowDown)
		return in
	}
	for _, k := range []struct {
		key    ebiten.Key
		dx, dy float64
	}{{ebiten.KeyArrowLeft, panStep, 0}, {ebiten.KeyArrowRight, -panStep, 0}, {ebiten.KeyArrowUp, 0, panStep}, {ebiten.KeyArrowDown, 0, -panStep}} {
		if ebiten.IsKeyPressed(k.key) {
			in.PanX += k.dx
			in.PanY += k.dy
		}
	}
	return in
}
