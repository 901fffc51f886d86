package rts

import (
	"cmp"
	"fmt"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/replay"
)

// Build identifies this game's simulation: in the lockstep handshake
// (peers of another build are refused instead of desyncing) and in
// replays (a replay of another build is refused instead of diverging).
// Change the string whenever the simulation changes.
var Build = core.GameVersion("rollstep/examples/rts sim 1")

// ReplayKeyframes is the keyframe interval of the replays NewRecorder
// makes, in turns: a minute at the default turn length.
const ReplayKeyframes = 600

// NewRecorder returns a replay recorder for a match of players players
// with turns of period (0: DefaultTurn), from initial:
// a checksum every 10 turns, a keyframe every ReplayKeyframes. The
// recorder steps its own copy of the game, so recording doubles the
// simulation's CPU cost.
func NewRecorder(players int, period time.Duration, seed uint64, initial *State) (*replay.Recorder[State, Command], error) {
	rate := max(1, int(time.Second/cmp.Or(period, DefaultTurn)))
	cfg := replay.Config{Game: Build, Players: players, TickRate: rate, Seed: seed, ChecksumInterval: 10, KeyframeInterval: ReplayKeyframes}
	return replay.NewRecorder(cfg, core.Game[State, Command](Game{}), initial)
}

// Host is Game as one peer's session runs it, plus what the host keeps of
// the match: a copy of the state after tick Last and, when Rec is set, a
// replay. In lockstep every tick is stepped once, with confirmed inputs,
// so recording what Step receives records the match exactly (the inputs
// as the game got them, not as the input log scheduled them). Use a
// *Host as the session's core.Game.
type Host struct {
	// Last is the tick whose state Final keeps.
	Last int32
	// Final is the state after tick Last, once Done.
	Final State
	// Done reports that tick Last has run.
	Done bool
	// Rec, when not nil, records every tick.
	Rec *replay.Recorder[State, Command]
	// Err is the first error of Rec; recording stops at it.
	Err error
}

// Step runs Game.Step, records the tick, and keeps the state after tick
// Last.
func (h *Host) Step(s *State, in []core.Input[Command], fx core.Effects) {
	Game{}.Step(s, in, fx)
	if h.Rec != nil && h.Err == nil {
		if err := h.Rec.Add(in); err != nil {
			h.Err = fmt.Errorf("replay at tick %d: %w", s.Tick, err)
		}
	}
	if s.Tick == h.Last {
		h.Final, h.Done = *s, true
	}
}
