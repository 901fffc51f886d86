package udp

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"

	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/internal/dgram"
)

// Conn is a transport.Conn over a net.PacketConn. On Linux, for a
// *net.UDPConn, Receive takes arriving datagrams off the socket itself, in
// batches, without waiting; elsewhere a reader goroutine moves them into a
// bounded queue that Receive drains. Either way no method blocks on the
// network. Conn is safe for concurrent use.
type Conn struct {
	pc  net.PacketConn
	udp *net.UDPConn // pc when it is a *net.UDPConn, for allocation-free I/O
	// drain reads the socket in Receive; nil when the reader goroutine
	// does.
	drain *drainer

	// done is closed when the reader goroutine has returned.
	done chan struct{}
	// arrived receives a value (without blocking) after the reader has
	// handled a datagram; tests wait on it instead of sleeping.
	arrived chan struct{}

	// mu guards everything below.
	mu     sync.Mutex
	closed bool
	// readErr is the error that stopped the reader, reported by Receive
	// once the queue is empty; nil while the reader runs.
	readErr error
	peers   peerTable
	queue   dgram.Ring
	stats   stats
}

// New returns a Conn that sends and receives over pc: on Linux, when pc is
// a *net.UDPConn, through a duplicate of its descriptor (pc itself is
// closed at once, which takes the socket out of Go's network poller; see
// the package documentation), and otherwise through pc, with a reader
// goroutine that New starts. New owns pc from the start: it closes pc
// when it fails, and the Conn closes the socket in Close. New returns a
// *transport.ConfigError (matching transport.ErrInvalidConfig) if pc is
// nil or cfg is invalid; it does not modify cfg.
func New(pc net.PacketConn, cfg Config) (*Conn, error) {
	if pc == nil {
		return nil, &transport.ConfigError{Field: "udp.New(pc)", Reason: "the net.PacketConn is nil"}
	}
	if err := cfg.validate(); err != nil {
		_ = pc.Close()
		return nil, err
	}
	cfg = cfg.withDefaults()
	c := &Conn{
		pc:      pc,
		done:    make(chan struct{}),
		arrived: make(chan struct{}, 1),
		peers:   newPeerTable(cfg),
		queue:   dgram.NewRing(cfg.QueueLen),
	}
	c.udp, _ = pc.(*net.UDPConn)
	if !cfg.reader {
		c.drain = newDrainer(c)
	}
	if c.drain == nil {
		go c.read()
	} else {
		close(c.done)
	}
	return c, nil
}

// Send writes p as one datagram to the address of peer to. It retains
// nothing: the datagram is handed to the kernel before Send returns, or,
// while a session holds the Conn's sends (for the length of one of its
// Updates), copied and written with the others at its end. A datagram to an unbound peer (one whose address is not
// known yet, see Peer.Addr) is dropped as if the network lost it, and
// Send returns nil: the layer above
// repeats what matters (the session's endpoint repeats its Hello) until the
// peer has an address. Send returns an error matching
// transport.ErrDatagramTooLarge for more than transport.MaxDatagram
// bytes, one matching transport.ErrUnknownPeer for an Addr not in the
// table, transport.ErrClosed after Close, and
// otherwise the error of the socket write, if any.
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
	addr, ok := c.peers.addr(to)
	if ok && !addr.IsValid() {
		c.stats.DroppedUnbound++
		c.mu.Unlock()
		return nil
	}
	if ok && c.drain != nil { // the socket is the drainer's: write it under c.mu
		if c.drain.holding() {
			return c.queueHeld(to, addr, p) // unlocks c.mu
		}
		err := c.drain.send(addr, p)
		c.sent(len(p), err)
		c.stats.SendCalls++
		c.mu.Unlock()
		return err
	}
	c.mu.Unlock()
	if !ok {
		return fmt.Errorf("%w %d", transport.ErrUnknownPeer, to)
	}
	var err error
	if c.udp != nil {
		_, err = c.udp.WriteToUDPAddrPort(p, addr)
	} else {
		_, err = c.pc.WriteTo(p, net.UDPAddrFromAddrPort(addr))
	}
	c.mu.Lock()
	c.sent(len(p), err)
	c.mu.Unlock()
	return err
}

// sent counts a datagram of n bytes written, or a failed write; c.mu
// must be held.
func (c *Conn) sent(n int, err error) {
	if err != nil {
		c.stats.WriteErrors++
	} else {
		c.stats.DatagramsOut++
		c.stats.BytesOut += uint64(n)
	}
}

// Receive copies the oldest queued datagram into buf, as the
// transport.Conn contract says. When the queue is empty and the reader
// has stopped on a socket error (for example, the socket was closed
// behind the Conn's back), the Conn receives nothing more: Receive
// returns an error that matches transport.ErrClosed and wraps the socket
// error.
func (c *Conn) Receive(buf []byte) (n int, from transport.Addr, ok bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return 0, 0, false, transport.ErrClosed
	}
	if c.queue.Len() == 0 && c.drain != nil && c.readErr == nil {
		c.refill()
	}
	if c.queue.Len() == 0 && c.readErr != nil {
		return 0, 0, false, fmt.Errorf("%w: udp reader stopped: %w", transport.ErrClosed, c.readErr)
	}
	return c.queue.Receive(buf)
}

// Close stops the reader goroutine, if any, closes the socket and discards
// queued datagrams. It returns once the goroutine has exited. The first call
// returns nil or the error of closing the socket; later calls return
// transport.ErrClosed.
func (c *Conn) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return transport.ErrClosed
	}
	c.closed = true
	c.queue.Clear()
	if c.drain != nil { // the *net.UDPConn was closed in New
		err := c.drain.close()
		c.mu.Unlock()
		return err
	}
	c.mu.Unlock()
	err := c.pc.Close()
	<-c.done
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}

// snapshot returns a copy of the Conn's counters.
func (c *Conn) snapshot() stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Provisional, s.EvictedUnknown = c.peers.provisional, c.peers.evicted
	s.Queued = c.queue.Len()
	return s
}

// peerAddr returns the address that peer id is bound to, and whether id is
// known. The address of an unbound peer is the zero AddrPort.
func (c *Conn) peerAddr(id transport.Addr) (netip.AddrPort, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.peers.addr(id)
}
