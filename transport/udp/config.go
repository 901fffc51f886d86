package udp

import (
	"net/netip"
	"strconv"

	"github.com/rollstep/rollstep/transport"
)

// defaultQueueLen is Config.QueueLen's default.
const defaultQueueLen = 256

// Peer is one entry of the static peer table: the Addr a Conn reports for
// datagrams from Addr and sends to Addr for.
type Peer struct {
	// ID is the identifier the host uses for the peer.
	ID transport.Addr
	// Addr is the peer's UDP address. IPv4-mapped IPv6 addresses are
	// treated as the IPv4 address they map, and an IPv6 zone is ignored. The zero AddrPort means the
	// address is not known yet: the peer is unbound, Send drops what is
	// sent to it (without an error), and it gets an address when the
	// session's endpoint recognises it in a provisional peer (see "Peers
	// whose address is unknown" in the package documentation).
	Addr netip.AddrPort
}

// Config configures a Conn. The zero value is valid: a Conn with no peers
// that drops everything it receives, with the default queue.
type Config struct {
	// Peers is the static table of known peers. IDs and addresses must be
	// unique, and each address valid or zero (unbound). The Conn copies
	// the slice.
	Peers []Peer

	// AcceptUnknown makes the first datagram from an address that is not
	// in the table create a provisional peer with a fresh Addr, under
	// which its datagrams are delivered. A provisional peer is not
	// authenticated: the session's endpoint checks the session token and
	// then adopts it as a known peer or forgets it. Without AcceptUnknown,
	// datagrams from unknown addresses are dropped and counted.
	AcceptUnknown bool

	// MaxUnknown caps the provisional peers that exist at once: a
	// datagram from a further new address removes the oldest of them,
	// so that a flood of sources costs
	// bounded memory and still cannot keep a new peer out. 0 means
	// QueueLen: a provisional peer then outlives every datagram it sent
	// that can still be waiting in the queue. Only used with
	// AcceptUnknown.
	MaxUnknown int

	// FirstUnknown is the first Addr given to a provisional peer; later
	// ones count up from it, skipping IDs in use. 0 means one more than
	// the largest ID in Peers (or 1 with no Peers).
	FirstUnknown transport.Addr

	// QueueLen is how many received datagrams wait for Receive; when the
	// queue is full the oldest is dropped (the newest datagram carries
	// every unacknowledged input, so it supersedes older ones). 0 means
	// 256.
	QueueLen int

	// reader makes the Conn use a reader goroutine where it would drain
	// the socket in Receive, so that tests and benchmarks cover both.
	reader bool
}

// validate reports the first rule that c breaks, as a
// *transport.ConfigError, or nil. It does not modify c.
func (c *Config) validate() error {
	switch {
	case c.QueueLen < 0:
		return configError("QueueLen", strconv.Itoa(c.QueueLen)+" is negative")
	case c.MaxUnknown < 0:
		return configError("MaxUnknown", strconv.Itoa(c.MaxUnknown)+" is negative")
	}
	ids := make(map[transport.Addr]int, len(c.Peers))
	addrs := make(map[netip.AddrPort]int, len(c.Peers))
	for i, p := range c.Peers {
		field := "Peers[" + strconv.Itoa(i) + "]"
		if j, dup := ids[p.ID]; dup {
			return configError(field+".ID", p.ID.String()+" is also used by Peers["+strconv.Itoa(j)+"]")
		}
		ids[p.ID] = i
		if p.Addr == (netip.AddrPort{}) {
			continue // unbound: the address is learnt later
		}
		if !p.Addr.IsValid() || p.Addr.Port() == 0 {
			return configError(field+".Addr", "address "+p.Addr.String()+" is not a valid host:port or zero")
		}
		a := normalize(p.Addr)
		if j, dup := addrs[a]; dup {
			return configError(field+".Addr", a.String()+" is also used by Peers["+strconv.Itoa(j)+"]")
		}
		addrs[a] = i
	}
	return nil
}

// configError returns the *transport.ConfigError for field of a Config.
func configError(field, reason string) error {
	return &transport.ConfigError{Field: "udp.Config." + field, Reason: reason}
}

// withDefaults returns a copy of c with every zero field set to its default.
func (c Config) withDefaults() Config {
	if c.QueueLen == 0 {
		c.QueueLen = defaultQueueLen
	}
	if c.MaxUnknown == 0 {
		c.MaxUnknown = c.QueueLen
	}
	if c.FirstUnknown == 0 {
		c.FirstUnknown = 1
		for _, p := range c.Peers {
			if p.ID >= c.FirstUnknown {
				c.FirstUnknown = p.ID + 1
			}
		}
	}
	c.Peers = append([]Peer(nil), c.Peers...)
	return c
}

// normalize unmaps IPv4-mapped IPv6 addresses, so that one host has one key
// whichever socket family reported it, and drops IPv6 zones, which the
// batch reader does not see.
func normalize(a netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(a.Addr().Unmap().WithZone(""), a.Port())
}
