package dtls

import (
	"context"
	"errors"
	"net"

	piondtls "github.com/pion/dtls/v3"
)

// Dial runs a DTLS client handshake with the server at raddr over pc and
// returns a Conn whose one peer, Addr cfg.FirstPeer, is that server.
// Only datagrams from raddr reach the DTLS layer, and once the handshake
// has finished, plaintext records other than handshake retransmissions are
// dropped unread: anyone can make one, and the DTLS layer would end the
// association over it.
// The handshake is bounded by cfg.HandshakeTimeout and by ctx, whichever
// ends first. Dial owns pc from the start: it closes pc when it fails,
// and the Conn closes pc in Close.
//
// Dial returns a *transport.ConfigError (matching
// transport.ErrInvalidConfig) for an invalid cfg (in PSK mode it also
// requires cfg.PSKIdentity), and an error matching ErrHandshake when the
// handshake fails (an unpinned certificate: it also matches
// ErrPinMismatch) or, matching ErrHandshakeTimeout too, times out. A wrong
// pre-shared key is a timeout: the server drops the records it cannot
// authenticate and sends no alert, so cfg.HandshakeTimeout is also how
// long a misconfigured client waits.
func Dial(ctx context.Context, pc net.PacketConn, raddr net.Addr, cfg Config) (*Conn, error) {
	if err := cfg.validate(); err != nil {
		_ = pc.Close()
		return nil, err
	}
	if cfg.PSK != nil && len(cfg.PSKIdentity) == 0 {
		_ = pc.Close()
		return nil, configError("PSKIdentity", "a dialing Conn in PSK mode must present an identity")
	}
	cfg = cfg.withDefaults()
	var opts []piondtls.ClientOption
	for _, o := range cfg.options() {
		opts = append(opts, o)
	}
	g := newGuard(pc, raddr)
	dc, err := piondtls.ClientWithOptions(g, raddr, opts...)
	if err != nil {
		_ = pc.Close()
		return nil, &handshakeError{addr: raddr, err: err}
	}
	hctx, cancel := context.WithTimeout(ctx, cfg.HandshakeTimeout)
	defer cancel()
	if err := dc.HandshakeContext(hctx); err != nil {
		_ = dc.Close()
		return nil, &handshakeError{addr: raddr, err: err, timeout: errors.Is(hctx.Err(), context.DeadlineExceeded)}
	}
	g.established.Store(true)
	c := newConn(cfg)
	c.local, c.guard = pc.LocalAddr(), g
	c.add(dc)
	return c, nil
}
