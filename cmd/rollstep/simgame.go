package main

import (
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/units"
	"github.com/rollstep/rollstep/fixed"
	"github.com/rollstep/rollstep/state"
)

// finalChecksum holds the checksum of a peer's state after the match's
// last game tick. Step records it every time that tick is simulated, so
// once the tick is confirmed the value is that of the confirmed state,
// whatever re-simulations came before.
type finalChecksum struct {
	tick int32 // the number of ticks in the match: State.Frame after the last
	sum  uint64
	ok   bool
}

// recordingGame is the demo game as one peer of the simulator runs it: it
// records the final checksum and, for the peer given -nudge, corrupts
// its own state on purpose.
type recordingGame struct {
	final *finalChecksum
	nudge int32 // the tick after which to nudge the state; -1 for none
}

// Step runs units.Game's step, then applies the nudge and records the
// final checksum when their tick comes. The nudge runs on every
// (re-)simulation of its tick, so a rollback cannot undo it: it stands for
// a real bug in this peer's step.
func (g recordingGame) Step(s *units.State, inputs []core.Input[units.Order], fx core.Effects) {
	units.Game{}.Step(s, inputs, fx)
	if g.nudge >= 0 && s.Frame == g.nudge+1 {
		nudgeState(s)
	}
	if s.Frame == g.final.tick {
		g.final.sum, g.final.ok = state.Checksum(s), true
	}
}

// nudgeState adds one unit (one least significant bit) to one field: the
// first unit's X position, or the arrival count of a match without units.
func nudgeState(s *units.State) {
	if s.Count > 0 {
		s.Units[0].Pos.X += fixed.FromRaw(1)
		return
	}
	s.Arrived++
}

// nudgeFor returns the game tick after which peer i nudges its state in
// mode m, or -1: the last tick of frame (turn) -nudge FRAME.
func (o *simOptions) nudgeFor(i int, m simMode) int32 {
	if o.hasNudge && o.nudge.peer == i {
		t := int32(o.ticks(m))
		return (o.nudge.frame+1)*t - 1
	}
	return -1
}
