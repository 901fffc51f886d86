package udpproxy

import (
	"container/heap"
	"strconv"
	"time"

	"github.com/rollstep/rollstep/internal/simlink"
	"github.com/rollstep/rollstep/transport/sim"
)

// Direction is the way a datagram crosses the proxy. The zero value is Up.
type Direction uint8

const (
	// Up is from a client to the upstream address.
	Up Direction = iota
	// Down is from the upstream address back to a client.
	Down
)

// String returns "up" or "down".
func (d Direction) String() string {
	switch d {
	case Up:
		return "up"
	case Down:
		return "down"
	}
	return "Direction(" + strconv.Itoa(int(d)) + ")"
}

// Counter counts datagrams and their payload bytes (UDP payload only, no
// IP or UDP header).
type Counter struct {
	// Packets is the number of datagrams.
	Packets int64
	// Bytes is the sum of their payload sizes.
	Bytes int64
}

// add counts one datagram of n bytes.
func (c *Counter) add(n int) {
	c.Packets++
	c.Bytes += int64(n)
}

// DirStats holds the counters of one direction. Every datagram read counts
// once in Received; each extra copy made by duplication once in
// Duplicated; every datagram and copy then counts once in Lost, Overflow,
// Forwarded or Discarded, or is still in flight. So at any time
// Received + Duplicated = Lost + Overflow + Forwarded + Discarded + in
// flight.
type DirStats struct {
	// Received counts datagrams read from a socket.
	Received Counter
	// Lost counts datagrams dropped with probability sim.LinkConfig.Loss.
	Lost Counter
	// Overflow counts datagrams dropped because the bandwidth queue was
	// over sim.LinkConfig.QueueLimit, or because the proxy already held
	// MaxInFlight bytes or MaxQueued datagrams in flight.
	Overflow Counter
	// Duplicated counts the extra copies made by duplication.
	Duplicated Counter
	// Forwarded counts datagrams and copies handed to the socket at their
	// arrival time, including those whose write then failed.
	Forwarded Counter
	// Discarded counts datagrams and copies still in flight when the
	// proxy stopped.
	Discarded Counter
	// WriteErrors counts forwarded datagrams whose write failed. Only the
	// driver (Proxy) counts these.
	WriteErrors int64
}

// Delivery is a datagram due to leave the proxy.
type Delivery struct {
	// At is the arrival time the Shaper decided.
	At time.Duration
	// Dir is the way the datagram travels.
	Dir Direction
	// Client is the handle passed to Submit.
	Client int
	// Payload is the datagram. A duplicated datagram's two deliveries
	// share it, so it must not be modified.
	Payload []byte
}

// Scheduler is the clock-free core of the proxy: one simlink.Shaper per
// direction decides the fate of every datagram when it is submitted, and
// the datagrams that survive wait in a queue ordered by arrival time, ties
// going to the one submitted first. It reads no clock, does no I/O and
// starts no goroutines; the caller passes the time to every call, so a
// test drives it on any clock it likes. A Scheduler is not safe for
// concurrent use.
type Scheduler struct {
	shapers [2]simlink.Shaper
	queue   deliveryHeap
	seq     uint64
	stats   [2]DirStats
	bytes   int // payload bytes in queue, at most MaxInFlight
}

// MaxInFlight bounds the payload bytes a Scheduler holds in flight, in
// both directions together: without a bandwidth cap a link only delays,
// so a sender flooding the proxy (or a long latency) would otherwise grow
// the queue without bound. 16 MiB is 14,000 full datagrams, ten seconds
// of a fast game's traffic from dozens of clients.
const MaxInFlight = 16 << 20

// MaxQueued bounds the datagrams a Scheduler holds in flight, in both
// directions together, whatever their size: MaxInFlight counts payload
// bytes only, and every queued datagram also costs a 56-byte queue entry,
// so without this bound a flood of empty or tiny datagrams would still
// grow the queue without bound. 262,144 entries (14 MiB) are nineteen
// times the 14,000 full datagrams MaxInFlight holds.
const MaxQueued = 1 << 18

