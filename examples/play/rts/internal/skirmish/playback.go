package skirmish

import (
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/rts"
	"github.com/rollstep/rollstep/replay"
)

// Playback speeds, in percent of the recorded tick rate.
const (
	MinSpeed, MaxSpeed = 25, 1600
)

// Playback plays a replay file at its tick rate, with pause, single
// steps and seeks. Seeks go through replay.Player.Seek: from the nearest
// keyframe at or before the target (or the initial state) it re-simulates
// with the recorded inputs, so a seek lands on exactly the state playing
// straight through reaches.
type Playback struct {
	rp     *replay.Replay[rts.State, rts.Command]
	player *replay.Player[rts.State, rts.Command]
	prev   rts.State // the state one frame before the player's, for interpolation
	paused bool
	speed  int   // percent of the tick rate
	acc    int   // progress toward the next frame, in units of ups·100 per frame
	ups    int   // the viewer's updates per second
	died   []int // the units that died in the frames the latest Advance stepped
}

// OpenPlayback opens data as a replay of this build of the game, to be
// advanced ups times a second.
func OpenPlayback(data []byte, ups int) (*Playback, error) {
	rp, err := replay.Open[rts.State, rts.Command](data, rts.Build)
	if err != nil {
		return nil, err
	}
	pb := &Playback{rp: rp, player: replay.NewPlayer(rp, core.Game[rts.State, rts.Command](rts.Game{})), speed: 100, ups: max(ups, 1)}
	pb.prev = *pb.player.State()
	return pb, nil
}

// Frames returns the number of frames of the replay.
func (pb *Playback) Frames() core.Frame { return pb.rp.Header().Frames }

// TickRate returns the replay's frames per second.
func (pb *Playback) TickRate() int { return pb.rp.Header().TickRate }

// Frame returns the frame shown: the state after frames 0 to Frame−1.
func (pb *Playback) Frame() core.Frame { return pb.player.Frame() }

// State returns the state shown; do not modify it.
func (pb *Playback) State() *rts.State { return pb.player.State() }

// Prev returns the state one frame before State (State itself just after
// a seek); do not modify it.
func (pb *Playback) Prev() *rts.State { return &pb.prev }

// Paused reports whether the playback is paused (it pauses at the end).
func (pb *Playback) Paused() bool { return pb.paused }

// Speed returns the speed, in percent of the tick rate.
func (pb *Playback) Speed() int { return pb.speed }

// Died returns the units that died in the frames the latest Advance or
// Handle stepped.
func (pb *Playback) Died() []int { return pb.died }

// Fraction returns how far the playback is toward the next frame, in
// [0, 1], for interpolating between Prev and State.
func (pb *Playback) Fraction() float64 {
	if pb.paused || pb.Frame() >= pb.Frames() {
		return 1
	}
	return float64(pb.acc) / float64(pb.ups*100)
}

// Step plays the next frame, noting the units that died in it; it
// reports false at the end.
func (pb *Playback) Step() bool {
	if pb.Frame() >= pb.Frames() {
		return false
	}
	pb.prev = *pb.player.State()
	if !pb.player.Step() {
		return false
	}
	cur := pb.player.State()
	for i := range int(cur.Count) {
		if pb.prev.Units[i].Alive() && !cur.Units[i].Alive() {
			pb.died = append(pb.died, i)
		}
	}
	return true
}

// Seek shows frame f, clamped to the replay. The interpolation restarts
// there (Prev is the state itself).
func (pb *Playback) Seek(f core.Frame) error {
	f = min(max(f, 0), pb.Frames())
	if err := pb.player.Seek(f); err != nil {
		return err
	}
	pb.prev, pb.acc = *pb.player.State(), 0
	return nil
}

// Advance runs one viewer update: unless paused, it adds the time of one
// update at the current speed and steps the frames that became due. It
// returns how many frames it stepped.
func (pb *Playback) Advance() int {
	if pb.paused {
		return 0
	}
	pb.acc += pb.TickRate() * pb.speed
	n := 0
	for pb.acc >= pb.ups*100 {
		pb.acc -= pb.ups * 100
		if !pb.Step() {
			pb.acc, pb.paused = 0, true
			break
		}
		n++
	}
	return n
}

// SetSpeed sets the speed, clamped to MinSpeed..MaxSpeed percent.
func (pb *Playback) SetSpeed(percent int) { pb.speed = min(max(percent, MinSpeed), MaxSpeed) }

// JumpSeconds is how far the jump keys move in a replay.
const JumpSeconds = 10

// Handle applies one update's playback keys, then advances: Space
// pauses or resumes (from the start, at the end), "." steps one frame
// and "," steps one back (both pause), the arrows jump JumpSeconds back
// or forward and change the speed, Home and End seek to the ends. bar is
// the frame a click on the progress bar chose, or −1. It reports whether
// it seeked (the caller then drops its marks of the old frames).
func (pb *Playback) Handle(in Input, bar core.Frame) (seeked bool, err error) {
	pb.died = pb.died[:0]
	jump := core.Frame(JumpSeconds * pb.TickRate())
	seek, seeking := core.Frame(0), true
	switch {
	case bar >= 0:
		seek = bar
	case in.Pause:
		pb.paused = !pb.paused
		seeking = !pb.paused && pb.Frame() >= pb.Frames() // replay from the start
	case in.StepForward:
		pb.paused, seeking = true, false
		pb.Step()
	case in.StepBack:
		pb.paused, seek = true, pb.Frame()-1
	case in.JumpBack:
		seek = pb.Frame() - jump
	case in.JumpForward:
		seek = pb.Frame() + jump
	case in.Home:
		seek = 0
	case in.End:
		seek = pb.Frames()
	case in.Faster:
		pb.SetSpeed(pb.speed * 2)
		seeking = false
	case in.Slower:
		pb.SetSpeed(pb.speed / 2)
		seeking = false
	default:
		seeking = false
	}
	if seeking {
		if err := pb.Seek(seek); err != nil {
			return false, err
		}
	}
	died := append([]int(nil), pb.died...)
	pb.Advance()
	pb.died = append(died, pb.died...)
	return seeking, nil
}

// ProgressFrame returns the frame of a replay of frames frames that a
// click at x seeks to on a progress bar of width pixels starting at left:
// frame 0 at its first pixel, the last frame at its last.
func ProgressFrame(x, left, width int, frames core.Frame) core.Frame {
	x = min(max(x-left, 0), width-1)
	if width <= 1 {
		return 0
	}
	return core.Frame(int64(x) * int64(frames) / int64(width-1))
}
