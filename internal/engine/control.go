package engine

import "github.com/rollstep/rollstep/core"

// The control channel
//
// Besides the game's input, every player's slot of every frame carries a
// control word (Control): the match commands the player gave (pause,
// resume, game speed), whether the engine filled the frame when the
// player's D rose, and the player's step-time report. The word is part
// of the slot, so it is scheduled, sent, acknowledged, compared and
// logged exactly like the input, and every peer applies a command at the
// same frame. The control state it drives (paused, speed, frames played)
// is part of the simulated state: saved with it, restored by a rollback
// and checksummed with it, so the game never sees it and a wrong
// prediction of a command is corrected like any other. A prediction
// carries no command and no fill; the step report is not compared (it
// changes pacing, never the state), so a mispredicted report costs no
// re-simulation.

// Slot is one player's slot of one frame as the engine schedules, sends
// and logs it: the game's input and its control word. Transports encode
// it like any input type (it is arena-serializable when I is); games
// never see it.
type Slot[I comparable] struct {
	Control Control // the player's control word for the frame
	Value   I       // the game's input
}

// Control is the control word of a Slot. Its fields are the protocol's;
// only the engine reads and writes them. Every field is a byte or a byte
// array, so it has alignment 1 and size 8 and adds no padding to a Slot
// on any target.
type Control struct {
	flags   uint8    // flagFilled, flagGone
	command uint8    // a command* constant
	arg     [2]uint8 // the command's argument (speed percent), little-endian
	step    [2]uint8 // the player's step-time report, little-endian
	aux     [2]uint8 // a return command's distance back to its handoff frame (rejoin.go)
}

// controlSize is the size of a Control, the bytes a Slot adds to an input.
const controlSize = 8

// Slot flags: flagFilled marks a slot the engine filled when the
// player's D rose; flagGone a slot of a player who was disconnected in
// that frame and came back later (rejoin.go), whose input is
// InputDisconnected.
const (
	flagFilled = 1
	flagGone   = 2
)

// Commands of the control word.
const (
	commandNone uint8 = iota
	commandPause
	commandResume
	commandSpeed
	commandReturn // a disconnected peer comes back (rejoin.go)
)

// maxPendingCommands bounds each local player's commands waiting for an
// input to ride (Pause, Resume, SetSpeed).
const maxPendingCommands = 8

// semantic returns the part of c that changes the simulation: the
// command and the fill flag, not the step report.
func (c Control) semantic() uint32 {
	return uint32(c.flags&flagFilled) | uint32(c.command)<<8 | uint32(c.arg[0])<<16 | uint32(c.arg[1])<<24
}

func le16(b [2]uint8) uint16  { return uint16(b[0]) | uint16(b[1])<<8 }
func put16(v uint16) [2]uint8 { return [2]uint8{uint8(v), uint8(v >> 8)} }
func le32(b [4]uint8) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}
func put32(v uint32) [4]uint8 {
	return [4]uint8{uint8(v), uint8(v >> 8), uint8(v >> 16), uint8(v >> 24)}
}

// matchState is the control state, part of every simulated state (world).
// Its fields are little-endian byte arrays: alignment 1, size 16.
type matchState struct {
	Paused uint8    // 1 while paused
	By     uint8    // the player whose command changed Paused or Speed last
	Speed  [2]uint8 // game speed in percent; 0 means 100
	Since  [4]uint8 // the frame of the latest pause, resume or speed change
	Played [4]uint8 // frames in which the game's Step ran (not paused)
	_      [4]uint8
}

// world is the state the engine simulates, saves and checksums: the
// control state, then the game's state.
type world[S any] struct {
	Match matchState
	Game  S
}

// MatchControl is the control state after the frame before the current
// one: whether the game is paused, its speed, and who changed them last.
type MatchControl struct {
	Paused bool              // the game's Step is not called
	Speed  int               // game speed in percent of normal, MinSpeed..MaxSpeed
	Since  core.Frame        // the frame of the latest change of Paused or Speed
	By     core.PlayerHandle // the player whose command made it
	Played core.Frame        // frames in which the game's Step ran
}

// Control returns the control state of the current state.
func (e *Engine[S, I]) Control() MatchControl { return controlOf(&e.cur.Match) }

// Paused is Control().Paused, and Speed is Control().Speed, without
// building the rest: the session asks for them every frame.
func (e *Engine[S, I]) Paused() bool { return e.cur.Match.Paused != 0 }

// Speed: see Paused.
func (e *Engine[S, I]) Speed() int { return speedOf(&e.cur.Match) }

// speedOf is m's game speed in percent: 0 in the state means 100.
func speedOf(m *matchState) int {
	if v := le16(m.Speed); v != 0 {
		return int(v)
	}
	return 100
}

func controlOf(m *matchState) MatchControl {
	return MatchControl{Paused: m.Paused != 0, Speed: speedOf(m), Since: core.Frame(le32(m.Since)),
		By: core.PlayerHandle(m.By), Played: core.Frame(le32(m.Played))}
}

// Pause queues a command of local player p to pause the game: it rides
// p's next scheduled input, and from that input's frame on every peer
// skips the game's Step (frames still advance, inputs and checksums
// flow). It returns ErrNotLocal, or ErrQueueFull when 8 commands of p
// wait for an input.
func (e *Engine[S, I]) Pause(p core.PlayerHandle) error { return e.command(p, commandPause, 0) }

// Resume queues a command of local player p to resume a paused game, like
// Pause.
func (e *Engine[S, I]) Resume(p core.PlayerHandle) error { return e.command(p, commandResume, 0) }

