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

// State is where one peer's connection is.
type State int

const (
	// Connecting: the set-up is under way.
	Connecting State = iota
	// Open: datagrams flow.
	Open
	// Failed: the set-up failed or timed out, or the connection broke;
	// PeerState's error says why.
	Failed
	// Closed: the peer closed its channel, or the Conn was closed.
	Closed
)

// String returns the state's name.
func (s State) String() string {
	switch s {
	case Connecting:
		return "connecting"
	case Open:
		return "open"
	case Failed:
		return "failed"
	case Closed:
		return "closed"
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// ConnectError says why a peer's connection failed: Reason is "timed out"
// (no connection within ConnectTimeout), "ICE failed" (no candidate pair
// worked: no route, or a TURN server that refused), "connection failed"
// (DTLS or SCTP after ICE), or "signaling" (the Signaler failed, or the
// peer's set-up messages made no sense), with Err the cause if any.
type ConnectError struct {
	Peer   transport.Addr
	Reason string
	Err    error
}

func (e *ConnectError) Error() string {
	s := "webrtc: " + e.Peer.String() + ": " + e.Reason
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *ConnectError) Unwrap() error { return e.Err }

// Stats counts a Conn's datagrams; see Conn.Stats.
type Stats struct {
	// DatagramsIn and BytesIn count datagrams received; DatagramsOut and
	// BytesOut, datagrams handed to a data channel.
	DatagramsIn, BytesIn, DatagramsOut, BytesOut uint64
	// DroppedNotOpen counts sends to a peer whose channel was not open;
	// DroppedFull, received datagrams dropped, oldest first, because
	// Receive did not keep up; DroppedOversize, received messages longer
	// than transport.MaxDatagram.
	DroppedNotOpen, DroppedFull, DroppedOversize uint64
	// BadSignals counts set-up messages ignored: malformed, from an
	// address that is not a peer, or out of turn.
	BadSignals uint64
}

// Conn is a transport.Conn over WebRTC data channels: one peer connection
// to each peer, with one channel that delivers datagrams unordered and
// without retransmissions, as UDP does. Its methods are safe for
// concurrent use.
type Conn struct {
	cfg    Config
	api    *pion.API
	cancel context.CancelFunc
	done   chan struct{} // closed when the signaling goroutine exits

	// changed receives a value (without blocking) when a datagram arrives
	// or a peer's state changes, for tests that wait for one.
	changed chan struct{}

	mu     sync.Mutex
	links  map[transport.Addr]*link
	queue  dgram.Ring
	stats  Stats
	closed bool
}

// link is the connection to one peer; its fields are guarded by Conn.mu.
type link struct {
	addr    transport.Addr
	offerer bool // this side offers: Self < addr
	pc      *pion.PeerConnection
	dc      *pion.DataChannel
	state   State
	err     error
	remote  bool                    // the remote description is set
	pending []pion.ICECandidateInit // candidates that came before it
	timer   *time.Timer
}

// maxPending bounds the candidates held before the remote description.
const maxPending = 64

// New validates cfg and starts connecting to every peer in the
// background; it returns at once. It returns a *transport.ConfigError
// (matching transport.ErrInvalidConfig) for a bad cfg.
func New(cfg Config) (*Conn, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = defaultConnectTimeout
	}
	if cfg.QueueLen == 0 {
		cfg.QueueLen = defaultQueueLen
	}
	cfg.Peers = append([]transport.Addr(nil), cfg.Peers...)
	ctx, cancel := context.WithCancel(context.Background())
	c := &Conn{cfg: cfg, api: newAPI(&cfg), cancel: cancel, done: make(chan struct{}),
		changed: make(chan struct{}, 1), links: make(map[transport.Addr]*link, len(cfg.Peers)), queue: dgram.NewRing(cfg.QueueLen)}
	for _, p := range cfg.Peers {
		c.links[p] = &link{addr: p, offerer: cfg.Self < p}
	}
	for _, p := range cfg.Peers { // the map is complete: callbacks may come
		l := c.links[p]
		if err := c.open(l); err != nil {
			c.mu.Lock()
			c.failLocked(l, "connection failed", err)
			c.mu.Unlock()
		}
	}
	go c.signals(ctx)
	return c, nil
}

// Locking: c.mu is never held across a call into pion or the Signaler.
// In a browser those calls wait for JavaScript promises, and pion's
// callbacks (a datagram, an open channel) run on the page's event loop: a
// callback that waited for c.mu while its holder waited for a promise
// would stop the page. The link fields that set-up changes (pc, dc,
// remote, pending) are written by New before the signaling goroutine
// starts, and then only by that goroutine.

// channelID is the pre-negotiated data channel's id on every connection.
const channelID = 0

// open creates l's peer connection and channel and, on the offering side,
// sends the offer.
func (c *Conn) open(l *link) error {
	servers := make([]pion.ICEServer, len(c.cfg.ICEServers))
	for i, s := range c.cfg.ICEServers {
		servers[i] = pion.ICEServer{URLs: s.URLs, Username: s.Username, Credential: s.Credential}
	}
	pc, err := c.api.NewPeerConnection(pion.Configuration{ICEServers: servers})
	if err != nil {
		return err
	}
	c.mu.Lock()
	l.pc = pc
	c.mu.Unlock()
	ordered, retransmits, negotiated, id := false, uint16(0), true, uint16(channelID)
	dc, err := pc.CreateDataChannel("rollstep", &pion.DataChannelInit{Ordered: &ordered, MaxRetransmits: &retransmits,
		Negotiated: &negotiated, ID: &id})
	if err != nil {
		return err
	}
	c.mu.Lock()
	l.dc = dc
	c.mu.Unlock()
	dc.OnOpen(func() { c.setState(l, Open) })
	dc.OnClose(func() { c.setState(l, Closed) })
	dc.OnMessage(func(m pion.DataChannelMessage) { c.deliver(l.addr, m.Data) })
	pc.OnICECandidate(func(cand *pion.ICECandidate) {
		if cand == nil {
			return // gathering is complete
		}
		init := cand.ToJSON()
		_ = c.cfg.Signaler.Send(l.addr, encodeSetup(setup{Cand: &init}))
	})
	pc.OnConnectionStateChange(func(s pion.PeerConnectionState) {
		if s == pion.PeerConnectionStateFailed {
			reason := "connection failed"
			if pc.ICEConnectionState() == pion.ICEConnectionStateFailed {
				reason = "ICE failed"
			}
			c.mu.Lock()
			c.failLocked(l, reason, nil)
			c.mu.Unlock()
		}
	})
	timer := time.AfterFunc(c.cfg.ConnectTimeout, func() {
		c.mu.Lock()
		if l.state == Connecting {
			c.failLocked(l, "timed out", nil)
		}
		c.mu.Unlock()
	})
	c.mu.Lock()
	l.timer = timer
	c.mu.Unlock()
	if !l.offerer {
		return nil
	}
	offer, err := pc.CreateOffer(nil)
	if err != nil {
		return err
	}
	if err := pc.SetLocalDescription(offer); err != nil {
		return err
	}
	return c.cfg.Signaler.Send(l.addr, encodeSetup(setup{Offer: &offer}))
}

// notify signals c.changed.
func (c *Conn) notify() {
	select {
	case c.changed <- struct{}{}:
	default:
	}
}

// setState moves l to s unless it has failed or closed already.
func (c *Conn) setState(l *link, s State) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.notify()
	if l.state == Connecting || l.state == Open {
		l.state = s
	}
	if s == Open && l.timer != nil {
		l.timer.Stop()
	}
}

