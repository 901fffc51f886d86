package replay_test

import (
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/replay"
)

// tally is the small test game's state.
type tally struct {
	Frame  int32
	Total  [4]int32
	Jumps  [4]uint8
	Gone   uint8
	Flying bool
	_      [2]byte
}

// move is the small test game's input.
type move struct {
	Add  int16
	Jump bool
	_    uint8
}

// tallyGame adds each input to its player's total; a nonzero bias makes
// it diverge from frame divergeAt on.
type tallyGame struct {
	divergeAt int32
	bias      int32
}

func (g tallyGame) Step(s *tally, in []core.Input[move], fx core.Effects) {
	for p, i := range in {
		if p >= len(s.Total) {
			break // a fuzzed replay may have more players
		}
		if i.Status == core.InputDisconnected {
			s.Gone |= 1 << p
			continue
		}
		s.Total[p] += int32(i.Value.Add)
		if i.Value.Jump {
			s.Jumps[p]++
			s.Flying = !s.Flying
		}
	}
	if g.bias != 0 && s.Frame >= g.divergeAt {
		s.Total[1] += g.bias
	}
	s.Frame++
}

var tallyHash = core.GameVersion("rollstep replay test tally 1")

// tallyConfig returns a recorder config for players players at 60 frames
// per second.
func tallyConfig(players, n, k int) replay.Config {
	return replay.Config{Game: tallyHash, Players: players, TickRate: 60, Seed: 7, ChecksumInterval: n, KeyframeInterval: k}
}

// tallyInputs returns the inputs of frame f: runs of repeated frames,
// a player who disconnects at frame 70, and jumps.
func tallyInputs(f, players int) []core.Input[move] {
	in := make([]core.Input[move], players)
	for p := range in {
		switch {
		case p == players-1 && players > 1 && f >= 70:
			in[p] = core.Input[move]{Status: core.InputDisconnected}
		case (f/5)%3 == 0:
			in[p] = core.Input[move]{Value: move{}, Status: core.InputConfirmed}
		default:
			in[p] = core.Input[move]{Value: move{Add: int16(f%7 + p), Jump: f%11 == p}, Status: core.InputConfirmed}
		}
	}
	return in
}

// recordTally records frames frames and returns the replay's bytes and the
// state after every frame (states[f] is the state after f steps).
func recordTally(t testing.TB, players, frames, n, k int) ([]byte, []tally) {
	t.Helper()
	r, err := replay.NewRecorder(tallyConfig(players, n, k), core.Game[tally, move](tallyGame{}), &tally{})
	if err != nil {
		t.Fatal(err)
	}
	states := []tally{*r.State()}
	for f := range frames {
		if err := r.Add(tallyInputs(f, players)); err != nil {
			t.Fatal(err)
		}
		states = append(states, *r.State())
	}
	return r.Bytes(), states
}
