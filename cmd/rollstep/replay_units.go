package main

import (
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/units"
)

// unitsReplayVersion is the game version hash of examples/units replays.
// replay's farm test records with the same string; change both when
// the units simulation changes on purpose.
var unitsReplayVersion = core.GameVersion("github.com/rollstep/rollstep/examples/units sim 1")

func init() { registerReplayGame("examples/units", unitsReplayVersion, units.Game{}) }
