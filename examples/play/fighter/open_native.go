//go:build !js

package main

import (
	"fmt"
	"io"
	"net"
	"net/netip"

	"github.com/rollstep/rollstep/examples/internal/secret"
	"github.com/rollstep/rollstep/examples/play/internal/duel"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/udp"
)

// openDuel builds the local match, or the network one with -listen.
func openDuel(o *options, voices duel.Voices, stdout io.Writer) (*duel.Duel, error) {
	if o.listen == "" {
		humans := [2]bool{!o.autoplay, o.vs == "human"}
		return duel.Local(duel.LocalConfig{Humans: humans, Latency: o.latency, Jitter: o.jitter, Loss: o.loss, Seed: o.seed}, voices)
	}
	local, err := netip.ParseAddrPort(o.listen)
	if err != nil {
		return nil, fmt.Errorf("-listen: %w", err)
	}
	other, err := netip.ParseAddrPort(o.peer)
	if err != nil {
		return nil, fmt.Errorf("-peer: %w", err)
	}
	token, err := matchToken(o, stdout)
	if err != nil {
		return nil, err
	}
	network := "udp4"
	if local.Addr().Is6() {
		network = "udp6"
	}
	sock, err := net.ListenUDP(network, net.UDPAddrFromAddrPort(local))
	if err != nil {
		return nil, err
	}
	const otherAddr transport.Addr = 1
	conn, err := udp.New(sock, udp.Config{Peers: []udp.Peer{{ID: otherAddr, Addr: other}}})
	if err != nil {
		_ = sock.Close()
		return nil, err
	}
	d, err := duel.Remote(o.player, !o.autoplay, conn, otherAddr, token, token, voices)
	if err != nil {
		_ = conn.Close()
	}
	return d, err
}

// matchToken returns the token of a network match: -token, or for player
// 0 without one a fresh token from crypto/rand, printed for player 1.
func matchToken(o *options, stdout io.Writer) (uint64, error) {
	return secret.ForMatch(o.token, o.player == 0, "player 1", stdout)
}

// browserOptions is the browser build's reading of the page's query; a
// native build has its flags.
func browserOptions(*options) {}

// report is the browser build's progress report to its page; a native
// build has its window.
func report(*duel.Session) {}