// failLocked marks l failed for reason and closes its connection; c.mu is
// held. The close runs on its own goroutine: pion calls back into the
// Conn while it closes.
func (c *Conn) failLocked(l *link, reason string, err error) {
	if l.state == Failed || l.state == Closed {
		return
	}
	l.state, l.err = Failed, &ConnectError{Peer: l.addr, Reason: reason, Err: err}
	c.notify()
	if l.timer != nil {
		l.timer.Stop()
	}
	if pc := l.pc; pc != nil {
		go func() { _ = pc.Close() }()
	}
}

// deliver queues a received datagram from peer a.
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

// signals applies the peers' set-up messages until ctx ends or the
// Signaler fails.
func (c *Conn) signals(ctx context.Context) {
	defer close(c.done)
	for {
		from, p, err := c.cfg.Signaler.Receive(ctx)
		if err != nil {
			if ctx.Err() == nil {
				c.mu.Lock()
				for _, l := range c.links {
					if l.state == Connecting {
						c.failLocked(l, "signaling", err)
					}
				}
				c.mu.Unlock()
			}
			return
		}
		c.apply(from, p)
	}
}

// apply applies one set-up message from peer from. It runs on the
// signaling goroutine only.
func (c *Conn) apply(from transport.Addr, p []byte) {
	s, err := parseSetup(p)
	c.mu.Lock()
	l := c.links[from]
	ok := l != nil && err == nil && !c.closed && l.state == Connecting
	if ok {
		switch {
		case s.Offer != nil:
			ok = !l.offerer && !l.remote // in turn: the other side offers, once
		case s.Answer != nil:
			ok = l.offerer && !l.remote
		case s.Cand != nil && !l.remote:
			if ok = len(l.pending) < maxPending; ok {
				l.pending = append(l.pending, *s.Cand) // added once the description is set
			}
			c.countBad(!ok)
			c.mu.Unlock()
			return
		}
	}
	c.countBad(!ok)
	c.mu.Unlock()
	if !ok {
		return
	}
	switch {
	case s.Offer != nil:
		if err := l.pc.SetRemoteDescription(*s.Offer); err != nil {
			c.bad()
			return
		}
		answer, err := l.pc.CreateAnswer(nil)
		if err == nil {
			err = l.pc.SetLocalDescription(answer)
		}
		if err == nil {
			err = c.cfg.Signaler.Send(from, encodeSetup(setup{Answer: &answer}))
		}
		c.described(l, err)
	case s.Answer != nil:
		if err := l.pc.SetRemoteDescription(*s.Answer); err != nil {
			c.bad()
			return
		}
		c.described(l, nil)
	case s.Cand != nil:
		if err := l.pc.AddICECandidate(*s.Cand); err != nil {
			c.bad()
		}
	}
}

