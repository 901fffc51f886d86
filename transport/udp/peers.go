package udp

import (
	"errors"
	"fmt"
	"net/netip"

	"github.com/rollstep/rollstep/internal/connhook"
	"github.com/rollstep/rollstep/transport"
)

// errAddrInUse is returned by bind when another peer already has the
// address.
var errAddrInUse = errors.New("udp: address bound to another peer")

// entry is one peer of the table.
type entry struct {
	// addr is the peer's address, or the zero AddrPort for a peer whose
	// address is not known yet (unbound).
	addr netip.AddrPort
	// provisional is true for a peer created by an unknown source and not
	// yet confirmed by the layer above.
	provisional bool
}

// peerTable maps Addrs to addresses and back. Invariants: byAddr and
// byID hold the same pairs (every valid byID[id].addr maps back to id),
// except that unbound peers (zero addr) are in byID only, addresses are
// normalized, and provisional counts the provisional entries, which never
// exceed maxUnknown. arrivals holds the Addr of every provisional peer
// in the order they were made, and possibly Addrs that are no longer
// provisional (confirmed, rebound or forgotten since), at most
// 2·maxUnknown+1 entries.
type peerTable struct {
	byID          map[transport.Addr]entry
	byAddr        map[netip.AddrPort]transport.Addr
	acceptUnknown bool
	maxUnknown    int
	provisional   int
	next          transport.Addr
	arrivals      []transport.Addr
	evicted       uint64 // provisional peers removed to make room
}

func newPeerTable(cfg Config) peerTable {
	t := peerTable{
		byID:          make(map[transport.Addr]entry, len(cfg.Peers)),
		byAddr:        make(map[netip.AddrPort]transport.Addr, len(cfg.Peers)),
		acceptUnknown: cfg.AcceptUnknown,
		maxUnknown:    cfg.MaxUnknown,
		next:          cfg.FirstUnknown,
	}
	for _, p := range cfg.Peers {
		t.set(p.ID, entry{addr: normalize(p.Addr)})
	}
	return t
}

func (t *peerTable) addr(id transport.Addr) (netip.AddrPort, bool) {
	e, ok := t.byID[id]
	return e.addr, ok
}

// lookup returns the peer for a source address, creating a provisional
// peer when the table accepts unknown sources. When maxUnknown provisional
// peers exist, the oldest is removed to make room: a flood of new sources
// cannot keep the next one out, and a provisional peer whose datagrams
// were dropped (or never reached the layer above) does not hold its slot
// for good.
func (t *peerTable) lookup(a netip.AddrPort) (transport.Addr, bool) {
	a = normalize(a)
	if id, ok := t.byAddr[a]; ok {
		return id, true
	}
	if !t.acceptUnknown || t.maxUnknown == 0 || !a.IsValid() {
		return 0, false
	}
	if t.provisional >= t.maxUnknown {
		t.evictOldest()
	}
	for {
		id := t.next
		t.next++
		if _, used := t.byID[id]; !used {
			t.set(id, entry{addr: a, provisional: true})
			t.provisional++
			t.arrivals = append(t.arrivals, id)
			t.compact()
			return id, true
		}
	}
}

// evictOldest removes the oldest provisional peer.
func (t *peerTable) evictOldest() {
	for len(t.arrivals) > 0 {
		id := t.arrivals[0]
		t.arrivals = t.arrivals[1:]
		if e, ok := t.byID[id]; ok && e.provisional {
			t.remove(id)
			t.evicted++
			return
		}
	}
}

// compact drops from arrivals the Addrs that are no longer provisional
// once it holds more than twice maxUnknown, so that it stays bounded
// however many sources are forgotten or confirmed, at amortized constant
// cost.
func (t *peerTable) compact() {
	if len(t.arrivals) <= 2*t.maxUnknown {
		return
	}
	kept := t.arrivals[:0]
	for _, id := range t.arrivals {
		if e, ok := t.byID[id]; ok && e.provisional {
			kept = append(kept, id)
		}
	}
	t.arrivals = kept
}

func (t *peerTable) set(id transport.Addr, e entry) {
	t.byID[id] = e
	if e.addr.IsValid() {
		t.byAddr[e.addr] = id
	}
}

func (t *peerTable) remove(id transport.Addr) {
	e := t.byID[id]
	delete(t.byID, id)
	if e.addr.IsValid() {
		delete(t.byAddr, e.addr)
	}
	if e.provisional {
		t.provisional--
	}
}

