package lockstep

import "github.com/rollstep/rollstep/core"

// The input log
//
// The engine logs every turn's envelopes once the turn is confirmed, in a
// ring one turn longer than Config.LogRetention: ReadLog of turn f also
// reads turn f-1, whose Counts tell a copy of a command (made when D
// rose) from a new one, exactly as wrapGame does with the Counts of the
// simulated state. Session implements replay.Log, a frame per turn.
//
// Whether the game stepped in a turn is not in the envelopes alone (a
// pause can begin before the log's oldest turn), so wrapGame also records
// it, turn by turn, in a ring (turnLog) that ReadSteps reads.

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
// Otherwise record the Steps of each turn with ReadSteps: the other ticks
// of a turn get the zero I, and a paused turn does not step the game at
// all, which a turn's inputs cannot tell. It returns dst unchanged and
// core.ErrFrameNotLogged for a turn outside LogRange. It does not
// allocate when dst has room for the players' inputs, and works after
// Close too.
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

// ReadSteps appends the inputs of every call of the game's Step in
// confirmed turn f to dst and returns it: one group of Config.Players
// inputs per call, in handle order, the calls in order. That is no group
// for a turn the game was paused in, and Config.TicksPerTurn groups
// otherwise: the first is what ReadLog returns, the others the zero I with
// the same statuses. So, unlike ReadLog's one entry per turn, recording
// one replay frame per group (core/replay's Recorder.Add) for turns 0, 1,
// ... reproduces the match whether or not it was paused and whatever
// TicksPerTurn: a frame of such a replay is one Step of the game, not a
// turn. Whether a turn was paused is the answer of its final simulation,
// the one that confirmed it (in auto mode a predicted turn may be
// simulated again), and does not depend on how much of the match the log
// still holds. It returns dst unchanged and core.ErrFrameNotLogged for a
// turn outside LogRange. It does not allocate when dst has room for
// TicksPerTurn×Players inputs, and works after Close too.
func (s *Session[S, I]) ReadSteps(f core.Frame, dst []core.Input[I]) ([]core.Input[I], error) {
	if start, end := s.LogRange(); f < start || f >= end {
		return dst, core.ErrFrameNotLogged
	}
	ran, ok := s.game.ran.get(f)
	if !ok {
		// Unreachable by construction: the ring covers LogRange and the
		// predicted turns past it.
		return dst, core.ErrFrameNotLogged
	}
	if !ran {
		return dst, nil
	}
	first := len(dst)
	dst, err := s.ReadLog(f, dst)
	if err != nil {
		return dst[:first], err
	}
	n := s.cfg.Players
	for range s.cfg.TicksPerTurn - 1 {
		for p := range n {
			dst = append(dst, core.Input[I]{Status: dst[first+p].Status})
		}
	}
	return dst, nil
}

// turnLog records, for each of the newest turns simulated, whether the
// game's Step ran in it (it was not paused). wrapGame writes turn f's slot,
// f mod len(marks), each time it simulates f, so a re-simulation (auto
// mode) overwrites the answer of a prediction, and a confirmed turn's
// slot holds the answer of the simulation that confirmed it. A slot is
// valid for the turn it names. The ring is as long as the engine's log
// plus the turns predicted past the log's end and one spare, so no turn
// LogRange reports is overwritten; it is empty when the log is.
type turnLog struct {
	marks []turnMark
}

// turnMark is one slot of a turnLog: turn f ran the game's Step if ran.
type turnMark struct {
	f   core.Frame // -1 in a slot never written
	ran bool
}

// newTurnLog returns a turnLog for an engine log of keep turns (0: none)
// and a prediction window of at most window turns.
func newTurnLog(keep, window int) turnLog {
	if keep == 0 {
		return turnLog{}
	}
	l := turnLog{marks: make([]turnMark, keep+window+1)}
	for i := range l.marks {
		l.marks[i].f = -1
	}
	return l
}

// put records whether turn f ran the game's Step.
func (l *turnLog) put(f core.Frame, ran bool) {
	if len(l.marks) > 0 {
		l.marks[int(f)%len(l.marks)] = turnMark{f: f, ran: ran}
	}
}

// get returns whether turn f ran the game's Step; ok is false when the
// ring no longer (or never) held f.
func (l *turnLog) get(f core.Frame) (ran, ok bool) {
	if len(l.marks) == 0 || f < 0 {
		return false, false
	}
	m := l.marks[int(f)%len(l.marks)]
	return m.ran, m.f == f
}