// described records that l's remote description is set, or fails l with
// err, and adds the candidates that came before it.
func (c *Conn) described(l *link, err error) {
	c.mu.Lock()
	if err != nil {
		c.failLocked(l, "signaling", err)
		c.mu.Unlock()
		return
	}
	l.remote = true
	pending := l.pending
	l.pending = nil
	c.mu.Unlock()
	for _, cand := range pending {
		if err := l.pc.AddICECandidate(cand); err != nil {
			c.bad()
		}
	}
}

// countBad counts a bad signal if b; c.mu is held.
func (c *Conn) countBad(b bool) {
	if b {
		c.stats.BadSignals++
	}
}

// bad counts a bad signal.
func (c *Conn) bad() {
	c.mu.Lock()
	c.stats.BadSignals++
	c.mu.Unlock()
}

// Send sends p to peer to over its data channel. A peer whose channel is
// not open (still connecting, failed or closed) loses the datagram, as a
// network would: Send returns nil and counts it in DroppedNotOpen.
func (c *Conn) Send(to transport.Addr, p []byte) error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return transport.ErrClosed
	}
	if len(p) > transport.MaxDatagram {
		c.mu.Unlock()
		return fmt.Errorf("%w: %d bytes", transport.ErrDatagramTooLarge, len(p))
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
	if err := dc.Send(p); err != nil { // pion copies p
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

// Receive returns the oldest received datagram, as transport.Conn says.
func (c *Conn) Receive(buf []byte) (n int, from transport.Addr, ok bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return 0, 0, false, transport.ErrClosed
	}
	return c.queue.Receive(buf)
}

// PeerState returns peer a's connection state and, when it has failed,
// the *ConnectError saying why. It returns an error matching
// transport.ErrUnknownPeer for an address not in Config.Peers.
func (c *Conn) PeerState(a transport.Addr) (State, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	l := c.links[a]
	if l == nil {
		return Closed, fmt.Errorf("%w %d", transport.ErrUnknownPeer, a)
	}
	return l.state, l.err
}

// Stats returns the Conn's counters.
func (c *Conn) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// Close closes every peer connection and discards queued datagrams; it
// returns once they are closed. Later calls return transport.ErrClosed.
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
		if l.timer != nil {
			l.timer.Stop()
		}
		if l.state == Connecting || l.state == Open {
			l.state = Closed
		}
		if l.pc != nil {
			pcs = append(pcs, l.pc)
		}
	}
	c.mu.Unlock()
	c.cancel()
	var errs []error
	for _, pc := range pcs {
		if err := pc.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	<-c.done
	return errors.Join(errs...)
}
