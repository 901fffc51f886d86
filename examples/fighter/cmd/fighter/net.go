package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/netip"
	"time"

	"github.com/rollstep/rollstep/examples/fighter/internal/match"
	"github.com/rollstep/rollstep/examples/internal/secret"
	"github.com/rollstep/rollstep/replay"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/dtls"
	"github.com/rollstep/rollstep/transport/udp"
)

// Transport addresses of the peers on this process's Conn.
const (
	addrOther     transport.Addr = 1 // the other player, in plaintext mode
	addrSpectator transport.Addr = 2 // player 0's spectator
	addrHost      transport.Addr = 0 // the host, on a spectator's Conn
)

// linger is how long a player keeps its session running after it
// confirmed every frame, so the other player can finish too.
const linger = 2 * time.Second

// listen opens a UDP socket on the numeric address addr ("ip:port").
func listen(addr string) (*net.UDPConn, error) {
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return nil, fmt.Errorf("-listen: %w", err)
	}
	network := "udp4"
	if ap.Addr().Is6() {
		network = "udp6"
	}
	return net.ListenUDP(network, net.UDPAddrFromAddrPort(ap))
}

// runPlayer plays one player's side of a match over a real network.
func runPlayer(o *options, w io.Writer) error {
	other, err := netip.ParseAddrPort(o.peer)
	if err != nil {
		return fmt.Errorf("-peer: %w", err)
	}
	sock, err := listen(o.listen)
	if err != nil {
		return err
	}
	var conn transport.Conn
	addr := addrOther
	var spectators []transport.Addr
	if o.psk != "" {
		conn, addr, err = openDTLS(o, sock, other)
	} else {
		peers := []udp.Peer{{ID: addrOther, Addr: other}}
		if o.spectator != "" {
			sa, perr := netip.ParseAddrPort(o.spectator)
			if perr != nil {
				_ = sock.Close()
				return fmt.Errorf("-spectator: %w", perr)
			}
			peers = append(peers, udp.Peer{ID: addrSpectator, Addr: sa})
			spectators = []transport.Addr{addrSpectator}
		}
		conn, err = udp.New(sock, udp.Config{Peers: peers})
	}
	if err != nil {
		return err
	}
	token, err := sessionToken(o, w)
	if err != nil {
		_ = conn.Close()
		return err
	}
	cfg := match.Config(o.player, addr, token, spectators)
	cfg.Rejoin = o.rejoin
	p, err := match.NewPeer(cfg, conn, o.frames, o.seed)
	if err != nil {
		_ = conn.Close()
		return err
	}
	defer p.Session.Close()
	clk, stop := match.NewClock(time.Millisecond)
	defer stop()
	start := time.Now()
	if err := match.RunRealtime([]*match.Peer{p}, clk, o.timeout, linger); err != nil {
		return err
	}
	s := p.Summary()
	mode := "UDP"
	if o.psk != "" {
		mode = "DTLS"
	}
	fmt.Fprintf(w, "fighter: player %d, %d frames over %s with %s, seed %d, %v\n", o.player, o.frames, mode, o.peer, o.seed, time.Since(start).Round(time.Millisecond))
	printPeer(w, o.player, s)
	if s.Counts.Rejoined > 0 {
		fmt.Fprintf(w, "rejoin: %d (the other player's process restarted, or this one did)\n", s.Counts.Rejoined)
	}
	fmt.Fprintf(w, "checksum: final %#016x\n", s.Checksum)
	printWinner(w, &s.Final)
	if o.replay != "" {
		rec, err := p.Replay(o.seed)
		if err != nil {
			return err
		}
		data := rec.Bytes()
		if err := replay.WriteFile(o.replay, data); err != nil {
			return err
		}
		fmt.Fprintf(w, "replay: %s, %d bytes\n", o.replay, len(data))
	}
	if s.Counts.Desyncs > 0 {
		return fmt.Errorf("%d desyncs", s.Counts.Desyncs)
	}
	if s.Counts.Lost > s.Counts.Rejoined {
		return fmt.Errorf("lost the other player during the match: it did not end together, and its final checksum may differ")
	}
	return nil
}

// sessionToken returns the match's session token: from -token if given,
// else derived from -psk, else, for player 0, drawn from crypto/rand and
// printed to w for the others. Player 1 and spectators must be given it.
func sessionToken(o *options, w io.Writer) (uint64, error) {
	if o.token == "" && o.psk != "" {
		return secret.FromPSK([]byte(o.psk)), nil
	}
	return secret.ForMatch(o.token, o.player == 0 && !o.spectate, "the other player and spectators", w)
}

// openDTLS returns a DTLS Conn to the other player and the other player's
// address on it: player 0 listens, player 1 dials. The listener's session
// waits for player 1's handshake in Update, within the session's
// handshake timeout, as over plain UDP.
func openDTLS(o *options, sock *net.UDPConn, other netip.AddrPort) (transport.Conn, transport.Addr, error) {
	key := []byte(o.psk)
	cfg := dtls.Config{PSK: func([]byte) ([]byte, error) { return key, nil }, PSKIdentity: []byte("rollstep-fighter")}
	if o.player == 1 {
		ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
		defer cancel()
		c, err := dtls.Dial(ctx, sock, net.UDPAddrFromAddrPort(other), cfg)
		return c, 0, err
	}
	cfg.FirstPeer = addrOther
	c, err := dtls.Listen(sock, cfg)
	return c, addrOther, err
}

// runSpectator watches player 0's match.
func runSpectator(o *options, w io.Writer) error {
	host, err := netip.ParseAddrPort(o.peer)
	if err != nil {
		return fmt.Errorf("-peer: %w", err)
	}
	sock, err := listen(o.listen)
	if err != nil {
		return err
	}
	token, err := sessionToken(o, w)
	if err != nil {
		_ = sock.Close()
		return err
	}
	conn, err := udp.New(sock, udp.Config{Peers: []udp.Peer{{ID: addrHost, Addr: host}}})
	if err != nil {
		return err
	}
	clk, stop := match.NewClock(time.Millisecond)
	defer stop()
	r, err := match.RunSpectator(conn, addrHost, token, o.frames, o.seed, clk, o.timeout)
	if err != nil {
		return err
	}
	if r.Frames < o.frames {
		return fmt.Errorf("the stream ended (%+v) after %d of %d frames", r.Lost, r.Frames, o.frames)
	}
	fmt.Fprintf(w, "fighter: spectator of %s, %d frames, seed %d\n", o.peer, r.Frames, o.seed)
	fmt.Fprintf(w, "checksum: final %#016x\n", r.Checksum)
	printWinner(w, &r.Final)
	return nil
}
