package dtls

import (
	"context"
	"net"
	"net/netip"

	piondtls "github.com/pion/dtls/v3"

	"github.com/rollstep/rollstep/transport"
)

// maxAcceptErrors is how many Accept errors in a row stop the accept
// loop, so that a broken socket cannot make it spin.
const maxAcceptErrors = 64

// Listen returns a Conn that accepts DTLS associations over pc, each a
// new peer numbered from cfg.FirstPeer. Listen owns pc from the start:
// it closes pc when it fails, and the Conn closes pc in Close.
// Handshakes run in the background, at most cfg.MaxHandshakes at once
// (cfg.MaxHandshakesPerIP from one IP address), each bounded by
// cfg.HandshakeTimeout. A ClientHello that finds its slots taken evicts
// the oldest handshake whose client has not yet echoed the server's
// cookie, which a spoofed source never does; if every one has, it is
// dropped and the client's retransmission tries again. A silent, garbage or spoofing client therefore holds a slot only
// until a newer one needs it, and never delays a client that is past the
// cookie. Datagrams from unknown sources that are not DTLS handshake
// records are dropped unread. Listen returns a *transport.ConfigError
// (matching transport.ErrInvalidConfig) for a nil pc or an invalid cfg.
func Listen(pc net.PacketConn, cfg Config) (*Conn, error) {
	if pc == nil {
		return nil, &transport.ConfigError{Field: "dtls.Listen(pc)", Reason: "the net.PacketConn is nil"}
	}
	if err := cfg.validate(); err != nil {
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
		return nil, &transport.ConfigError{Field: "dtls.Config", Reason: err.Error()}
	}
	c := newConn(cfg)
	c.listener, c.mux, c.local = l, m, pc.LocalAddr()
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
		p, ok := c.admit(dc)
		if !ok {
			_ = dc.Close()
			continue
		}
		c.wg.Add(1)
		go c.handshake(p)
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
func (c *Conn) handshake(p *pending) {
	defer c.wg.Done()
	dc := p.dc
	ctx, cancel := context.WithTimeout(c.ctx, c.cfg.HandshakeTimeout)
	err := dc.HandshakeContext(ctx)
	cancel()
	c.finish(p)
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