// NewScheduler returns a Scheduler whose Up direction is shaped by up and
// whose Down direction by down. The client side is peer 0 and the upstream
// peer 1 of a sim.Network whose Config.Seed is seed: the Up shaper decides
// as that network's link 0 → 1 and the Down shaper as its link 1 → 0. It
// returns the *transport.ConfigError of an invalid configuration.
func NewScheduler(up, down sim.LinkConfig, seed uint64) (*Scheduler, error) {
	u, err := simlink.NewShaper(up, seed, 0, 1)
	if err != nil {
		return nil, err
	}
	d, err := simlink.NewShaper(down, seed, 1, 0)
	if err != nil {
		return nil, err
	}
	return &Scheduler{shapers: [2]simlink.Shaper{u, d}}, nil
}

// Submit decides the fate of payload, received at time now and travelling
// in direction dir on behalf of client, and queues a copy of it (or two)
// if it is to arrive. It returns the fate. Submit does not retain payload.
// Times are on the caller's clock and should not go backwards; see
// simlink.Shaper.Decide.
func (s *Scheduler) Submit(now time.Duration, dir Direction, client int, payload []byte) simlink.Fate {
	st := &s.stats[dir]
	st.Received.add(len(payload))
	f := s.shapers[dir].Decide(now, len(payload))
	switch f.Drop {
	case simlink.DropNone:
	case simlink.DropQueue:
		st.Overflow.add(len(payload))
		return f
	default:
		st.Lost.add(len(payload))
		return f
	}
	copies := 1
	if f.Duplicate {
		copies = 2
	}
	if s.bytes+copies*len(payload) > MaxInFlight || len(s.queue)+copies > MaxQueued {
		st.Overflow.add(len(payload))
		return simlink.Fate{Drop: simlink.DropQueue}
	}
	p := append([]byte(nil), payload...)
	s.push(Delivery{At: f.At, Dir: dir, Client: client, Payload: p})
	if f.Duplicate {
		st.Duplicated.add(len(p))
		s.push(Delivery{At: f.At, Dir: dir, Client: client, Payload: p})
	}
	return f
}

// push queues d after every queued delivery with the same arrival time.
func (s *Scheduler) push(d Delivery) {
	s.seq++
	s.bytes += len(d.Payload)
	heap.Push(&s.queue, queued{Delivery: d, seq: s.seq})
}

// Next returns the arrival time of the earliest queued datagram, and false
// if none is queued.
func (s *Scheduler) Next() (time.Duration, bool) {
	if len(s.queue) == 0 {
		return 0, false
	}
	return s.queue[0].At, true
}

// Pop removes and returns the earliest queued datagram if it is due, that
// is, if its arrival time is at or before now, and counts it as
// forwarded. It returns false if nothing is due.
func (s *Scheduler) Pop(now time.Duration) (Delivery, bool) {
	if len(s.queue) == 0 || s.queue[0].At > now {
		return Delivery{}, false
	}
	d := heap.Pop(&s.queue).(queued).Delivery
	s.bytes -= len(d.Payload)
	s.stats[d.Dir].Forwarded.add(len(d.Payload))
	return d, true
}

// Len returns the number of queued datagrams.
func (s *Scheduler) Len() int { return len(s.queue) }

// Discard empties the queue, counting every datagram in it as discarded.
func (s *Scheduler) Discard() {
	for _, q := range s.queue {
		s.stats[q.Dir].Discarded.add(len(q.Payload))
	}
	clear(s.queue)
	s.queue, s.bytes = s.queue[:0], 0
}

// Stats returns the counters of direction dir.
func (s *Scheduler) Stats(dir Direction) DirStats { return s.stats[dir] }

// queued is a Delivery in the queue; seq breaks ties between equal arrival
// times in submission order.
type queued struct {
	Delivery
	seq uint64
}

// deliveryHeap is a min-heap of queued deliveries by (At, seq), for
// container/heap.
type deliveryHeap []queued

func (h deliveryHeap) Len() int { return len(h) }
func (h deliveryHeap) Less(i, j int) bool {
	return h[i].At < h[j].At || (h[i].At == h[j].At && h[i].seq < h[j].seq)
}
func (h deliveryHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *deliveryHeap) Push(x any)   { *h = append(*h, x.(queued)) }
func (h *deliveryHeap) Pop() any {
	old := *h
	q := old[len(old)-1]
	old[len(old)-1] = queued{}
	*h = old[:len(old)-1]
	return q
}
