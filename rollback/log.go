package rollback

import "github.com/rollstep/rollstep/core"

// The input log
//
// The engine logs every frame's inputs once the frame is confirmed (every
// player's input for it is known, so it is never simulated again). The
// log is a ring of Config.LogRetention frames (more with spectators, whose
// stream reads it too); the host drains it into a replay.Recorder after
// each Update. Session implements replay.Log.

// LogRange returns the frames whose inputs the input log holds: start <=
// f < end. Every frame below end is confirmed; end never decreases, and
// frames below start were dropped because the log keeps only
// Config.LogRetention frames (or what the spectator stream needs, if
// more). With a zero LogRetention and no spectators the log is empty:
// start = end = 0. A recorder reads the frames from its previous end to
// the new end after every Update, so that none is dropped unread.
func (s *Session[S, I]) LogRange() (start, end core.Frame) { return s.eng.LogRange() }

// ReadLog appends the inputs of confirmed frame f, one per player in
// handle order, to dst and returns it. They are exactly the inputs the
// game's Step got in the frame's final simulation (the one State shows):
// a remote player's real input, never a prediction, with status
// core.InputConfirmed, or the zero value with core.InputDisconnected
// from the agreed disconnect frame of a player on (see
// core.DisconnectEvent). So stepping the initial state with the frames
// 0, 1, ... of the log reproduces the match, which is what a replay
// (core/replay) stores. It returns dst unchanged and
// core.ErrFrameNotLogged for a frame outside LogRange. It does not
// allocate when dst has room for the players' inputs, and works after
// Close too.
func (s *Session[S, I]) ReadLog(f core.Frame, dst []core.Input[I]) ([]core.Input[I], error) {
	return s.eng.ReadLog(f, dst)
}

// ReadSteps appends the inputs of every call of the game's Step in
// confirmed frame f to dst and returns it: no group of Config.Players
// inputs for a frame the game was paused in (see Pause), one otherwise,
// which is what ReadLog returns. So, recording one replay frame per group
// for frames 0, 1, ... reproduces the match however it was paused. It
// returns dst unchanged and core.ErrFrameNotLogged for a frame outside
// LogRange.
func (s *Session[S, I]) ReadSteps(f core.Frame, dst []core.Input[I]) ([]core.Input[I], error) {
	return s.eng.ReadSteps(f, dst)
}
