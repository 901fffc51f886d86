package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/rollstep/rollstep"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/internal/secret"
	"github.com/rollstep/rollstep/examples/rts"
	"github.com/rollstep/rollstep/replay"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/udp"
)

// parseOpen parses the -open list of players whose seats are open at the
// start, for a match of players.
func parseOpen(list string, players int) ([]bool, error) {
	open := make([]bool, players)
	if list == "" {
		return open, nil
	}
	for _, f := range strings.Split(list, ",") {
		p, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || p < 0 || p >= players {
			return nil, fmt.Errorf("-open: %q is not a player index 0 to %d", f, players-1)
		}
		open[p] = true
	}
	return open, nil
}

// parsePeers parses the -peer list: one address per player.
func parsePeers(list string) ([]netip.AddrPort, error) {
	var out []netip.AddrPort
	for _, f := range strings.Split(list, ",") {
		ua, err := net.ResolveUDPAddr("udp", strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("-peer %q: %w", f, err)
		}
		ap := ua.AddrPort()
		out = append(out, netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()))
	}
	return out, nil
}

// playUDP plays this process's player over real UDP against the other
// addresses of -peer, on the wall clock, and prints its report. It keeps
// the session running for a second after the last turn, so that the
// other peers receive its last inputs.
func playUDP(o *options, w io.Writer) error {
	addrs, err := parsePeers(o.peer)
	if err != nil {
		return err
	}
	players := len(addrs)
	if players < rts.MinPlayers || players > rts.MaxPlayers {
		return fmt.Errorf("-peer lists %d players, want %d to %d", players, rts.MinPlayers, rts.MaxPlayers)
	}
	if o.player < 0 || o.player >= players {
		return fmt.Errorf("-player %d: want 0 to %d", o.player, players-1)
	}
	listen := o.listen
	if listen == "" {
		listen = addrs[o.player].String()
	}
	la, err := net.ResolveUDPAddr("udp", listen)
	if err != nil {
		return fmt.Errorf("-listen: %w", err)
	}
	pc, err := net.ListenUDP("udp", la)
	if err != nil {
		return err
	}
	ids := make([]transport.Addr, players)
	var table []udp.Peer
	for p := range players {
		ids[p] = transport.Addr(p)
		if p != o.player {
			table = append(table, udp.Peer{ID: ids[p], Addr: addrs[p]})
		}
	}
	conn, err := udp.New(pc, udp.Config{Peers: table})
	if err != nil {
		pc.Close()
		return err
	}
	initial, err := rts.New(players, o.units, o.seed)
	if err != nil {
		conn.Close()
		return err
	}
	cfg := rts.SessionConfig(players, o.player, ids, o.period)
	cfg.Rejoin = o.rejoin
	open, err := parseOpen(o.open, players)
	if err != nil {
		conn.Close()
		return err
	}
	for i := range cfg.Peers {
		cfg.Peers[i].Open = open[cfg.Peers[i].Players[0]]
	}
	if cfg.Transport.Token, err = sessionToken(o, w); err != nil {
		conn.Close()
		return err
	}
	host := &rts.Host{Last: int32(o.turns)}
	if o.replay != "" {
		if host.Rec, err = rts.NewRecorder(players, o.period, o.seed, &initial); err != nil {
			conn.Close()
			return err
		}
	}
	sess, err := rollstep.NewSession(cfg, core.Game[rts.State, rts.Command](host), initial, conn)
	if err != nil {
		conn.Close()
		return err
	}
	defer sess.Close()
	if err := hostUDP(o, w, sess, host, open); err != nil {
		return err
	}
	return writeReplay(o, w, host)
}

