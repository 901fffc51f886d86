package match

import (
	"fmt"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/replay"
	"github.com/rollstep/rollstep/state"
)

// ReplayConfig returns the replay configuration of a fighter match seeded
// with seed: the game build, two players at TickRate, a checksum every
// second.
func ReplayConfig(seed uint64) replay.Config {
	return replay.Config{Game: GameID, Players: 2, TickRate: TickRate, Seed: seed, ChecksumInterval: TickRate}
}

// Replay returns a replay of the peer's match: every frame's confirmed
// inputs, recorded by its Recorder. Call it once Done. It checks that the
// replay's final state is the one the session confirmed.
func (p *Peer) Replay(seed uint64) (*replay.Recorder[fighter.State, fighter.Input], error) {
	initial := fighter.New(seed)
	rec, err := replay.NewRecorder[fighter.State, fighter.Input](ReplayConfig(seed), fighter.Game{}, &initial)
	if err != nil {
		return nil, err
	}
	in := make([]core.Input[fighter.Input], 2)
	for f := range p.frames {
		for pl := range in {
			in[pl] = core.Input[fighter.Input]{Value: p.Rec.Inputs[f][pl], Status: core.InputConfirmed}
		}
		if err := rec.Add(in); err != nil {
			return nil, fmt.Errorf("frame %d: %w", f, err)
		}
	}
	if got, want := state.Checksum(rec.State()), state.Checksum(&p.Rec.Last); got != want {
		return nil, fmt.Errorf("replay ends in state %#x, the match in %#x", got, want)
	}
	return rec, nil
}
