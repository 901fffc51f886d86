package main

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"net/netip"
	"os"
	"testing"
	"time"

	"github.com/rollstep/rollstep/internal/probe"

	"github.com/rollstep/rollstep"

	"github.com/rollstep/rollstep/cmd/rollstep/internal/udpproxy"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/internal/testenv"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
	"github.com/rollstep/rollstep/transport/udp"
)

// proxiedFrames is the number of frames the sessions of
// TestRollbackThroughProxy must both confirm: 2 s of play at 60 frames/s
// by default, 10 s in the soak run.
var proxiedFrames = testenv.Pick[core.Frame](120, 600)

// recordingFighter is the fighter game recording, for every frame f below
// len(sums), the checksum of the state after simulating f, and that state
// itself after the last of them. A later simulation of a frame (a
// rollback) overwrites its record, so once f is confirmed its record is
// the confirmed state's.
type recordingFighter struct {
	sums  []uint64
	final fighter.State
}

// Step runs fighter.Game's step and records the result.
func (g *recordingFighter) Step(s *fighter.State, in []core.Input[fighter.Input], fx core.Effects) {
	fighter.Game{}.Step(s, in, fx)
	f := int(s.Frame) - 1
	if f >= 0 && f < len(g.sums) {
		g.sums[f] = state.Checksum(s)
	}
	if f == len(g.sums)-1 {
		g.final = *s
	}
}

// proxiedPeer is one side of TestRollbackThroughProxy.
type proxiedPeer struct {
	s      *rollstep.Session[fighter.State, fighter.Input]
	game   *recordingFighter
	events []core.Event
}

