package main

import "github.com/rollstep/rollstep/examples/rts"

// The RTS's replays carry rts.Build as their game version hash.
func init() { registerReplayGame("examples/rts", rts.Build, rts.Game{}) }
