package dtls

import "github.com/rollstep/rollstep/transport"

// slot is one queued datagram; its buffer is allocated once with the ring.
type slot struct {
	buf  [transport.MaxDatagram]byte
	n    int
	from transport.PeerID
}

// ring is a fixed-capacity FIFO of datagrams. Invariants: 0 <= len <=
// len(slots); the queued slots start at head and wrap around.
type ring struct {
	slots []slot
	head  int
	len   int
}

func newRing(capacity int) ring { return ring{slots: make([]slot, capacity)} }

// push copies p into the tail slot, first dropping the oldest datagram
// when the ring is full, and reports whether it dropped one.
func (r *ring) push(p []byte, from transport.PeerID) (dropped bool) {
	if r.len == len(r.slots) {
		r.pop()
		dropped = true
	}
	s := &r.slots[(r.head+r.len)%len(r.slots)]
	s.n = copy(s.buf[:], p)
	s.from = from
	r.len++
	return dropped
}

// peek returns the oldest datagram without removing it.
func (r *ring) peek() (*slot, bool) {
	if r.len == 0 {
		return nil, false
	}
	return &r.slots[r.head], true
}

// pop removes the oldest datagram; the ring must not be empty.
func (r *ring) pop() {
	r.head = (r.head + 1) % len(r.slots)
	r.len--
}

// clear empties the ring.
func (r *ring) clear() { r.head, r.len = 0, 0 }
