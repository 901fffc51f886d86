package dtls

import (
	"context"
	"net"
	"net/netip"

	piondtls "github.com/pion/dtls/v3"
)

// maxAcceptErrors is how many Accept errors in a row stop the accept
// loop, so that a broken socket cannot make it spin.
const maxAcceptErrors = 64

// Listen returns a Conn that accepts DTLS associations over pc, each a
// new peer numbered from cfg.FirstPeer. Listen owns pc from the start:
// it closes pc when it fails, and the Conn closes pc in Close. Handshakes run in the background, at most cfg.MaxHandshakes at
// once and each bounded by cfg.HandshakeTimeout: a ClientHello that
// arrives while every slot is taken is dropped, and the client's
// retransmission tries again. A silent or garbage client therefore holds
// one slot for at most the timeout, and cannot delay others while slots
// remain. Datagrams from unknown sources that are not DTLS handshake
// records are dropped unread. Listen returns a *ConfigError for an
// invalid cfg.
func Listen(pc net.PacketConn, cfg Config) (*Conn, error) {
	if pc == nil {
		return nil, &ConfigError{"pc", "the net.PacketConn is nil"}
	}
	if err := cfg.Validate(); err != nil {
		_ = pc.Close()
		return nil, err
	}
	cfg = cfg.withDefaults()
	opts := []piondtls.ServerOption{}
	for _, o := range cfg.options() {
		opts = append(opts, o)
	}
	if cfg.Certificate != nil {
		// The client must send a certificate, which the pin then checks.
		opts = append(opts, piondtls.WithClientAuth(piondtls.RequireAnyClientCert))
	}
	m := newMux(pc, cfg.MaxHandshakes, 2*cfg.MaxHandshakes+cfg.MaxPeers)
	l, err := piondtls.NewListenerWithOptions(m, opts...)
	if err != nil {
		_ = m.Close()
		return nil, &ConfigError{"Config", err.Error()}
	}
	c := newConn(cfg)
	c.listener, c.mux, c.local = l, m, pc.LocalAddr()
	c.slots = make(chan struct{}, cfg.MaxHandshakes)
	c.perIP = make(map[netip.Addr]int)
	c.wg.Add(1)
	go c.accept()
	return c, nil
}

// accept is the accept loop of a listening Conn. pion's listener returns
// a new, not yet handshaken association for each new source address that
// the mux let through; accept starts its handshake if a slot is free and
// drops it otherwise.
func (c *Conn) accept() {
	defer c.wg.Done()
	failures := 0
	for {
		nc, err := c.listener.Accept()
		if err != nil {
			if c.ctx.Err() != nil || failures >= maxAcceptErrors {
				return
			}
			failures++
			continue
		}
		failures = 0
		dc, ok := nc.(*piondtls.Conn)
		if !ok {
			_ = nc.Close()
			continue
		}
		select {
		case c.slots <- struct{}{}:
			ip, ok := c.admit(dc.RemoteAddr())
			if !ok {
				<-c.slots
				_ = dc.Close()
				continue
			}
			c.wg.Add(1)
			go c.handshake(dc, ip)
		default:
			c.mu.Lock()
			c.stats.HandshakesRefused++
			c.mu.Unlock()
			_ = dc.Close()
		}
	}
}

// admit counts a new handshake from addr against MaxHandshakesPerIP and
// returns the IP address to release when it ends, or false (counted as
// refused) when that address already has the most.
func (c *Conn) admit(addr net.Addr) (netip.Addr, bool) {
	ip := ipOf(addr)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.perIP[ip] >= c.cfg.MaxHandshakesPerIP {
		c.stats.HandshakesRefused++
		c.stats.HandshakesRefusedPerIP++
		return ip, false
	}
	c.perIP[ip]++
	return ip, true
}

// release ends the count of one handshake from ip.
func (c *Conn) release(ip netip.Addr) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.perIP[ip] <= 1 {
		delete(c.perIP, ip)
	} else {
		c.perIP[ip]--
	}
}

// ipOf returns the IP address of a UDP address, with IPv4-mapped IPv6
// addresses unmapped so that both spellings of one host count together.
// Other address types (a custom PacketConn's) map to the zero Addr and so
// share one budget.
func ipOf(a net.Addr) netip.Addr {
	if u, ok := a.(*net.UDPAddr); ok {
		if ip, ok := netip.AddrFromSlice(u.IP); ok {
			return ip.Unmap()
		}
	}
	return netip.Addr{}
}

// handshake runs one server handshake under the deadline, holding a slot
// and one of ip's handshakes.
func (c *Conn) handshake(dc *piondtls.Conn, ip netip.Addr) {
	defer c.wg.Done()
	ctx, cancel := context.WithTimeout(c.ctx, c.cfg.HandshakeTimeout)
	err := dc.HandshakeContext(ctx)
	cancel()
	c.release(ip)
	<-c.slots
	if err != nil {
		c.mu.Lock()
		c.stats.HandshakeFailures++
		c.mu.Unlock()
		_ = dc.Close()
		return
	}
	c.mux.establish(dc.RemoteAddr())
	c.add(dc)
}
