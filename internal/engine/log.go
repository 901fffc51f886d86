package engine

import "github.com/rollstep/rollstep/core"

// inputLog keeps the inputs of the newest keep confirmed frames: frame f's
// inputs are buf[(f mod keep)*players ...], their slots (with the control
// words) in slots at the same index, and whether the game's Step ran in
// ran[f mod keep], valid for start <= f < end.
type inputLog[I comparable] struct {
	keep, players int
	start, end    core.Frame
	buf           []core.Input[I]
	slots         []Slot[I]
	ran           []bool
}

func newInputLog[I comparable](keep, players int) inputLog[I] {
	return inputLog[I]{keep: keep, players: players, buf: make([]core.Input[I], keep*players),
		slots: make([]Slot[I], keep*players), ran: make([]bool, keep)}
}

// row starts the entry of confirmed frame f, whose game Step ran or not,
// and returns its inputs and slots, one per player, for the caller to
// fill (the engine, without an indirect call per player).
func (l *inputLog[I]) row(f core.Frame, ran bool) ([]core.Input[I], []Slot[I]) {
	base := int(f) % l.keep * l.players
	l.ran[int(f)%l.keep] = ran
	l.end = f + 1
	if l.end-l.start > core.Frame(l.keep) {
		l.start = l.end - core.Frame(l.keep)
	}
	return l.buf[base : base+l.players], l.slots[base : base+l.players]
}

// LogRange returns the frames the input log holds: start <= f < end. Every
// frame below end is confirmed; frames below start were dropped because
// Config.LogRetention is exceeded. A replay recorder reads the frames
// from its previous end to the new end after each Advance.
func (e *Engine[S, I]) LogRange() (start, end core.Frame) { return e.log.start, e.log.end }

// ReadLog appends the confirmed inputs of frame f, one per player in handle
// order, to dst and returns it. Statuses are InputConfirmed or
// InputDisconnected. It returns ErrFrameNotLogged for a frame outside
// LogRange.
func (e *Engine[S, I]) ReadLog(f core.Frame, dst []core.Input[I]) ([]core.Input[I], error) {
	l := &e.log
	if l.keep == 0 || f < l.start || f >= l.end {
		return dst, ErrFrameNotLogged
	}
	base := int(f) % l.keep * l.players
	return append(dst, l.buf[base:base+l.players]...), nil
}

// ReadSteps appends the inputs of every call of the game's Step in
// confirmed frame f to dst and returns it: one group of Config.Players
// inputs per call, in handle order. That is no group when the game was
// paused in f, and Config.StepsPerFrame groups otherwise: the first is
// what ReadLog returns, the others the zero values with the same
// statuses. So, recording one replay frame per group for frames 0, 1, ...
// reproduces the match whether or not it was paused and whatever
// StepsPerFrame. It returns dst unchanged and ErrFrameNotLogged for a
// frame outside LogRange.
func (e *Engine[S, I]) ReadSteps(f core.Frame, dst []core.Input[I]) ([]core.Input[I], error) {
	l := &e.log
	if l.keep == 0 || f < l.start || f >= l.end {
		return dst, ErrFrameNotLogged
	}
	if !l.ran[int(f)%l.keep] {
		return dst, nil
	}
	base := int(f) % l.keep * l.players
	row := l.buf[base : base+l.players]
	dst = append(dst, row...)
	for range e.cfg.StepsPerFrame - 1 {
		for p := range row {
			dst = append(dst, core.Input[I]{Status: row[p].Status})
		}
	}
	return dst, nil
}

// ReadSlots appends the slots of confirmed frame f, one per player in
// handle order, to dst and returns it: the inputs with their control
// words as the players sent them, for a host that relays the match (a
// spectator stream). A disconnected player's slot is the zero Slot. It
// returns dst unchanged and ErrFrameNotLogged for a frame outside
// LogRange.
func (e *Engine[S, I]) ReadSlots(f core.Frame, dst []Slot[I]) ([]Slot[I], error) {
	l := &e.log
	if l.keep == 0 || f < l.start || f >= l.end {
		return dst, ErrFrameNotLogged
	}
	base := int(f) % l.keep * l.players
	return append(dst, l.slots[base:base+l.players]...), nil
}