// bind adds peer id at addr as a confirmed peer, or moves it there if it
// exists. It returns errAddrInUse if another peer has addr; that peer must
// be forgotten first. Nothing in the module calls it but the tests, which
// use it to move peers around the table.
func (c *Conn) bind(id transport.Addr, addr netip.AddrPort) error {
	addr = normalize(addr)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return transport.ErrClosed
	}
	if other, ok := c.peers.byAddr[addr]; ok && other != id {
		return errAddrInUse
	}
	if _, ok := c.peers.byID[id]; ok {
		c.peers.remove(id)
	}
	c.peers.set(id, entry{addr: addr})
	return nil
}

// confirm marks provisional peer id as authenticated: the layer above has
// seen a valid session token from it. The peer keeps its Addr and
// address and no longer counts against Config.MaxUnknown. Confirming a
// confirmed peer does nothing. confirm returns a
// error matching transport.ErrUnknownPeer if id is not known. The
// session's endpoint
// does not call it (it rebinds or forgets every provisional peer); the
// tests do.
func (c *Conn) confirm(id transport.Addr) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return transport.ErrClosed
	}
	e, ok := c.peers.byID[id]
	if !ok {
		return fmt.Errorf("%w %d", transport.ErrUnknownPeer, id)
	}
	if e.provisional {
		e.provisional = false
		c.peers.byID[id] = e
		c.peers.provisional--
	}
	return nil
}

// rebind moves peer id to the address of peer from and forgets from. The
// session's endpoint calls it (through internal/connhook) when a datagram
// that arrived under provisional peer from authenticates as peer id (a
// Hello with the session token's tag and peer id's nonce): the peer's NAT
// mapping changed. It also gives an unbound peer (a Peer with the zero
// Addr) its address at first contact (the first valid Hello of a peer
// still waiting for one). Datagrams already
// queued keep the Addr they arrived under. rebind returns an error
// matching transport.ErrUnknownPeer if either peer is unknown.
func (c *Conn) rebind(id, from transport.Addr) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return transport.ErrClosed
	}
	for _, p := range [2]transport.Addr{id, from} {
		if _, ok := c.peers.byID[p]; !ok {
			return fmt.Errorf("%w %d", transport.ErrUnknownPeer, p)
		}
	}
	if id == from {
		return nil
	}
	addr := c.peers.byID[from].addr
	provisional := c.peers.byID[id].provisional
	c.peers.remove(from)
	c.peers.remove(id)
	c.peers.set(id, entry{addr: addr, provisional: provisional})
	if provisional {
		c.peers.provisional++
	}
	return nil
}

// forget removes peer id, static or provisional. Later datagrams from its
// address count as from an unknown source; datagrams already queued keep
// the Addr they arrived under. The session's endpoint forgets (through
// internal/connhook) a provisional peer whose datagrams fail the token
// check, which frees room under Config.MaxUnknown. forget returns an
// error matching transport.ErrUnknownPeer if id is not known.
func (c *Conn) forget(id transport.Addr) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return transport.ErrClosed
	}
	if _, ok := c.peers.byID[id]; !ok {
		return fmt.Errorf("%w %d", transport.ErrUnknownPeer, id)
	}
	c.peers.remove(id)
	return nil
}

// hooks is the peer table and the send batch of a Conn as
// internal/connhook hands them to the session's endpoint.
type hooks struct{ c *Conn }

func (h hooks) Forget(id transport.Addr) error       { return h.c.forget(id) }
func (h hooks) Rebind(id, from transport.Addr) error { return h.c.rebind(id, from) }

func (h hooks) Hold(fail func(to transport.Addr, n int, err error)) { h.c.hold(fail) }
func (h hooks) Flush()                                              { h.c.flush() }

func init() {
	connhook.UDPPeers = func(c transport.Conn) (connhook.Peers, bool) {
		if uc, ok := c.(*Conn); ok {
			return hooks{uc}, true
		}
		return nil, false
	}
	connhook.UDPBatch = func(c transport.Conn) (connhook.Batch, bool) {
		if uc, ok := c.(*Conn); ok && uc.drain != nil {
			return hooks{uc}, true
		}
		return nil, false
	}
	connhook.UDPSends = func(c transport.Conn) (datagrams, calls uint64, ok bool) {
		if uc, ok := c.(*Conn); ok {
			s := uc.snapshot()
			return s.DatagramsOut, s.SendCalls, true
		}
		return 0, 0, false
	}
}
