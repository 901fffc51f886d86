package dtls

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"

	piondtls "github.com/pion/dtls/v3"

	"github.com/rollstep/rollstep/internal/connhook"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/internal/dgram"
)

// Conn is a transport.Conn whose peers are DTLS associations: one, the
// server, for a Conn made by Dial; any number up to Config.MaxPeers for a
// Conn made by Listen. Each association has a reader goroutine that moves
// decrypted datagrams into one bounded queue that Receive drains, so no
// method blocks on the network. Conn is safe for concurrent use.
type Conn struct {
	cfg      Config
	listener net.Listener // nil for a dialed Conn
	mux      *mux         // the listener's socket; nil for a dialed Conn
	guard    *guard       // the dialed Conn's socket; nil for a listening Conn
	local    net.Addr     // the socket's address, for tests

	// ctx is cancelled by Close, aborting handshakes in flight.
	ctx    context.Context
	cancel context.CancelFunc
	// wg counts every goroutine the Conn started.
	wg sync.WaitGroup
	// pending holds the handshakes in flight of a listening Conn, oldest
	// first, and perIP counts them per source IP address (it has at most
	// MaxHandshakes keys); both are guarded by mu.
	pending []*pending
	perIP   map[netip.Addr]int
	// arrived receives a value, without blocking, after a datagram is
	// queued or the set of peers changes; tests wait on it.
	arrived chan struct{}

	// mu guards everything below.
	mu     sync.Mutex
	closed bool
	peers  map[transport.Addr]*association
	next   transport.Addr
	queue  dgram.Ring
	stats  connhook.DTLSStats
}

// association is one established DTLS association and its peer.
type association struct {
	id   transport.Addr
	conn *piondtls.Conn
	info PeerInfo
}

// PeerInfo describes an authenticated peer.
type PeerInfo struct {
	// Addr is the peer's UDP address when the handshake finished.
	Addr net.Addr
	// Identity is the PSK identity the client presented (on a listening
	// Conn in PSK mode); nil otherwise.
	Identity []byte
	// Fingerprint is the pinned certificate the peer presented, in
	// certificate mode; zero otherwise.
	Fingerprint Fingerprint
}

func newConn(cfg Config) *Conn {
	c := &Conn{
		cfg:     cfg,
		arrived: make(chan struct{}, 1),
		peers:   make(map[transport.Addr]*association),
		next:    cfg.FirstPeer,
		queue:   dgram.NewRing(cfg.QueueLen),
	}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	return c
}

// add registers an established association under the next free Addr
// and starts its reader. It closes dc and returns false when the Conn is
// closed or full.
func (c *Conn) add(dc *piondtls.Conn) bool {
	info := PeerInfo{Addr: dc.RemoteAddr()}
	if st, ok := dc.ConnectionState(); ok {
		if c.listener != nil && c.cfg.PSK != nil {
			info.Identity = append([]byte(nil), st.IdentityHint...)
		}
		if len(st.PeerCertificates) > 0 {
			info.Fingerprint = Fingerprint(sha256Sum(st.PeerCertificates[0]))
		}
	}
	c.mu.Lock()
	if c.closed || len(c.peers) >= c.cfg.MaxPeers {
		if !c.closed {
			c.stats.PeersRefused++
		}
		c.mu.Unlock()
		_ = dc.Close()
		return false
	}
	id := c.next
	for c.peers[id] != nil {
		id++
	}
	c.next = id + 1
	a := &association{id: id, conn: dc, info: info}
	c.peers[id] = a
	c.stats.Handshakes++
	c.wg.Add(1)
	c.mu.Unlock()
	go c.read(a)
	c.notify()
	return true
}

// Send encrypts p as one DTLS record to peer to and writes it to the
// socket before returning; it does not retain p. Errors follow the
// transport.Conn contract; a peer whose association has ended is unknown.
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
	a := c.peers[to]
	c.mu.Unlock()
	if a == nil {
		return fmt.Errorf("%w %d", transport.ErrUnknownPeer, to)
	}
	_, err := a.conn.Write(p)
	c.mu.Lock()
	if err != nil {
		c.stats.WriteErrors++
	} else {
		c.stats.DatagramsOut++
		c.stats.BytesOut += uint64(len(p))
	}
	c.mu.Unlock()
	return err
}

// Receive copies the oldest queued datagram into buf, as the
// transport.Conn contract says. The first datagram from a newly accepted
// peer is how a listening host learns its Addr; see Peer.
func (c *Conn) Receive(buf []byte) (n int, from transport.Addr, ok bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return 0, 0, false, transport.ErrClosed
	}
	return c.queue.Receive(buf)
}

// Peer returns what the handshake established about peer id, and whether
// id is a live association.
func (c *Conn) Peer(id transport.Addr) (PeerInfo, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if a := c.peers[id]; a != nil {
		return a.info, true
	}
	return PeerInfo{}, false
}

// Forget closes the association with peer id (sending a close_notify
// alert) and removes the peer. It returns an error matching
// transport.ErrUnknownPeer if id is not a live association.
func (c *Conn) Forget(id transport.Addr) error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return transport.ErrClosed
	}
	a := c.peers[id]
	delete(c.peers, id)
	c.mu.Unlock()
	if a == nil {
		return fmt.Errorf("%w %d", transport.ErrUnknownPeer, id)
	}
	return a.conn.Close()
}

// Close aborts handshakes in flight, closes every association (sending
// close_notify) and the socket, discards queued datagrams, and returns
// once every goroutine the Conn started has exited. Later calls return
// transport.ErrClosed.
func (c *Conn) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return transport.ErrClosed
	}
	c.closed = true
	c.queue.Clear()
	peers := c.peers
	c.peers = map[transport.Addr]*association{}
	c.mu.Unlock()
	c.cancel()
	for _, a := range peers {
		_ = a.conn.Close() // sends close_notify while the socket is open
	}
	var err error
	if c.listener != nil {
		_ = c.listener.Close()
		err = c.mux.Close()
	}
	c.wg.Wait()
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}

// snapshot returns a copy of the Conn's counters, which the tests (and,
// through internal/connhook, the module's other tests) read.
func (c *Conn) snapshot() connhook.DTLSStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Peers, s.Queued = len(c.peers), c.queue.Len()
	s.HandshakesInFlight = len(c.pending)
	if c.mux != nil {
		s.HandshakesRefused += c.mux.refused.Load()
		s.DroppedSocket = c.mux.full.Load()
		s.DroppedPlaintext = c.mux.plaintext.Load()
	}
	if c.guard != nil {
		s.DroppedForeign = c.guard.foreign.Load()
		s.DroppedPlaintext = c.guard.plaintext.Load()
	}
	return s
}

// notify wakes a test waiting on c.arrived, without blocking.
func (c *Conn) notify() {
	select {
	case c.arrived <- struct{}{}:
	default:
	}
}

func init() {
	connhook.DTLSStatsOf = func(c transport.Conn) (connhook.DTLSStats, bool) {
		if dc, ok := c.(*Conn); ok {
			return dc.snapshot(), true
		}
		return connhook.DTLSStats{}, false
	}
}
