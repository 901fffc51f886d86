package sim

import (
	"fmt"
	"math"
	"math/bits"
	"time"

	"github.com/rollstep/rollstep/transport"
)

// Network is a simulated datagram network on virtual time. Endpoints made
// by NewEndpoint send to each other over directed links configured by
// Config.Link and SetLink. Nothing happens between calls: virtual time
// moves only in Advance, RunUntil and RunUntilIdle, which deliver every
// datagram whose arrival time has come, in order of arrival time and, for
// equal times, of sending.
//
// A Network and its endpoints are not safe for concurrent use; see the
// package documentation for use with goroutines and testing/synctest.
type Network struct {
	seed       uint64
	defaults   LinkConfig
	inboxLimit int

	now       time.Duration
	seq       uint64
	endpoints []*Endpoint
	links     map[linkKey]*link
	flights   flightHeap
	pool      bufferPool
}

// linkKey names a directed link.
type linkKey struct {
	from, to transport.Addr
}

// link is the state of one directed link: the shaper that decides the
// fate of its datagrams, and its counters. Links are never deleted, so
// flights may point at them.
type link struct {
	shaper shaper
	stats  LinkStats
}

// New returns an empty network at virtual time zero, or a
// *transport.ConfigError (matching transport.ErrInvalidConfig) naming the
// field of cfg that is invalid. It keeps a copy of cfg.
func New(cfg Config) (*Network, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	n := &Network{
		seed:       cfg.Seed,
		defaults:   cfg.Link.clone(),
		inboxLimit: cfg.InboxLimit,
		links:      make(map[linkKey]*link),
	}
	if n.inboxLimit == 0 {
		n.inboxLimit = defaultInboxLimit
	}
	return n, nil
}

// NewEndpoint adds an endpoint to the network and returns it. Endpoints are
// numbered from 0 in the order they are made; ID returns the number, which
// is the transport.Addr other endpoints send to.
func (n *Network) NewEndpoint() *Endpoint {
	e := &Endpoint{net: n, id: transport.Addr(len(n.endpoints))}
	n.endpoints = append(n.endpoints, e)
	return e
}

// Reopen returns a new endpoint with the ID of closed endpoint id, as a
// restarted process binds its old port again: datagrams sent to id from
// now on reach the new endpoint, and the old one stays closed. It returns
// an error matching transport.ErrUnknownPeer for an ID no endpoint has,
// and transport.ErrInvalidConfig while the endpoint of id is open.
func (n *Network) Reopen(id transport.Addr) (*Endpoint, error) {
	if uint64(id) >= uint64(len(n.endpoints)) {
		return nil, fmt.Errorf("%w %d", transport.ErrUnknownPeer, id)
	}
	if !n.endpoints[id].closed {
		return nil, fmt.Errorf("%w: endpoint %d is open", transport.ErrInvalidConfig, id)
	}
	e := &Endpoint{net: n, id: id}
	n.endpoints[id] = e
	return e, nil
}

// Now returns the virtual time, the duration since the network was made.
func (n *Network) Now() time.Duration { return n.now }

// Advance moves virtual time forward by d and delivers every datagram due
// by then. A d ≤ 0 delivers what is due now without moving time.
func (n *Network) Advance(d time.Duration) {
	n.RunUntil(addSat(n.now, max(d, 0)))
}

// RunUntil moves virtual time forward to t, if t is later than Now, and
// delivers every datagram due by then.
func (n *Network) RunUntil(t time.Duration) {
	if t > n.now {
		n.now = t
	}
	for len(n.flights.items) > 0 && n.flights.peek().at <= n.now {
		n.deliver(n.flights.pop())
	}
}

// RunUntilIdle delivers every datagram in flight, moving virtual time to
// the arrival of the last one (or leaving it unchanged if none is in
// flight).
func (n *Network) RunUntilIdle() {
	for len(n.flights.items) > 0 {
		n.RunUntil(n.flights.peek().at)
	}
}

// Next returns the arrival time of the next datagram in flight, and false
// if none is. Advancing to it delivers at least that datagram, so a driver
// can jump from arrival to arrival instead of stepping time.
func (n *Network) Next() (time.Duration, bool) {
	if len(n.flights.items) == 0 {
		return 0, false
	}
	return n.flights.peek().at, true
}

// SetLink configures the directed link from → to, replacing Config.Link for
// it, or returns a *transport.ConfigError (matching
// transport.ErrInvalidConfig) naming the field of cfg that is invalid. It
// keeps a copy of cfg. Datagrams already in flight keep the fate decided
// when they were sent, and the link keeps its FIFO order and bandwidth
// queue: a datagram sent after the change does not overtake one sent
// before it. The endpoints need not exist yet.
func (n *Network) SetLink(from, to transport.Addr, cfg LinkConfig) error {
	if err := cfg.validate("sim.LinkConfig"); err != nil {
		return err
	}
	n.link(from, to).shaper.setConfig(cfg)
	return nil
}

// link returns the state of from → to, creating it with the default
// configuration and its own seeded random source on first use.
func (n *Network) link(from, to transport.Addr) *link {
	k := linkKey{from, to}
	l := n.links[k]
	if l == nil {
		l = &link{shaper: newShaper(n.defaults, n.seed, from, to)}
		n.links[k] = l
	}
	return l
}

// send decides the fate of p on from → to at the current virtual time and
// puts the resulting copies in flight. The caller has checked the size and
// both endpoints.
func (n *Network) send(from, to transport.Addr, p []byte) {
	l := n.link(from, to)
	wire := len(p) + transport.HeaderOverhead
	l.stats.Sent.add(wire)
	f := l.shaper.Decide(n.now, len(p))
	if f.Dropped() {
		l.stats.Dropped.add(wire)
		return
	}
	n.launch(l, from, to, f.At, p)
	if f.Duplicate {
		l.stats.Duplicated.add(wire)
		n.launch(l, from, to, f.At, p)
	}
}

// launch puts a copy of p in flight.
func (n *Network) launch(l *link, from, to transport.Addr, at time.Duration, p []byte) {
	n.seq++
	n.flights.push(flight{at: at, seq: n.seq, from: from, to: to, link: l, buf: n.pool.copyOf(p)})
}

// deliver moves f into its destination's inbox, or drops it if the
// destination is closed or its inbox is full.
func (n *Network) deliver(f flight) {
	wire := len(f.buf) + transport.HeaderOverhead
	dst := n.endpoints[f.to]
	if dst.closed || dst.in.n >= n.inboxLimit {
		f.link.stats.Dropped.add(wire)
		n.pool.put(f.buf)
		return
	}
	dst.in.push(arrival{from: f.from, buf: f.buf})
	f.link.stats.Delivered.add(wire)
}

// serialization returns how long wire bytes occupy a link of bw bytes per
// second: ⌈wire·10⁹/bw⌉ ns.
func serialization(wire int, bw int64) time.Duration {
	num := int64(wire) * int64(time.Second)
	d := num / bw
	if num%bw != 0 {
		d++
	}
	return time.Duration(d)
}

// bytesIn returns ⌊d·bw/10⁹⌋, the bytes a link of bw bytes per second
// serializes in d ≥ 0, saturating at math.MaxUint64.
func bytesIn(d time.Duration, bw int64) uint64 {
	hi, lo := bits.Mul64(uint64(d), uint64(bw))
	if hi >= uint64(time.Second) {
		return math.MaxUint64
	}
	q, _ := bits.Div64(hi, lo, uint64(time.Second))
	return q
}

// addSat returns a+b for a, b ≥ 0, saturating at the largest Duration.
func addSat(a, b time.Duration) time.Duration {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
