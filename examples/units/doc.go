// Package units is the demo game of rollstep: a real-time-strategy toy in
// which every player owns a share of up to MaxUnits units and orders them to
// move to points on a square map.
//
// It is small on purpose, and exists to exercise the library the way an RTS
// does: a large state (every unit's position and target in fixed-point), tiny
// inputs (one Order per player per frame), and a step whose cost grows with
// the unit count while the bandwidth a match needs does not. The scenario
// simulator (cmd/rollstep sim) and the benchmarks run it; a game of your own
// follows the same shape:
//
//  1. The whole simulation state is one arena-serializable value, State:
//     fixed-size arrays, fixed.F and fixed.Vec2, a state.Rand for any
//     randomness, explicit padding.
//  2. Game.Step reads only the state and the frame's inputs, in player
//     order, and emits effects (here: a unit arriving) instead of playing
//     them.
//  3. Inputs are made outside the step, by a player or by a Bot, and handed
//     to the engine, which sends them to every peer.
package units
