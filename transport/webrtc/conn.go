package webrtc

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	pion "github.com/pion/webrtc/v4"

	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/internal/dgram"
)

// Conn is a transport.Conn over WebRTC data channels: one peer connection
// to each peer, with one channel that delivers datagrams unordered and
// without retransmissions, as UDP does. Its methods are safe for
// concurrent use.
type Conn struct {
	cfg    Config
	api    *pion.API
	cancel context.CancelFunc
	done   chan struct{} // closed when the set-up goroutine exits
	// closing counts the goroutines that close a failed link's peer
	// connection; Close waits for them. Add is called under mu before
	// closed is set only (a link fails only while connecting or open).
	closing sync.WaitGroup

	// changed receives a value (without blocking) when a datagram arrives,
	// a peer's state changes or a signal is refused, for tests that wait
	// for one.
	changed chan struct{}

	mu     sync.Mutex
	links  map[transport.Addr]*link
	queue  dgram.Ring
	stats  Stats
	closed bool
	// turnRefused, once set, says which TURN server refused the
	// credential (native builds; see turnWatch). Every link uses the
	// same ICEServers, so the refusal is the Conn's, not a link's.
	turnRefused error
}

// link is the connection to one peer. Its fields are guarded by Conn.mu;
// pc and dc are written (under it) only by the set-up goroutine, which
// also reads them without it. Invariants: state only moves from
// Connecting to any other state and from Open to Failed or Closed; err
// is non-nil exactly when state is Failed; cands <= maxCandidates.
type link struct {
	addr    transport.Addr
	offerer bool // this side offers: Self < addr
	pc      *pion.PeerConnection
	dc      *pion.DataChannel
	state   State
	err     error
	remote  bool                    // the remote description is set
	pending []pion.ICECandidateInit // candidates that came before it
	cands   int                     // candidates accepted from the peer
	local   int                     // local candidates gathered
	timer   *time.Timer             // fails the link at ConnectTimeout
}

// maxCandidates bounds the ICE candidates taken from one peer: a host
// has a few per network interface, plus one server-reflexive and one
// relayed per STUN or TURN server. Each candidate costs connectivity
// checks, so a hostile peer must not add thousands.
const maxCandidates = 64

// maxBacklog is how many bytes a data channel may hold unacknowledged
// before Send drops rather than queues. pion's SCTP queues without bound,
// so a peer that stops acknowledging would make it hold everything sent
// to it. On a working path the backlog stays far below: pion acknowledges
// in batches, so one datagram at a time over loopback leaves up to about
// 140 KB unacknowledged (116 full datagrams), and a session sends a few
// KB a second.
const maxBacklog = 1 << 20

// New validates cfg and starts connecting to every peer in the
// background; it returns at once, without calling pion or the Signaler.
// It returns a *transport.ConfigError (matching
// transport.ErrInvalidConfig) for a bad cfg, and does not modify cfg.
func New(cfg Config) (*Conn, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	ctx, cancel := context.WithCancel(context.Background())
	c := &Conn{cfg: cfg, cancel: cancel, done: make(chan struct{}),
		changed: make(chan struct{}, 1), links: make(map[transport.Addr]*link, len(cfg.Peers)),
		queue: dgram.NewRing(cfg.QueueLen)}
	c.api = newAPI(&c.cfg, c.refusedTURN)
	c.mu.Lock()
	for _, p := range cfg.Peers {
		l := &link{addr: p, offerer: cfg.Self < p}
		l.timer = time.AfterFunc(cfg.ConnectTimeout, func() { c.timeout(l) })
		c.links[p] = l
	}
	c.mu.Unlock()
	go c.run(ctx)
	return c, nil
}

// Locking: c.mu is never held across a call into pion or the Signaler.
// In a browser those calls wait for JavaScript promises, and pion's
// callbacks (a datagram, an open channel) run on the page's event loop: a
// callback that waited for c.mu while its holder waited for a promise
// would stop the page. For the same reason New makes no such call: the
// set-up goroutine (run) makes them all, except Send's and Close's.

// notify signals c.changed.
func (c *Conn) notify() {
	select {
	case c.changed <- struct{}{}:
	default:
	}
}

// setState moves l to s (Open or Closed) unless it has failed or closed
// already.
func (c *Conn) setState(l *link, s State) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if l.state != Connecting && l.state != Open {
		return
	}
	l.state = s
	l.timer.Stop()
	c.notify()
}

// timeout fails l if it is still connecting when ConnectTimeout ends.
func (c *Conn) timeout(l *link) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if l.state == Connecting {
		err := fmt.Errorf("no open channel after %v: %w", c.cfg.ConnectTimeout, context.DeadlineExceeded)
		c.failLocked(l, reasonTimeout, err)
	}
}

// fail marks l failed, as failLocked does.
func (c *Conn) fail(l *link, reason string, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.failLocked(l, reason, err)
}

// failLocked marks l failed for reason and closes its peer connection,
// unless l has failed or closed already; c.mu is held. The close runs on
// its own goroutine, which Close waits for: pion calls back into the
// Conn while it closes. After a TURN server refused the credential, ICE
// failing is reported as the refusal, and a timeout says it too.
func (c *Conn) failLocked(l *link, reason string, err error) {
	if l.state != Connecting && l.state != Open {
		return
	}
	if c.turnRefused != nil {
		switch reason {
		case reasonICE:
			reason, err = reasonTURN, c.turnRefused
		case reasonTimeout:
			err = fmt.Errorf("%w; %w", err, c.turnRefused)
		}
	}
	l.state, l.err = Failed, &ConnectError{Peer: l.addr, Reason: reason, Err: err}
	l.timer.Stop()
	c.notify()
	if pc := l.pc; pc != nil {
		c.closing.Add(1)
		go func() {
			defer c.closing.Done()
			_ = pc.Close()
		}()
	}
}