// hostUDP is the game loop of playUDP: a bot's command at every new turn,
// then Update, every millisecond of the wall clock.
func hostUDP(o *options, w io.Writer, sess *rollstep.Session[rts.State, rts.Command], host *rts.Host, open []bool) error {
	timeout := o.timeout
	if timeout == 0 {
		timeout = 10*time.Duration(o.turns)*o.period + 30*time.Second
	}
	bot := rts.NewBot(o.player, uint32(o.every), o.seed)
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	start := time.Now()
	var fed core.Frame
	var doneAt time.Duration
	var st rollstep.Stats
	var sent []uint64 // bytes sent to each peer, IP and UDP headers included
	desyncs, dropped, rejoined := 0, 0, 0
	for {
		now := time.Since(start)
		if now > timeout {
			return fmt.Errorf("turn %d of %d after %v", sess.Frame(), o.turns, timeout)
		}
		if f := sess.Frame(); f >= fed {
			err := sess.AddLocalInput(core.PlayerHandle(o.player), bot.Next(sess.State()))
			if err != nil && !errors.Is(err, rollstep.ErrQueueFull) {
				return err
			}
			fed = f + 1
		}
		if err := sess.Update(now); err != nil {
			return err
		}
		for _, ev := range sess.Events() {
			switch e := ev.(type) {
			case core.DesyncEvent[rts.State]:
				desyncs++
			case core.RejoinEvent:
				switch {
				case e.Err != nil:
					fmt.Fprintf(w, "rejoin: %v\n", e.Err)
				case e.Peer < 0:
					fmt.Fprintf(w, "joined the running match: plays from turn %d\n", e.Return)
				default:
					rejoined++         // a player dropped at its crash (or an open seat's) is back
					who := int(e.Peer) // peer i is player i, skipping our own
					if who >= o.player {
						who++
					}
					fmt.Fprintf(w, "player %d joined: plays from turn %d\n", who, e.Return)
				}
			case core.DisconnectEvent:
				// A player that played every turn and then left is not
				// dropped: its inputs stop after the last turn.
				// Nor is an open seat nobody took yet.
				if e.Frame < core.Frame(o.turns) && (e.Frame > 0 || !open[e.Player]) {
					dropped++
				}
			}
		}
		if host.Done && doneAt == 0 {
			doneAt, st = now, sess.Stats()
			for _, ps := range st.Peers {
				sent = append(sent, ps.BytesSent) // with IP and UDP headers
			}
		}
		if host.Done && now-doneAt > time.Second {
			break
		}
		<-tick.C
	}
	fmt.Fprintf(w, "rts: player %d of %d over UDP, %d units, %d turns of %v, seed %d\n", o.player, len(st.Peers)+1, o.units, o.turns, o.period, o.seed)
	var total uint64
	for i, b := range sent {
		total += b
		to := i // peer i is player to: players in order, skipping our own
		if to >= o.player {
			to++
		}
		fmt.Fprintf(w, "to player %d: upload %.0f B/s, waited %.3f s for it\n", to, float64(b)/doneAt.Seconds(), st.Peers[i].Stall.Seconds())
	}
	fmt.Fprintf(w, "upload %.0f B/s, stall %.3f s (%d turns), D=%d, %v wall time\n", float64(total)/doneAt.Seconds(), st.Stall.Seconds(), st.StalledFrames, st.Delay, doneAt.Round(time.Millisecond))
	if desyncs > 0 {
		return fmt.Errorf("%d desyncs detected", desyncs)
	}
	if dropped > rejoined {
		return fmt.Errorf("%d players dropped during the match: it did not end together, and their final checksums may differ", dropped)
	}
	fmt.Fprintf(w, "checksum %#016x after turn %d, %d units died\n", state.Checksum(&host.Final), o.turns, host.Final.Deaths)
	return nil
}

// sessionToken returns the match's session token: -token if given, else,
// for player 0, one drawn from crypto/rand and printed to w for the others
// (parse requires -token of every other player).
func sessionToken(o *options, w io.Writer) (uint64, error) {
	return secret.ForMatch(o.token, o.player == 0, "the other players", w)
}

// writeReplay writes the replay host recorded to the -replay file, if
// any, atomically.
func writeReplay(o *options, w io.Writer, host *rts.Host) error {
	if o.replay == "" {
		return nil
	}
	if host.Err != nil {
		return host.Err
	}
	if err := replay.WriteFile(o.replay, host.Rec.Bytes()); err != nil {
		return err
	}
	fmt.Fprintf(w, "replay: %d turns in %s\n", host.Rec.Frames(), o.replay)
	return nil
}
