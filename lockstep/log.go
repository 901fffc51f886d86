package lockstep

import "github.com/rollstep/rollstep/core"

// The input log
//
// The engine logs every turn's inputs once the turn is confirmed, in a
// ring of Config.LogRetention turns. Session implements replay.Log, a
// frame per turn; ReadSteps gives a frame per call of the game's Step.

// LogRange returns the turns whose inputs the input log holds: start <=
// f < end. Every turn below end is confirmed; end never decreases, and
// turns below start were dropped: the log keeps the newest
// Config.LogRetention turns. With a zero LogRetention the log is empty:
// start = end = 0. A recorder reads the turns from its previous end to
// the new end after every Update, so that none is dropped unread.
func (s *Session[S, I]) LogRange() (start, end core.Frame) { return s.eng.LogRange() }

// ReadLog appends the inputs of confirmed turn f, one per player in
// handle order, to dst and returns it: exactly the inputs the game's Step
// got on the turn's first tick. Status is core.InputConfirmed,
// core.InputFilled for a turn the engine filled when D rose (the zero I,
// unless Config.HoldInputs: then the held input), or
// core.InputDisconnected with the zero value from the agreed disconnect
// turn of a player on. So, when Config.TicksPerTurn is 1 and the game was
// never paused, stepping the initial state with turns 0, 1, ... of the
// log reproduces the match, which is what a replay (core/replay) stores;
// otherwise record ReadSteps. It returns dst unchanged and
// core.ErrFrameNotLogged for a turn outside LogRange. It does not
// allocate when dst has room for the players' inputs, and works after
// Close too.
func (s *Session[S, I]) ReadLog(f core.Frame, dst []core.Input[I]) ([]core.Input[I], error) {
	return s.eng.ReadLog(f, dst)
}

// ReadSteps appends the inputs of every call of the game's Step in
// confirmed turn f to dst and returns it: one group of Config.Players
// inputs per call, in handle order, the calls in order. That is no group
// for a turn the game was paused in, and Config.TicksPerTurn groups
// otherwise: the first is what ReadLog returns, the others the zero I with
// the same statuses. So, unlike ReadLog's one entry per turn, recording
// one replay frame per group (core/replay's Recorder.Add) for turns 0, 1,
// ... reproduces the match whether or not it was paused and whatever
// TicksPerTurn: a frame of such a replay is one Step of the game, not a
// turn. It returns dst unchanged and core.ErrFrameNotLogged for a turn
// outside LogRange. It does not allocate when dst has room for
// TicksPerTurn×Players inputs, and works after Close too.
func (s *Session[S, I]) ReadSteps(f core.Frame, dst []core.Input[I]) ([]core.Input[I], error) {
	return s.eng.ReadSteps(f, dst)
}
