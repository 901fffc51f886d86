package dtls

import (
	"net/netip"
	"slices"

	piondtls "github.com/pion/dtls/v3"
)

// pending is one server handshake in flight.
type pending struct {
	dc *piondtls.Conn
	ip netip.Addr
	// evicted is set (under Conn.mu) when a newer handshake took this
	// one's place; its slot is already free.
	evicted bool
}

// admit takes a handshake slot for dc, within MaxHandshakes in all and
// MaxHandshakesPerIP for its IP address. When the slots it needs are
// taken, the oldest handshake whose client has not yet proved its address
// (by echoing the cookie of a HelloVerifyRequest) gives its place up and
// is closed: a spoofed ClientHello never echoes the cookie, so spoofers
// can only push each other out, or an honest client that has not yet
// answered the cookie, which then needs more spoofed ClientHellos than
// there are slots within its round trip. Handshakes past the cookie are
// never evicted. admit returns false (counted as refused) when every
// handshake it could evict is past the cookie.
func (c *Conn) admit(dc *piondtls.Conn) (*pending, bool) {
	ip := ipOf(dc.RemoteAddr())
	c.mu.Lock()
	ipFull := c.perIP[ip] >= c.cfg.MaxHandshakesPerIP
	var victim *pending
	if ipFull || len(c.pending) >= c.cfg.MaxHandshakes {
		for _, p := range c.pending {
			if (!ipFull || p.ip == ip) && !c.mux.verified(p.dc.RemoteAddr()) {
				victim = p
				break
			}
		}
		if victim == nil {
			c.stats.HandshakesRefused++
			if ipFull {
				c.stats.HandshakesRefusedPerIP++
			}
			c.mu.Unlock()
			return nil, false
		}
		victim.evicted = true
		c.drop(victim)
		c.stats.HandshakesEvicted++
	}
	p := &pending{dc: dc, ip: ip}
	c.pending = append(c.pending, p)
	c.perIP[ip]++
	c.mu.Unlock()
	if victim != nil {
		_ = victim.dc.Close() // its handshake goroutine sees the error and returns
	}
	return p, true
}

// finish frees the slot of handshake p, unless it was evicted.
func (c *Conn) finish(p *pending) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !p.evicted {
		c.drop(p)
	}
}

// drop removes p from the handshakes in flight. The caller holds c.mu.
func (c *Conn) drop(p *pending) {
	c.pending = slices.DeleteFunc(c.pending, func(q *pending) bool { return q == p })
	if c.perIP[p.ip] <= 1 {
		delete(c.perIP, p.ip)
	} else {
		c.perIP[p.ip]--
	}
}