// listenLoopback opens a UDP socket on a free port of 127.0.0.1, closed
// at the end of the test if nothing else closed it, or skips the test
// when the machine has none.
func listenLoopback(t *testing.T) *net.UDPConn {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Skipf("no loopback UDP: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// proxiedAddr returns the address from which b receives what a sends
// through the proxy at proxy: the proxy opens one socket towards its
// upstream per client address, on a port the kernel picks, and tells
// nobody. It sends a probe from a every 250 ms until one reaches b (the
// proxy may lose some) and returns its source address. A probe that
// arrives after proxiedAddr returned is dropped by b's endpoint as a
// malformed packet.
func proxiedAddr(ctx context.Context, a, b *net.UDPConn, proxy netip.AddrPort) (netip.AddrPort, error) {
	const probe = "rollstep probe"
	buf := make([]byte, 64)
	defer b.SetReadDeadline(time.Time{})
	for ctx.Err() == nil {
		if _, err := a.WriteToUDPAddrPort([]byte(probe), proxy); err != nil {
			return netip.AddrPort{}, err
		}
		if err := b.SetReadDeadline(time.Now().Add(250 * time.Millisecond)); err != nil {
			return netip.AddrPort{}, err
		}
		for {
			n, from, err := b.ReadFromUDPAddrPort(buf)
			if errors.Is(err, os.ErrDeadlineExceeded) {
				break // lost: send another
			}
			if err != nil {
				return netip.AddrPort{}, err
			}
			if string(buf[:n]) == probe {
				return from, nil
			}
		}
	}
	return netip.AddrPort{}, ctx.Err()
}

// newProxiedPeer returns player i of a 2-player rollback match of the
// fighter game over conn, whose peer 1-i is the other player, recording
// the checksums of frames 0 to frames-1, closed at the end of the test.
func newProxiedPeer(t *testing.T, i int, conn transport.Conn, frames core.Frame) *proxiedPeer {
	t.Helper()
	cfg := rollstep.Config{
		Mode:     rollstep.Rollback,
		Players:  2,
		Local:    []core.PlayerHandle{core.PlayerHandle(i)},
		Peers:    []rollstep.Peer{{Addr: transport.Addr(1 - i), Players: []core.PlayerHandle{core.PlayerHandle(1 - i)}}},
		TickRate: 60,
		Game:     [16]byte{'f', 'i', 'g', 'h', 't', 'e', 'r'},
		Transport: transport.Config{
			Token: 0x9e0c_5e55_1015_0600,
			Rand:  rand.NewChaCha8([32]byte{byte(i), 'p', 'r', 'o', 'x', 'y'}),
		},
	}
	p := &proxiedPeer{game: &recordingFighter{sums: make([]uint64, frames)}}
	var err error
	p.s, err = rollstep.NewSession[fighter.State, fighter.Input](cfg, p.game, fighter.New(3), conn)
	if err != nil {
		conn.Close()
		t.Fatalf("rollstep.NewSession: %v", err)
	}
	t.Cleanup(func() { p.s.Close() })
	return p
}

// playProxied runs the sessions of peers on the real clock, paced by a
// 1 ms ticker, until both have confirmed frame frames-1, failing the test
// if ctx ends first.
func playProxied(ctx context.Context, t *testing.T, peers []*proxiedPeer, frames core.Frame) {
	t.Helper()
	bots := fighter.BotInputs(3)
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	start := time.Now()
	for {
		now := time.Since(start)
		done := true
		for i, p := range peers {
			player := core.PlayerHandle(i)
			if err := p.s.AddLocalInput(player, bots(player, p.s.Frame())); err != nil {
				t.Fatalf("peer %d: AddLocalInput: %v", i, err)
			}
			if err := p.s.Update(now); err != nil {
				t.Fatalf("peer %d: Update at %v: %v", i, now, err)
			}
			p.events = append(p.events, p.s.Events()...)
			if c, ok := p.s.ConfirmedFrame(); !ok || c < frames-1 {
				done = false
			}
		}
		if done {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%d frames not confirmed in time: frames %d and %d", frames, peers[0].s.Frame(), peers[1].s.Frame())
		case <-tick.C:
		}
	}
}

// TestRollbackThroughProxy plays two rollback sessions of the fighter game
// in this process over real UDP sockets on 127.0.0.1, with every datagram
// passing through the proxy of rollstep proxy, which delays each by 50 ms
// and loses 5 % of them in each direction. Peer A sends to the proxy, the
// proxy forwards to peer B. The sessions run at 60 frames/s on the real
// clock, paced by a ticker, until both have confirmed proxiedFrames frames
// (120 by default, 600 in the soak run), within a 30 s deadline (2.5 s or
// 10.5 s in practice). They must have recorded the same checksum at every
// frame both confirmed and the same state after the last frame, with no
// desync and no lost peer.
//
// It is skipped with -short: it takes real time and real sockets, and
// CI's emulated targets run -short.
func TestRollbackThroughProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("real sockets and real time")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()

	socks := [2]*net.UDPConn{listenLoopback(t), listenLoopback(t)}
	link := sim.LinkConfig{Latency: sim.Latency{Base: 50 * time.Millisecond}, Loss: 0.05}
	px, stopProxy := runProxyFor(ctx, t, socks[1], link, 6)
	defer stopProxy()

	viaProxy, err := proxiedAddr(ctx, socks[0], socks[1], px.Addr().AddrPort())
	if err != nil {
		t.Fatalf("learning A's address behind the proxy: %v", err)
	}
	// A sends to the proxy; B sends to the proxy's socket for A.
	remote := [2]netip.AddrPort{px.Addr().AddrPort(), viaProxy}
	peers := make([]*proxiedPeer, 2)
	for i := range peers {
		conn, err := udp.New(socks[i], udp.Config{Peers: []udp.Peer{{ID: transport.Addr(1 - i), Addr: remote[i]}}})
		if err != nil {
			t.Fatalf("udp.New: %v", err)
		}
		peers[i] = newProxiedPeer(t, i, conn, proxiedFrames)
	}
	start := time.Now()
	playProxied(ctx, t, peers, proxiedFrames)
	elapsed := time.Since(start)

	common := proxiedFrames - 1
	for i, p := range peers {
		for _, ev := range p.events {
			switch e := ev.(type) {
			case core.DesyncEvent[fighter.State]:
				t.Errorf("peer %d: desync with peer %d at frame %d", i, e.Peer, e.Frame)
			case core.PeerLostEvent:
				t.Errorf("peer %d: lost peer %d: %+v", i, e.Peer, e)
			}
		}
		if st := probe.EngineStats(p.s); st.LostCorrections != 0 || st.UncheckedFrames != 0 {
			t.Errorf("peer %d: LostCorrections %d, UncheckedFrames %d", i, st.LostCorrections, st.UncheckedFrames)
		}
		st := p.s.Stats()
		if rtt := st.Peers[0].RTT; rtt < 100*time.Millisecond {
			t.Errorf("peer %d: RTT %v, want at least the proxy's 2 × 50 ms", i, rtt)
		}
		c, _ := p.s.ConfirmedFrame()
		common = min(common, c)
		t.Logf("peer %d: confirmed frame %d, RTT %v, D %d, %d rollbacks, %d frames re-simulated, stall %v",
			i, c, st.Peers[0].RTT, p.s.Stats().Delay, st.Rollbacks, st.ResimFrames, st.Stall)
	}
	for f := range common + 1 {
		if a, b := peers[0].game.sums[f], peers[1].game.sums[f]; a != b {
			t.Fatalf("frame %d: checksums %#x and %#x differ", f, a, b)
		}
	}
	a, b := &peers[0].game.final, &peers[1].game.final
	if *a != *b || core.Frame(a.Frame) != proxiedFrames {
		t.Fatalf("states after %d frames differ: %#x (frame %d) and %#x (frame %d)",
			proxiedFrames, state.Checksum(a), a.Frame, state.Checksum(b), b.Frame)
	}

	r := stopProxy()
	if r.err != nil {
		t.Errorf("proxy Run: %v", r.err)
	}
	t.Logf("%d frames agreed in %v; proxy up: %d received, %d lost; down: %d received, %d lost",
		common+1, elapsed.Round(time.Millisecond), r.st.Up.Received.Packets, r.st.Up.Lost.Packets,
		r.st.Down.Received.Packets, r.st.Down.Lost.Packets)
	if r.st.Clients != 1 {
		t.Errorf("proxy served %d clients, want 1 (peer A)", r.st.Clients)
	}
	if r.st.Up.Lost.Packets == 0 || r.st.Down.Lost.Packets == 0 {
		t.Errorf("the proxy lost nothing (up %d, down %d): the test proves nothing about loss",
			r.st.Up.Lost.Packets, r.st.Down.Lost.Packets)
	}
}

// TestFirstContactThroughProxy plays a short rollback match like
// TestRollbackThroughProxy (20 ms each way, 5 % loss), but the host, B,
// is configured without its client's address: the udp.Conn lists peer A
// with the zero address and accepts unknown sources, and B's endpoint
// adopts the proxy's per-client port, which nobody told it, at A's first
// Hello (first contact). Both sessions must confirm 90 frames (180 in the
// soak run) with equal checksums within 10 s (about 2 s in practice). It
// is skipped with -short, like TestRollbackThroughProxy.
func TestFirstContactThroughProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("real sockets and a few seconds of real time")
	}
	frames := testenv.Pick[core.Frame](90, 180)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()

	socks := [2]*net.UDPConn{listenLoopback(t), listenLoopback(t)}
	link := sim.LinkConfig{Latency: sim.Latency{Base: 20 * time.Millisecond}, Loss: 0.05}
	px, stopProxy := runProxyFor(ctx, t, socks[1], link, 7)
	defer stopProxy()

	client, err := udp.New(socks[0], udp.Config{Peers: []udp.Peer{{ID: 1, Addr: px.Addr().AddrPort()}}})
	if err != nil {
		t.Fatalf("udp.New(client): %v", err)
	}
	host, err := udp.New(socks[1], udp.Config{Peers: []udp.Peer{{ID: 0}}, AcceptUnknown: true})
	if err != nil {
		t.Fatalf("udp.New(host) with an unbound peer: %v", err)
	}
	peers := []*proxiedPeer{newProxiedPeer(t, 0, client, frames), newProxiedPeer(t, 1, host, frames)}
	start := time.Now()
	playProxied(ctx, t, peers, frames)
	elapsed := time.Since(start)

	for i, p := range peers {
		for _, ev := range p.events {
			switch e := ev.(type) {
			case core.DesyncEvent[fighter.State]:
				t.Errorf("peer %d: desync with peer %d at frame %d", i, e.Peer, e.Frame)
			case core.PeerLostEvent:
				t.Errorf("peer %d: lost peer %d: %+v", i, e.Peer, e)
			}
		}
	}
	for f := range frames {
		if a, b := peers[0].game.sums[f], peers[1].game.sums[f]; a != b {
			t.Fatalf("frame %d: checksums %#x and %#x differ", f, a, b)
		}
	}
	// The host learnt A at the proxy's port for A, not at A's own address
	// or the proxy's listening one: its datagrams to A reached the proxy
	// from upstream.
	pst := px.Stats()
	if pst.Clients != 1 || pst.Down.Received.Packets == 0 {
		t.Errorf("proxy: %d clients, %d datagrams from the host; want 1 client and its replies", pst.Clients, pst.Down.Received.Packets)
	}
	ts := probe.Transport(peers[1].s).Peers[0]
	if ts.FirstContacts != 1 || ts.Rebinds != 0 {
		t.Errorf("host: FirstContacts %d, Rebinds %d; want 1, 0", ts.FirstContacts, ts.Rebinds)
	}
	t.Logf("%d frames agreed in %v; the host learnt A from its first Hello (%d ambiguous Hellos)",
		frames, elapsed.Round(time.Millisecond), probe.Transport(peers[1].s).Ambiguous)
}

// proxyResult is what a proxy's Run returned.
type proxyResult struct {
	st  udpproxy.Stats
	err error
}

// runProxyFor runs a proxy in front of upstream with link both ways until
// ctx ends or stop is called. stop cancels it, waits for its Run to return
// (which it does once its sockets are closed) and returns what it
// returned; calling it again returns the same.
func runProxyFor(ctx context.Context, t *testing.T, upstream *net.UDPConn, link sim.LinkConfig, seed uint64) (px *udpproxy.Proxy, stop func() proxyResult) {
	t.Helper()
	px, err := udpproxy.New(udpproxy.Config{Upstream: upstream.LocalAddr().String(), Up: link, Down: link, Seed: seed})
	if err != nil {
		t.Fatalf("udpproxy.New: %v", err)
	}
	pxCtx, cancel := context.WithCancel(ctx)
	ran := make(chan proxyResult, 1)
	go func() {
		st, err := px.Run(pxCtx)
		ran <- proxyResult{st, err}
	}()
	var (
		final   proxyResult
		stopped bool
	)
	return px, func() proxyResult {
		if !stopped {
			cancel()
			final, stopped = <-ran, true
		}
		return final
	}
}
