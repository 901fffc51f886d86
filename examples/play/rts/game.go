package main

import (
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/play/rts/internal/skirmish"
	"github.com/rollstep/rollstep/examples/rts"
)

// Screen layout, in pixels.
const (
	screenW, screenH = 960, 720
	hudH             = 36 // the status bar at the top
	barH             = 24 // the progress bar at the bottom (replay mode)
	tps              = 60 // updates per second (ebiten's default)
)

// markTicks is how many updates a death mark lasts.
const markTicks = 40

// mark is a unit's death, drawn as a ring that widens and fades.
type mark struct {
	x, y  float64 // world position
	owner int
	born  int // the update it appeared in
}

// viewer is the ebiten.Game: a live match or a replay, the camera, and
// what the screen shows on top of the state.
type viewer struct {
	opts  *options
	match *skirmish.Match    // live mode
	pb    *skirmish.Playback // replay mode
	cmd   skirmish.Commander
	cam   skirmish.View
	lastX int // cursor at the previous update, for middle-button panning
	lastY int
	marks []mark
	ticks int // updates run
	clock func() time.Duration
	shot  bool // the screenshot was saved
	err   error
}

// newViewer returns the viewer of a live match or, when pb is not nil,
// of a replay.
func newViewer(o *options, m *skirmish.Match, pb *skirmish.Playback) *viewer {
	v := &viewer{opts: o, match: m, pb: pb, cmd: skirmish.Commander{Player: skirmish.Human},
		cam: skirmish.FitView(screenW, screenH-hudH-barH, hudH)}
	if o.screenshot != "" {
		// A screenshot run is reproducible: the match's time is the
		// number of updates (60 a second), not the wall clock.
		v.clock = func() time.Duration { return time.Duration(v.ticks) * time.Second / tps }
	} else {
		start := time.Now()
		v.clock = func() time.Duration { return time.Since(start) }
	}
	return v
}

// Update reads the input once, applies it, and advances the match or the
// playback.
func (v *viewer) Update() error {
	if v.shot || v.err != nil {
		return ebiten.Termination
	}
	v.ticks++
	in := v.input()
	v.moveCamera(in)
	if v.pb != nil {
		return v.updateReplay(in)
	}
	return v.updateLive(in)
}

// input reads the devices, or the script with -autoplay.
func (v *viewer) input() skirmish.Input {
	if v.opts.autoplay && v.pb == nil {
		return skirmish.Autoplay(v.ticks, v.cam, v.opts.players())
	}
	return readInput(v.pb != nil)
}

// moveCamera zooms with the wheel and pans with the middle button or the
// arrow keys.
func (v *viewer) moveCamera(in skirmish.Input) {
	if in.Wheel != 0 {
		factor := 1.15
		if in.Wheel < 0 {
			factor = 1 / factor
		}
		v.cam = v.cam.ZoomAt(float64(in.X), float64(in.Y), factor)
	}
	if in.MiddleDown {
		v.cam = v.cam.Pan(float64(in.X-v.lastX), float64(in.Y-v.lastY))
	}
	v.cam = v.cam.Pan(in.PanX, in.PanY)
	v.lastX, v.lastY = in.X, in.Y
}

// updateLive gives the human's orders to the outbox and runs the match.
func (v *viewer) updateLive(in skirmish.Input) error {
	sess := v.match.Session()
	if cmds := v.cmd.Handle(in, v.cam, sess.State()); len(cmds) > 0 {
		v.match.Out.Add(cmds)
	}
	if err := v.match.Update(v.clock()); err != nil {
		return err
	}
	s := sess.State()
	for _, fx := range v.match.Deaths() {
		v.addMark(s, int(fx.Effect.Args[0]))
	}
	v.expireMarks()
	return nil
}

// updateReplay applies the playback keys, the progress bar and the
// selection, then plays the frames due.
func (v *viewer) updateReplay(in skirmish.Input) error {
	bar := core.Frame(-1)
	bx, by, bw, bh := progressBar()
	onBar := in.X >= bx && in.X < bx+bw && in.Y >= by-4 && in.Y < by+bh+4
	if in.LeftPressed && onBar {
		bar = skirmish.ProgressFrame(in.X, bx, bw, v.pb.Frames())
	} else {
		v.cmd.Handle(in, v.cam, v.pb.State()) // selecting shows a group's orders in a replay too
	}
	seeked, err := v.pb.Handle(in, bar)
	if err != nil {
		return err
	}
	if seeked {
		v.marks = v.marks[:0]
	}
	for _, i := range v.pb.Died() {
		v.addMark(v.pb.State(), i)
	}
	v.expireMarks()
	return nil
}

// addMark adds the death mark of unit i of s.
func (v *viewer) addMark(s *rts.State, i int) {
	if i < 0 || i >= int(s.Count) {
		return
	}
	u := &s.Units[i]
	v.marks = append(v.marks, mark{x: u.Pos.X.Float64(), y: u.Pos.Y.Float64(), owner: int(u.Owner), born: v.ticks})
}

// expireMarks forgets the marks older than markTicks.
func (v *viewer) expireMarks() {
	keep := v.marks[:0]
	for _, m := range v.marks {
		if v.ticks-m.born < markTicks {
			keep = append(keep, m)
		}
	}
	v.marks = keep
}

// progressBar returns the rectangle of the progress bar: x, y, width,
// height.
func progressBar() (int, int, int, int) { return 8, screenH - barH + 6, screenW - 16, barH - 10 }

// Layout returns the fixed screen size.
func (v *viewer) Layout(int, int) (int, int) { return screenW, screenH }

// scene returns the states to draw and the fraction between them: the
// session's Previous, State and Fraction, or the playback's. The viewer
// only reads them.
func (v *viewer) scene() (prev, cur *rts.State, frac float64) {
	if v.pb != nil {
		return v.pb.Prev(), v.pb.State(), v.pb.Fraction()
	}
	sess := v.match.Session()
	cur, prev = sess.State(), sess.Previous()
	if prev == nil {
		prev = cur
	}
	return prev, cur, sess.Fraction().Float64()
}
