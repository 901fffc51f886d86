package main

import "github.com/rollstep/rollstep/examples/fighter"

// The fighter's replays carry fighter.GameID as their game version hash.
func init() { registerReplayGame("examples/fighter", fighter.GameID, fighter.Game{}) }
