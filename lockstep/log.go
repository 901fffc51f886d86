package lockstep

import "github.com/rollstep/rollstep/core"

// The input log
//
// The engine logs every turn's envelopes once the turn is confirmed, in a
// ring one turn longer than Config.LogRetention: ReadLog of turn f also
// reads turn f-1, whose Counts tell a copy of a command (made when D
// rose) from a new one, exactly as wrapGame does with the Counts of the
// simulated state. Session implements replay.Log.

// LogRange returns the turns whose inputs the input log holds: start <=
// f < end. Every turn below end is confirmed; end never decreases, and
// turns below start were dropped: the log keeps the newest
// Config.LogRetention turns (or one more). With a zero LogRetention the
// log is empty: start = end = 0. A recorder reads the turns from its
// previous end to the new end after every Update, so that none is
// dropped unread.
func (s *Session[S, I]) LogRange() (start, end core.Frame) {
	start, end = s.eng.LogRange()
	if start > 0 {
		start++ // the engine keeps one turn more: the Counts before start
	}
	return start, end
}

// ReadLog appends the inputs of confirmed turn f, one per player in
// handle order, to dst and returns it: exactly the inputs the game's Step
// got on the turn's first tick. Status is core.InputConfirmed, or
// core.InputDisconnected with the zero value from the agreed disconnect
// turn of a player on. The system channel (Pause, SetSpeed, step times)
// is not in the log, and a command copied into the turns filled when D
// rose appears once, as the game applied it, the copies being the zero I
// (unless Config.HoldInputs: then every turn carries the held input, as
// the game got it). So, when Config.TicksPerTurn is 1 and the game was
// never paused, stepping the initial state with turns 0, 1, ... of the
// log reproduces the match, which is what a replay (core/replay) stores.
// The other ticks of a turn get the zero I (a replay needs a game that
// runs them too), and a paused turn does not step the game at all (the
// log cannot tell it). It returns dst unchanged and core.ErrFrameNotLogged
// for a turn outside LogRange. It does not allocate when dst has room for
// the players' inputs, and works after Close too.
func (s *Session[S, I]) ReadLog(f core.Frame, dst []core.Input[I]) ([]core.Input[I], error) {
	if start, end := s.LogRange(); f < start || f >= end {
		return dst, core.ErrFrameNotLogged
	}
	raw, err := s.eng.ReadLog(f, s.logBuf[:0])
	if err == nil && f > 0 {
		raw, err = s.eng.ReadLog(f-1, raw) // the Counts applied before f
	}
	s.logBuf = raw[:0]
	if err != nil {
		return dst, err
	}
	n := s.cfg.Players
	for p, in := range raw[:n] {
		// The Count of turn f-1 is the Count the game last applied before
		// f: a player's Count grows with each of its non-zero inputs, and
		// a copy repeats the previous turn's envelope.
		var applied [2]uint8 // the initial Count, before turn 0
		if f > 0 {
			applied = raw[n+p].Value.Count
		}
		v := core.Input[I]{Status: in.Status}
		if in.Status != core.InputDisconnected {
			v.Value, _ = gameInput(&in.Value, applied, s.cfg.HoldInputs)
		}
		dst = append(dst, v)
	}
	return dst, nil
}
