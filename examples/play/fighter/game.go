package main

import (
	"fmt"
	"image"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/examples/play/internal/duel"
	"github.com/rollstep/rollstep/examples/play/internal/overlay"
	"github.com/rollstep/rollstep/examples/play/internal/pngfile"
)

// The screen's logical size and the game loop's rate. The loop runs at
// twice the match's 60 Hz so that the session's pacer, not the loop's
// phase, decides when frames run; Draw interpolates between them.
const (
	screenW, screenH = 960, 540
	renderRate       = 120
)

// game is the ebiten.Game: it reads the keys once per loop iteration,
// hands them to the match, and draws the shown session's state.
type game struct {
	// d is the match, nil until connect returned it; opened receives
	// connect's result, which may take a while (a lobby waiting for the
	// other player), while the window shows that it waits.
	d       *duel.Duel
	opened  chan opened
	o       *options
	start   time.Time
	overlay bool
	// ended is the reason the shown session stopped, once it has.
	ended string
	// shotErr is the error of saving the -screenshot file, if any; shot
	// reports the screenshot was taken and the game should end.
	shotErr error
	shot    bool
	// openErr is why the match could not be opened.
	openErr error
}

// opened is the result of opening the match.
type opened struct {
	d   *duel.Duel
	err error
}

// newGame returns the game, which opens its match with connect in the
// background.
func newGame(o *options, connect func() (*duel.Duel, error)) *game {
	g := &game{o: o, overlay: o.overlay, opened: make(chan opened, 1)}
	go func() {
		d, err := connect()
		g.opened <- opened{d, err}
	}()
	return g
}

// Update runs one iteration of the game loop.
func (g *game) Update() error {
	if g.shot || inpututil.IsKeyJustPressed(ebiten.KeyEscape) {
		return ebiten.Termination
	}
	if g.d == nil {
		select {
		case r := <-g.opened:
			if r.err != nil {
				g.openErr = r.err
				return r.err
			}
			g.d, g.start = r.d, time.Now()
		default:
			return nil
		}
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyF1) || inpututil.IsKeyJustPressed(ebiten.KeyTab) {
		g.overlay = !g.overlay
	}
	g.d.Effects.Age()
	if g.ended != "" {
		return nil
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyP) {
		g.togglePause()
	}
	err := g.d.Update(time.Since(g.start), readKeys(g.o.vs == "human"))
	report(g.d.View())
	switch s := g.d.View(); {
	case err != nil:
		g.ended = "match over: " + err.Error()
	case s.Ended():
		g.ended = fmt.Sprintf("match over at frame %d", s.Frame())
	}
	return nil
}

// togglePause asks the shown seat's session to pause or resume the match:
// a command every peer applies at the same frame.
func (g *game) togglePause() {
	seat := g.d.Seats[g.d.Shown]
	if seat.Session.Stats().Paused {
		_ = seat.Session.Resume(seat.Player)
	} else {
		_ = seat.Session.Pause(seat.Player)
	}
}

// err returns what ended the game with an error: the match could not be
// opened, or the screenshot not saved.
func (g *game) err() error {
	if g.openErr != nil {
		return g.openErr
	}
	return g.shotErr
}

// close closes the match, if it is open (one still opening has no peer
// to tell).
func (g *game) close() {
	if g.d != nil {
		g.d.Close()
	}
}

// Draw paints the arena, the effects, the scores and, if shown, the
// network overlay; with -screenshot it saves the screen at frame -frames.
func (g *game) Draw(screen *ebiten.Image) {
	if g.d == nil {
		screen.Fill(sky)
		banner(screen, "connecting...", screenH/2, 2)
		return
	}
	s := g.d.View()
	drawArena(screen, s.Previous(), s.State(), s.Fraction().Float64(), int(g.d.Seats[g.d.Shown].Player))
	drawEffects(screen, s.State(), g.d.Effects.Live)
	drawScores(screen, s.State())
	st := s.Stats()
	switch {
	case g.ended != "":
		banner(screen, g.ended, screenH-60, 2)
	case !st.Started:
		banner(screen, "waiting for the other player...", screenH/2, 2)
	case st.Paused:
		banner(screen, "PAUSED (P resumes)", screenH/2, 3)
	}
	if g.overlay {
		overlay.Draw(screen, g.d.History, screenW-overlay.Width-4, 76)
	}
	if g.o.screenshot != "" && !g.shot && int(s.Frame()) >= g.o.frames {
		g.shotErr, g.shot = savePNG(screen, g.o.screenshot), true
	}
}

// Layout fixes the logical screen; Ebitengine scales it to the window.
func (g *game) Layout(int, int) (int, int) { return screenW, screenH }

// savePNG writes the screen to path.
func savePNG(screen *ebiten.Image, path string) error {
	img := image.NewRGBA(screen.Bounds())
	screen.ReadPixels(img.Pix)
	return pngfile.Write(path, img)
}

// keySet maps a player's keys to buttons.
type keySet struct {
	keys    []ebiten.Key
	buttons []fighter.Buttons
}

var (
	leftHand = keySet{
		keys:    []ebiten.Key{ebiten.KeyA, ebiten.KeyD, ebiten.KeyW, ebiten.KeyS, ebiten.KeyF, ebiten.KeyG},
		buttons: []fighter.Buttons{fighter.Left, fighter.Right, fighter.Up, fighter.Down, fighter.Attack, fighter.Block},
	}
	rightHand = keySet{
		keys:    []ebiten.Key{ebiten.KeyArrowLeft, ebiten.KeyArrowRight, ebiten.KeyArrowUp, ebiten.KeyArrowDown, ebiten.KeyK, ebiten.KeyL},
		buttons: []fighter.Buttons{fighter.Left, fighter.Right, fighter.Up, fighter.Down, fighter.Attack, fighter.Block},
	}
	soloExtra = keySet{
		keys:    []ebiten.Key{ebiten.KeyArrowLeft, ebiten.KeyArrowRight, ebiten.KeyArrowUp, ebiten.KeyArrowDown, ebiten.KeyZ, ebiten.KeyX},
		buttons: []fighter.Buttons{fighter.Left, fighter.Right, fighter.Up, fighter.Down, fighter.Attack, fighter.Block},
	}
)

// held returns the buttons of k held now.
func (k keySet) held() fighter.Buttons {
	var b fighter.Buttons
	for i, key := range k.keys {
		if ebiten.IsKeyPressed(key) {
			b |= k.buttons[i]
		}
	}
	return b
}

// readKeys returns what each player holds: with two people at the
// keyboard, the left hand's keys are player 0's and the right's player
// 1's; alone, both sets are yours (the match hands them to your seat,
// whichever player it is).
func readKeys(twoPeople bool) [2]fighter.Input {
	if twoPeople {
		return [2]fighter.Input{{Buttons: leftHand.held()}, {Buttons: rightHand.held()}}
	}
	you := fighter.Input{Buttons: leftHand.held() | soloExtra.held()}
	return [2]fighter.Input{you, you}
}
