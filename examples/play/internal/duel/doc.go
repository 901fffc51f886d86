// Package duel is the part of the playable fighter that needs no window:
// it builds the rollstep sessions of a match (two on this machine over a
// simulated link, or one over a real socket), feeds them each frame's
// input once, samples the network history for the overlay, and keeps
// the effects (sounds and hit sparks) the screen is playing, stopping
// those a rollback cancelled.
//
// The command examples/play/fighter draws and plays what it holds; the
// tests here drive the same code on virtual time.
package duel