// refusedTURN records that a TURN server refused the credential; the
// first refusal is kept. pion calls it from its TURN client's goroutine,
// before the allocation fails and so before gathering completes.
func (c *Conn) refusedTURN(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.turnRefused == nil {
		c.turnRefused = err
	}
}

// gathered counts one local candidate of l or, for cand nil, ends l's
// gathering: with no local candidate at all, no candidate pair can form
// and ICE can never connect (pion's agent would keep checking until
// ConnectTimeout), so l fails at once with Reason "ICE failed", or
// "TURN allocation refused" after a refusal.
func (c *Conn) gathered(l *link, cand *pion.ICECandidate) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cand != nil {
		l.local++
		return
	}
	if l.local == 0 && l.state == Connecting {
		c.failLocked(l, reasonICE, errNoCandidates)
	}
}

// errNoCandidates is the Err of a link that gathered no local candidate.
var errNoCandidates = errors.New("no local ICE candidate gathered")

// deliver queues a datagram received from peer a.
func (c *Conn) deliver(a transport.Addr, p []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	if len(p) > transport.MaxDatagram {
		c.stats.DroppedOversize++
		return
	}
	c.stats.DatagramsIn++
	c.stats.BytesIn += uint64(len(p))
	if c.queue.Push(p, a) {
		c.stats.DroppedFull++
	}
	c.notify()
}

// Send sends p as one message on peer to's data channel. pion copies p
// before Send returns. A peer whose channel is not open (still
// connecting, failed or closed) loses the datagram, as a network would:
// Send returns nil and counts it in Stats.DroppedNotOpen. So does a
// channel that holds over 1 MiB unacknowledged, counted in
// Stats.DroppedBacklog. Send returns an error matching
// transport.ErrDatagramTooLarge for more than transport.MaxDatagram
// bytes, one matching transport.ErrUnknownPeer for an Addr not in
// Config.Peers, and transport.ErrClosed after Close.
func (c *Conn) Send(to transport.Addr, p []byte) error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return transport.ErrClosed
	}
	if len(p) > transport.MaxDatagram {
		c.mu.Unlock()
		return fmt.Errorf("%w: %d bytes, over the %d-byte limit", transport.ErrDatagramTooLarge, len(p), transport.MaxDatagram)
	}
	l := c.links[to]
	if l == nil {
		c.mu.Unlock()
		return fmt.Errorf("%w %d", transport.ErrUnknownPeer, to)
	}
	if l.state != Open {
		c.stats.DroppedNotOpen++
		c.mu.Unlock()
		return nil
	}
	dc := l.dc
	c.mu.Unlock()
	if dc.BufferedAmount() > maxBacklog {
		c.mu.Lock()
		c.stats.DroppedBacklog++
		c.mu.Unlock()
		return nil
	}
	if err := dc.Send(p); err != nil {
		c.mu.Lock()
		c.stats.DroppedNotOpen++
		c.mu.Unlock()
		return nil // the channel is closing: loss, not a failure of the match
	}
	c.mu.Lock()
	c.stats.DatagramsOut++
	c.stats.BytesOut += uint64(len(p))
	c.mu.Unlock()
	return nil
}

// Receive copies the oldest received datagram into buf, as the
// transport.Conn contract says; it never waits.
func (c *Conn) Receive(buf []byte) (n int, from transport.Addr, ok bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return 0, 0, false, transport.ErrClosed
	}
	return c.queue.Receive(buf)
}

// PeerState returns peer a's connection state and, when it has failed,
// the *ConnectError saying why (nil otherwise). It never waits: a peer
// that does not connect ends Failed, with Reason "timed out", once
// Config.ConnectTimeout has passed. For an address not in Config.Peers
// it returns Closed and an error matching transport.ErrUnknownPeer.
func (c *Conn) PeerState(a transport.Addr) (State, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	l := c.links[a]
	if l == nil {
		return Closed, fmt.Errorf("%w %d", transport.ErrUnknownPeer, a)
	}
	return l.state, l.err
}

// Stats returns a copy of the Conn's counters.
func (c *Conn) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// Close closes every peer connection, which closes the peers' channels
// too, and discards queued datagrams. It returns once the connections are
// closed and the set-up goroutine has exited (which needs the Signaler's
// Receive to return when its ctx ends, and its Send to return). The first
// call returns nil or the errors of closing the connections; later calls
// return transport.ErrClosed.
func (c *Conn) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return transport.ErrClosed
	}
	c.closed = true
	c.queue.Clear()
	var pcs []*pion.PeerConnection
	for _, l := range c.links {
		l.timer.Stop()
		if l.state == Connecting || l.state == Open {
			l.state = Closed
			if l.pc != nil { // a failed link's is being closed already
				pcs = append(pcs, l.pc)
			}
		}
	}
	c.notify()
	c.mu.Unlock()
	c.cancel()
	var errs []error
	for _, pc := range pcs {
		if err := pc.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	<-c.done
	c.closing.Wait()
	return errors.Join(errs...)
}
