package main

import (
	"github.com/rollstep/rollstep/examples/units"
	"github.com/rollstep/rollstep/replay"
)

// unitsReplayVersion is the game version hash of examples/units replays.
// replay's farm test records with the same string; change both when
// the units simulation changes on purpose.
var unitsReplayVersion = replay.VersionHash("github.com/rollstep/rollstep/examples/units sim 1")

func init() { registerReplayGame("examples/units", unitsReplayVersion, units.Game{}) }
