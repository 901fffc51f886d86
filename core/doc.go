// Package core is the vocabulary a rollstep game is written in: the Game
// a session steps, the Input values it steps it with and their
// InputStatus, Frame and PlayerHandle, the Effects a Step emits, the
// Events a session raises.
//
// A game implements Game (or wraps a function in GameFunc): Step advances
// the state by one frame from one input per player, in handle order, and
// emits its sounds and particles into Effects instead of playing them.
// Step must be deterministic: it may read only the state and the inputs,
// with no clock, no map iteration order, no floats (use package fixed)
// and no random source outside the state (use state.Rand). The session
// runs Step itself, as often as rollback needs, and tells the game which
// effects are new and which a correction cancelled.
//
// The engine that runs the game (input queues, prediction, rollback,
// confirmation, desync detection) is internal to the module; the root
// package's Session drives it in every mode.
package core
