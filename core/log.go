package core

// inputLog keeps the inputs of the newest keep confirmed frames: frame f's
// inputs are buf[(f mod keep)*players ...], valid for start <= f < end.
type inputLog[I comparable] struct {
	keep, players int
	start, end    Frame
	buf           []Input[I]
}

func newInputLog[I comparable](keep, players int) inputLog[I] {
	return inputLog[I]{keep: keep, players: players, buf: make([]Input[I], keep*players)}
}

func (l *inputLog[I]) append(f Frame, src interface{ inputFor(int, Frame) Input[I] }) {
	base := int(f) % l.keep * l.players
	for p := 0; p < l.players; p++ {
		l.buf[base+p] = src.inputFor(p, f)
	}
	l.end = f + 1
	if l.end-l.start > Frame(l.keep) {
		l.start = l.end - Frame(l.keep)
	}
}

// LogRange returns the frames the input log holds: start <= f < end. Every
// frame below end is confirmed; frames below start were dropped because
// Config.LogRetention is exceeded. A replay recorder reads the frames
// from its previous end to the new end after each Advance.
func (e *Engine[S, I]) LogRange() (start, end Frame) { return e.log.start, e.log.end }

// ReadLog appends the confirmed inputs of frame f, one per player in handle
// order, to dst and returns it. Statuses are InputConfirmed or
// InputDisconnected. It returns ErrFrameNotLogged for a frame outside
// LogRange.
func (e *Engine[S, I]) ReadLog(f Frame, dst []Input[I]) ([]Input[I], error) {
	l := &e.log
	if l.keep == 0 || f < l.start || f >= l.end {
		return dst, ErrFrameNotLogged
	}
	base := int(f) % l.keep * l.players
	return append(dst, l.buf[base:base+l.players]...), nil
}
