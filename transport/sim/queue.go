package sim

import (
	"time"

	"github.com/rollstep/rollstep/transport"
)

// flight is a datagram on its way: it arrives at endpoint to at virtual
// time at. seq is unique and increases with every datagram (and copy) the
// network accepts, so (at, seq) orders arrivals totally and ties between
// equal arrival times go to the datagram sent first. buf is owned by the
// flight until it is delivered or dropped.
type flight struct {
	at       time.Duration
	seq      uint64
	from, to transport.Addr
	link     *link
	buf      []byte
}

// before reports whether f arrives before g.
func (f *flight) before(g *flight) bool {
	return f.at < g.at || (f.at == g.at && f.seq < g.seq)
}

// flightHeap is a binary min-heap of flights ordered by before. It is
// written out rather than built on container/heap, whose interface boxes
// every element and would allocate per datagram.
type flightHeap struct {
	items []flight
}

// push adds f.
func (h *flightHeap) push(f flight) {
	h.items = append(h.items, f)
	i := len(h.items) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if !h.items[i].before(&h.items[parent]) {
			break
		}
		h.items[i], h.items[parent] = h.items[parent], h.items[i]
		i = parent
	}
}

// peek returns the earliest flight; the heap must not be empty.
func (h *flightHeap) peek() *flight { return &h.items[0] }

// pop removes and returns the earliest flight; the heap must not be empty.
func (h *flightHeap) pop() flight {
	top := h.items[0]
	last := len(h.items) - 1
	h.items[0] = h.items[last]
	h.items[last] = flight{}
	h.items = h.items[:last]
	i := 0
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < last && h.items[l].before(&h.items[m]) {
			m = l
		}
		if r < last && h.items[r].before(&h.items[m]) {
			m = r
		}
		if m == i {
			return top
		}
		h.items[i], h.items[m] = h.items[m], h.items[i]
		i = m
	}
}

// arrival is a datagram waiting in an endpoint's inbox.
type arrival struct {
	from transport.Addr
	buf  []byte
}

// inbox is a FIFO ring of arrivals. items[head] is the oldest of the n
// queued ones; the ring grows by doubling and never shrinks, so a steady
// state allocates nothing.
type inbox struct {
	items []arrival
	head  int
	n     int
}

// push appends a.
func (q *inbox) push(a arrival) {
	if q.n == len(q.items) {
		grown := make([]arrival, max(8, 2*len(q.items)))
		for i := 0; i < q.n; i++ {
			grown[i] = q.items[(q.head+i)%len(q.items)]
		}
		q.items, q.head = grown, 0
	}
	q.items[(q.head+q.n)%len(q.items)] = a
	q.n++
}

// front returns the oldest arrival; the inbox must not be empty.
func (q *inbox) front() *arrival { return &q.items[q.head] }

// pop removes and returns the oldest arrival; the inbox must not be empty.
func (q *inbox) pop() arrival {
	a := q.items[q.head]
	q.items[q.head] = arrival{}
	q.head = (q.head + 1) % len(q.items)
	q.n--
	return a
}

// bufferPool recycles datagram buffers of capacity transport.MaxDatagram.
// Every buffer is owned either by the pool, a flight or an inbox entry.
type bufferPool struct {
	free [][]byte
}

// copyOf returns a pooled buffer holding a copy of p.
func (bp *bufferPool) copyOf(p []byte) []byte {
	var b []byte
	if n := len(bp.free); n > 0 {
		b = bp.free[n-1]
		bp.free[n-1] = nil
		bp.free = bp.free[:n-1]
	} else {
		b = make([]byte, 0, transport.MaxDatagram)
	}
	return append(b[:0], p...)
}

// put returns b to the pool.
func (bp *bufferPool) put(b []byte) {
	bp.free = append(bp.free, b[:0])
}
