// Package dgram holds what the socket drivers of package transport share:
// the fixed-capacity queue of received datagrams between a driver's reader
// goroutine and the game loop's non-blocking Receive.
package dgram

import (
	"fmt"

	"github.com/rollstep/rollstep/transport"
)

// Slot is one queued datagram. Its buffer is part of the ring's backing
// array, allocated once in NewRing and reused for the Conn's life.
type Slot struct {
	Buf  [transport.MaxDatagram]byte
	N    int            // bytes of Buf in use
	From transport.Addr // the sender
}

// Ring is a fixed-capacity FIFO of datagrams that drops the oldest when
// full: the newest packet repeats every unacknowledged input, so it is the
// one worth keeping. It is not safe for concurrent use; drivers guard it
// with their own lock. Invariants: 0 <= Len <= len(slots); the queued
// slots are slots[head], slots[(head+1)%cap], ..., Len of them.
type Ring struct {
	slots []Slot
	head  int
	n     int
}

// NewRing returns an empty ring of capacity datagrams (at least one).
func NewRing(capacity int) Ring { return Ring{slots: make([]Slot, max(capacity, 1))} }

// Push copies p (at most transport.MaxDatagram bytes are kept) into the
// tail slot. When the ring is full it first drops the oldest datagram and
// reports dropped == true.
func (r *Ring) Push(p []byte, from transport.Addr) (dropped bool) {
	if r.n == len(r.slots) {
		r.Pop()
		dropped = true
	}
	s := &r.slots[(r.head+r.n)%len(r.slots)]
	s.N = copy(s.Buf[:], p)
	s.From = from
	r.n++
	return dropped
}

// Peek returns the oldest datagram without removing it; the slot is valid
// until the next Pop or Push.
func (r *Ring) Peek() (*Slot, bool) {
	if r.n == 0 {
		return nil, false
	}
	return &r.slots[r.head], true
}

// Pop removes the oldest datagram; the ring must not be empty.
func (r *Ring) Pop() {
	r.head = (r.head + 1) % len(r.slots)
	r.n--
}

// Len returns the number of queued datagrams.
func (r *Ring) Len() int { return r.n }

// Clear empties the ring.
func (r *Ring) Clear() { r.head, r.n = 0, 0 }

// Receive moves the oldest datagram into buf, as transport.Conn's Receive
// does: ok == false when the ring is empty, and an error matching
// transport.ErrShortBuffer, leaving the datagram queued, when buf is too
// short for it.
func (r *Ring) Receive(buf []byte) (n int, from transport.Addr, ok bool, err error) {
	s, ok := r.Peek()
	if !ok {
		return 0, 0, false, nil
	}
	if s.N > len(buf) {
		return 0, 0, false, fmt.Errorf("%w: %d bytes for a datagram of %d bytes", transport.ErrShortBuffer, len(buf), s.N)
	}
	n, from = copy(buf, s.Buf[:s.N]), s.From
	r.Pop()
	return n, from, true, nil
}
