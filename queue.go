package rollstep

import "github.com/rollstep/rollstep/core"

// ring is a bounded FIFO of values. Invariants: 0 ≤ n ≤ len(buf); the
// queued values are buf[head], buf[head+1], … (mod len(buf)).
type ring[T any] struct {
	buf  []T
	head int
	n    int
}

func newRing[T any](size int) ring[T] { return ring[T]{buf: make([]T, size)} }

// push appends v; it returns false when the ring is full.
func (r *ring[T]) push(v T) bool {
	if r.n == len(r.buf) {
		return false
	}
	r.buf[(r.head+r.n)%len(r.buf)] = v
	r.n++
	return true
}

// peek returns the oldest value, or the zero T and false when empty.
func (r *ring[T]) peek() (T, bool) {
	if r.n == 0 {
		var zero T
		return zero, false
	}
	return r.buf[r.head], true
}

// pop drops the oldest value, if any.
func (r *ring[T]) pop() {
	if r.n == 0 {
		return
	}
	var zero T
	r.buf[r.head] = zero
	r.head = (r.head + 1) % len(r.buf)
	r.n--
}

// local is the session's side of one local player: the queue of game
// inputs not yet scheduled (the engine queues its system commands).
type local[I comparable] struct {
	player core.PlayerHandle
	inputs ring[I]
	held   I // the newest input, with Held inputs
}

// predictNone is the engine's Predictor for command-style inputs: the
// player gives no new command.
func predictNone[I comparable](core.PlayerHandle, core.Frame, I, core.Frame, bool) I {
	var zero I
	return zero
}
