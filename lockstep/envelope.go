package lockstep

import (
	"github.com/rollstep/rollstep/core"
)

// The session wraps the game's input type I in an envelope and its state
// type S in a world, so that the reserved system channel (pause, game
// speed, step-time reports) rides in the same agreed input stream as the
// game's inputs and its effect is part of the simulated, checksummed state.
// Every field is a byte or a byte array, so the header has alignment 1 and
// a size that is a multiple of 8: wrapping any arena-serializable type adds
// no implicit padding on any target.

// The game speeds a player may set, in percent of normal (SetSpeed).
const (
	minSpeed = 1
	maxSpeed = 1000
)

// Command kinds on the system channel.
const (
	cmdNone   uint8 = iota
	cmdPause        // pause the game from this turn on
	cmdResume       // resume it
	cmdSpeed        // set the game speed to Arg percent
)

// envelope is one player's input for one turn as the engine sees it.
//
// Count counts the player's non-zero inputs. The engine fills the turns
// skipped when D rises with copies of the previous input, and predicts by
// repeating it; a copy of a command repeats its Count, so (for
// command-style inputs) the game gets the zero I instead and a command is
// never applied twice. Seq is the player's system-command counter: a
// command applies when Seq differs from the last one applied for the
// player, so copies never repeat it either. Nothing in the header changes
// from turn to turn unless the player acts, which the wire codec's
// XOR-delta coding makes nearly free.
type envelope[I comparable] struct {
	Cmd   uint8    // the system command the player's Seq stands for
	_     uint8    // padding
	Seq   [2]uint8 // little-endian uint16
	Arg   [2]uint8 // command argument: the speed percent
	Step  [2]uint8 // the player's step time per turn, in units of stepUnit
	Count [2]uint8 // the player's non-zero inputs so far, this one included
	_     [6]uint8 // padding: Input starts 16 bytes in on every target
	Input I        // the game's input
}

// sysState is the system part of the simulated state, identical on every
// peer at every confirmed frame. All multi-byte fields are little-endian
// byte arrays; its size (120) is a multiple of 8.
type sysState struct {
	Seq    [core.MaxPlayers][2]uint8 // last applied command Seq per player
	Count  [core.MaxPlayers][2]uint8 // last applied input Count per player
	Step   [core.MaxPlayers][2]uint8 // newest step-time report per player
	Frame  [4]uint8                  // frames stepped: the frame of the next Step
	Played [4]uint8                  // frames in which the game stepped (not paused)
	Since  [4]uint8                  // frame of the latest pause or speed change
	Speed  [2]uint8                  // game speed in percent; 0 means 100
	Paused uint8                     // 1 while paused
	By     uint8                     // player whose command changed Paused or Speed last
	_      [8]uint8
}

// world is the engine's state: the system part, then the game's state.
type world[S any] struct {
	Sys  sysState // pause, speed, step times: applied by wrapGame
	User S        // the game's state
}

func get16(b [2]uint8) uint16     { return uint16(b[0]) | uint16(b[1])<<8 }
func put16(b *[2]uint8, v uint16) { b[0], b[1] = uint8(v), uint8(v>>8) }
func get32(b [4]uint8) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}
func put32(b *[4]uint8, v uint32) {
	b[0], b[1], b[2], b[3] = uint8(v), uint8(v>>8), uint8(v>>16), uint8(v>>24)
}

// speed returns the game speed in percent.
func (s *sysState) speed() int {
	if v := get16(s.Speed); v != 0 {
		return int(v)
	}
	return 100
}

// wrapGame runs the game's Step TicksPerTurn times per engine frame, with
// the system channel applied first. Unless hold is set, the game gets the
// zero I for copies of a command (see envelope). in is scratch for the unwrapped inputs
// of the first tick; idle holds every player's zero input, for the other
// ticks and for paused frames. ran records, turn by turn, whether the
// game stepped, for Session.ReadSteps.
type wrapGame[S any, I comparable] struct {
	user  core.Game[S, I]
	ticks int
	hold  bool // fills carry the previous input (Config.HoldInputs)
	in    []core.Input[I]
	idle  []core.Input[I]
	ran   turnLog
}

// Step implements core.Game for the world.
func (g *wrapGame[S, I]) Step(w *world[S], inputs []core.Input[envelope[I]], fx *core.Effects) {
	sys := &w.Sys
	f := get32(sys.Frame)
	var zero I
	for p := range inputs {
		env := &inputs[p].Value
		st := inputs[p].Status
		g.in[p] = core.Input[I]{Value: zero, Status: st}
		g.idle[p] = core.Input[I]{Value: zero, Status: st}
		if st == core.InputDisconnected {
			put16(&sys.Step[p], 0)
			continue
		}
		v, fresh := gameInput(env, sys.Count[p], g.hold)
		g.in[p].Value = v
		if fresh {
			sys.Count[p] = env.Count
		}
		sys.Step[p] = env.Step
		if seq := get16(env.Seq); seq != get16(sys.Seq[p]) {
			put16(&sys.Seq[p], seq)
			applyCommand(sys, p, f, env.Cmd, get16(env.Arg))
		}
	}
	put32(&sys.Frame, f+1)
	g.ran.put(core.Frame(f), sys.Paused == 0)
	if sys.Paused != 0 {
		return
	}
	put32(&sys.Played, get32(sys.Played)+1)
	g.user.Step(&w.User, g.in, fx)
	for range g.ticks - 1 {
		g.user.Step(&w.User, g.idle, fx)
	}
}

// gameInput returns the input the game's Step gets from env, a connected
// player's envelope, when applied is the Count of the player's last input
// applied (sysState.Count): env.Input, or the zero I for a copy of a
// command (the same non-zero Count again) unless hold is set. fresh
// reports a command applied now, whose Count becomes the applied one.
// Session.ReadLog uses it too, with the previous turn's Count as applied,
// so the log and the game can never disagree.
func gameInput[I comparable](env *envelope[I], applied [2]uint8, hold bool) (v I, fresh bool) {
	var zero I
	switch {
	case hold || env.Input == zero:
		return env.Input, false
	case env.Count != applied:
		return env.Input, true
	}
	return zero, false
}

// applyCommand applies player p's system command at frame f.
func applyCommand(sys *sysState, p int, f uint32, cmd uint8, arg uint16) {
	switch cmd {
	case cmdPause, cmdResume:
		v := uint8(0)
		if cmd == cmdPause {
			v = 1
		}
		if sys.Paused == v {
			return
		}
		sys.Paused = v
	case cmdSpeed:
		// SetSpeed checks the range locally; a remote peer's command is
		// checked here, in the step, so every peer ignores it alike.
		if arg < minSpeed || arg > maxSpeed || arg == get16(sys.Speed) {
			return
		}
		put16(&sys.Speed, arg)
	default:
		return
	}
	put32(&sys.Since, f)
	sys.By = uint8(p)
}

// predictCommand is the engine's Predictor for command-style inputs: the
// player gives no new command (the header repeats, so a correct
// prediction compares equal to the real input and is not re-simulated).
// State-style inputs (Config.HoldInputs) use core.RepeatLast.
func predictCommand[I comparable](_ core.PlayerHandle, _ core.Frame, last envelope[I], _ core.Frame, _ bool) envelope[I] {
	var zero I
	last.Input = zero
	return last
}