// SetSpeed queues a command of local player p to set the game speed to
// percent of normal, MinSpeed to MaxSpeed, like Pause. The engine only
// records the speed (Control); the host paces frames by it. It returns
// ErrOutOfRange for a percent outside the range.
func (e *Engine[S, I]) SetSpeed(p core.PlayerHandle, percent int) error {
	if percent < MinSpeed || percent > MaxSpeed {
		return ErrOutOfRange
	}
	return e.command(p, commandSpeed, uint16(percent))
}

func (e *Engine[S, I]) command(p core.PlayerHandle, cmd uint8, arg uint16) error {
	if !e.isLocal(p) {
		return ErrNotLocal
	}
	q := &e.pending[p]
	if q.n == maxPendingCommands {
		return ErrQueueFull
	}
	q.cmds[(q.head+q.n)%maxPendingCommands] = Control{command: cmd, arg: put16(arg)}
	q.n++
	return nil
}

// PendingCommands returns how many commands of local player p wait for an
// input to ride.
func (e *Engine[S, I]) PendingCommands(p core.PlayerHandle) int {
	if !e.isLocal(p) {
		return 0
	}
	return e.pending[p].n
}

// commandQueue is a local player's commands waiting for an input.
type commandQueue struct {
	cmds    [maxPendingCommands]Control
	head, n int
}

// SetStepReport sets the step-time report every later input of local
// player p carries (in units the host chooses): a host that paces frames
// by the slowest peer's step time reads every player's with StepReport.
func (e *Engine[S, I]) SetStepReport(p core.PlayerHandle, v uint16) error {
	if !e.isLocal(p) {
		return ErrNotLocal
	}
	e.report[p] = v
	return nil
}

// StepReport returns player p's step-time report carried by its newest
// input the engine holds (0 before any, once p is disconnected, or for a
// player out of range).
func (e *Engine[S, I]) StepReport(p core.PlayerHandle) uint16 {
	if p < 0 || int(p) >= e.players {
		return 0
	}
	return e.stepOf(int(p))
}

// stepOf is StepReport of player p, in range.
func (e *Engine[S, I]) stepOf(p int) uint16 {
	if n := e.next[p]; n != 0 && (!e.agreed[p] || n < e.goneAt[p]) {
		return le16(e.vals[e.idx(p, n-1)].Control.step)
	}
	return 0 // before any input, or disconnected: a disconnected player paces nothing
}

// SlowestStep returns the largest StepReport of any player: what the
// slowest machine of the match asks the pace to allow.
func (e *Engine[S, I]) SlowestStep() uint16 {
	var m uint16
	for p := range e.players {
		m = max(m, e.stepOf(p))
	}
	return m
}

// applyControl applies the commands of one frame's slots to m, in player
// order, at frame f. A command from the network is checked here, in the
// simulation, so every peer ignores an invalid one alike.
func applyControl(m *matchState, f core.Frame, cmds []Control) {
	for p := range cmds {
		applyCommand(m, f, p, &cmds[p])
	}
}

// applyCommand applies player p's command c at frame f to m and reports
// whether it changed Paused or Speed.
func applyCommand(m *matchState, f core.Frame, p int, c *Control) bool {
	switch c.command {
	case commandPause, commandResume:
		v := uint8(0)
		if c.command == commandPause {
			v = 1
		}
		if m.Paused == v {
			return false
		}
		m.Paused = v
	case commandSpeed:
		s := le16(c.arg)
		if s < MinSpeed || s > MaxSpeed || s == le16(m.Speed) || (s == 100 && le16(m.Speed) == 0) {
			return false
		}
		m.Speed = put16(s)
	default:
		return false
	}
	m.Since, m.By = put32(uint32(f)), uint8(p)
	return true
}

// run simulates frame f on w: it applies the frame's commands, then,
// unless the game is paused, calls the game's Step with in and then
// StepsPerFrame-1 more times with every input's zero value (and the same
// statuses). It reports whether the game's Step ran.
func (e *Engine[S, I]) run(w *world[S], f core.Frame, in []core.Input[I], cmds []Control, fx core.Effects) bool {
	applyControl(&w.Match, f, cmds)
	if w.Match.Paused != 0 {
		return false
	}
	w.Match.Played = put32(le32(w.Match.Played) + 1)
	e.game.Step(&w.Game, in, fx)
	if e.cfg.StepsPerFrame > 1 {
		idle := e.idle[:len(in)]
		for p := range in {
			idle[p] = core.Input[I]{Status: in[p].Status}
		}
		for range e.cfg.StepsPerFrame - 1 {
			e.game.Step(&w.Game, idle, fx)
		}
	}
	return true
}

// confirmControl applies the commands of confirmed frame c to the
// confirmed control state, player by player, and raises a PauseEvent or
// SpeedEvent for each change, naming the player whose command made it, so
// that each is reported once, however often c was simulated.
func (e *Engine[S, I]) confirmControl(c core.Frame) {
	m := &e.confirmedCtl
	for p := 0; p < e.players; p++ {
		cmd := e.controlFor(p, c)
		if cmd.command == commandNone {
			continue
		}
		paused := m.Paused
		if !applyCommand(m, c, p, &cmd) {
			continue
		}
		if m.Paused != paused {
			e.event(core.PauseEvent{Frame: c, Player: core.PlayerHandle(p), Paused: m.Paused != 0})
		} else {
			e.event(core.SpeedEvent{Frame: c, Player: core.PlayerHandle(p), Percent: controlOf(m).Speed})
		}
	}
}
