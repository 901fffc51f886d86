// Command fighter plays the rollstep fighter example (package
// examples/fighter) between two bots, and prints a short summary: frames,
// rollbacks, stalls, the final checksum and the winner.
//
// Headless, between two peers on a simulated network in virtual time
// (as fast as the CPU allows):
//
//	fighter -sim -latency 100ms -loss 0.05 -frames 3600 -seed 1
//
// As two real processes over UDP on one machine: player 0 draws the
// match's session token from crypto/rand and prints it; the other player
// (and a spectator) must be given it with -token:
//
//	fighter -listen 127.0.0.1:7000 -peer 127.0.0.1:7001 -player 0
//	fighter -listen 127.0.0.1:7001 -peer 127.0.0.1:7000 -player 1 -token TOKEN
//
// The token is the match's secret: whoever knows it can forge packets the
// players accept, so hand it over as you would a password. With -psk
// SECRET on both players the match runs over DTLS with that pre-shared key
// (player 0 is then the DTLS server), and the token is derived from it.
//
// With a spectator of player 0 (plaintext UDP only): give player 0
// -spectator 127.0.0.1:7002 and run
//
//	fighter -spectate -listen 127.0.0.1:7002 -peer 127.0.0.1:7000 -token TOKEN
//
// Every process of a match must use the same -seed and -frames. Both
// players print the same final checksum; so does the spectator. A player
// that lost the other during the match says so and exits with status 1:
// the match did not end together. -replay FILE writes a replay of the
// match (package replay), with a checksum every second, that
// replay.Open and replay.VerifyData check.
//
// A player whose process was killed mid-match comes back into it: start it
// again with the same flags (and -token) plus -rejoin. It takes the match's
// state from the other player, plays on, and both print the same final
// checksum.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/examples/fighter/internal/match"
	"github.com/rollstep/rollstep/examples/internal/secret"
	"github.com/rollstep/rollstep/replay"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// options are the parsed flags.
type options struct {
	sim        bool
	latency    time.Duration
	loss       float64
	frames     int
	seed       uint64
	listen     string
	peer       string
	player     int
	psk        string
	token      string
	spectator  string
	spectate   bool
	timeout    time.Duration
	noSpectate bool
	replay     string
	rejoin     bool
}

// parse reads the flags; it reports usage errors to stderr.
func parse(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("fighter", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&o.sim, "sim", false, "play both peers headless on a simulated network")
	fs.DurationVar(&o.latency, "latency", 100*time.Millisecond, "one-way latency of the simulated network")
	fs.Float64Var(&o.loss, "loss", 0.05, "datagram loss probability of the simulated network, 0 to 1")
	fs.BoolVar(&o.noSpectate, "nospectator", false, "with -sim: no simulated spectator")
	fs.IntVar(&o.frames, "frames", 3600, "frames to play (60 per second)")
	fs.Uint64Var(&o.seed, "seed", 1, "match seed: initial state, bots and network")
	fs.StringVar(&o.listen, "listen", "", "local UDP address (real network)")
	fs.StringVar(&o.peer, "peer", "", "the other player's UDP address (or the host's, with -spectate)")
	fs.IntVar(&o.player, "player", 0, "the player this process plays, 0 or 1")
	fs.StringVar(&o.psk, "psk", "", "pre-shared key: use DTLS instead of plaintext UDP")
	fs.StringVar(&o.token, "token", "", "the match's session token (16 hex digits), as player 0 printed it; player 0 draws one if none is given")
	fs.StringVar(&o.spectator, "spectator", "", "player 0: a spectator's UDP address to stream the match to")
	fs.BoolVar(&o.spectate, "spectate", false, "watch the match of the host at -peer")
	fs.StringVar(&o.replay, "replay", "", "write the match's replay (player 0's, with -sim) to this file")
	fs.BoolVar(&o.rejoin, "rejoin", false, "this process restarts a player killed mid-match: come back into the running match (same -listen, -peer, -player and -token)")
	fs.DurationVar(&o.timeout, "timeout", 0, "real network: give up after this long (0: 3× the match plus 30 s)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	switch {
	case fs.NArg() > 0:
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	case o.frames < 1:
		return nil, fmt.Errorf("-frames %d: want at least 1", o.frames)
	case o.sim:
		if o.loss < 0 || o.loss > 1 {
			return nil, fmt.Errorf("-loss %v: want 0 to 1", o.loss)
		}
	case o.listen == "" || o.peer == "":
		return nil, fmt.Errorf("give -sim, or -listen and -peer for a real network")
	case o.player != 0 && o.player != 1:
		return nil, fmt.Errorf("-player %d: want 0 or 1", o.player)
	case o.spectator != "" && (o.player != 0 || o.psk != ""):
		return nil, fmt.Errorf("-spectator: only player 0 streams, over plaintext UDP")
	case o.rejoin && (o.spectate || o.token == "" && o.psk == ""):
		return nil, fmt.Errorf("-rejoin: a player comes back with the match's -token (or -psk)")
	case o.token == "" && o.psk == "" && (o.player != 0 || o.spectate):
		return nil, fmt.Errorf("-token: required to join a match: give the token player 0 printed")
	}
	if o.token != "" {
		if _, err := secret.Parse(o.token); err != nil {
			return nil, fmt.Errorf("-token: %w", err)
		}
	}
	if o.timeout == 0 {
		o.timeout = 3*time.Duration(o.frames)*time.Second/match.TickRate + 30*time.Second
	}
	return o, nil
}

// run is main with its arguments and outputs, for tests; it returns the
// exit code.
func run(args []string, stdout, stderr io.Writer) int {
	o, err := parse(args, stderr)
	if err != nil {
		if err != flag.ErrHelp {
			fmt.Fprintln(stderr, "fighter:", err)
		}
		return 2
	}
	switch {
	case o.sim:
		err = runSim(o, stdout)
	case o.spectate:
		err = runSpectator(o, stdout)
	default:
		err = runPlayer(o, stdout)
	}
	if err != nil {
		fmt.Fprintln(stderr, "fighter:", err)
		return 1
	}
	return 0
}

// runSim plays a headless match between two simulated peers.
func runSim(o *options, w io.Writer) error {
	start := time.Now()
	r, err := match.RunSim(match.SimConfig{Frames: o.frames, Latency: o.latency, Loss: o.loss, Seed: o.seed,
		Spectate: !o.noSpectate, Record: o.replay != ""})
	if err != nil {
		return err
	}
	wall := time.Since(start)
	fmt.Fprintf(w, "fighter: %d frames between 2 simulated peers, %v one way, %.1f%% loss, seed %d\n", o.frames, o.latency, 100*o.loss, o.seed)
	for i, s := range r.Peers {
		printPeer(w, i, s)
	}
	if r.HasMismatch {
		return fmt.Errorf("checksums differ from frame %d", r.Mismatch)
	}
	fmt.Fprintf(w, "checksums: all %d frames agree; final %#016x\n", r.Compared, r.Peers[0].Checksum)
	if r.Spectated {
		fmt.Fprintf(w, "spectator: final %#016x\n", r.Spectator)
	}
	printWinner(w, &r.Peers[0].Final)
	if o.replay != "" {
		data := r.Replay.Bytes()
		if err := replay.WriteFile(o.replay, data); err != nil {
			return err
		}
		fmt.Fprintf(w, "replay: %s, %d bytes\n", o.replay, len(data))
	}
	fmt.Fprintf(w, "virtual time %v, wall time %v (%.0f frames/s per peer)\n",
		r.VirtualTime.Round(time.Millisecond), wall.Round(time.Millisecond), float64(o.frames)/wall.Seconds())
	return nil
}

// printPeer prints one player's line of the summary.
func printPeer(w io.Writer, player int, s match.Summary) {
	fmt.Fprintf(w, "player %d: %d rollbacks (%d frames re-simulated), %d stalls (%v), D %d, RTT %v, desyncs %d\n",
		player, s.Rollbacks, s.ResimFrames, s.Stalls, s.StallTime.Round(time.Millisecond), s.Delay,
		s.RTT.Round(time.Millisecond), s.Counts.Desyncs)
}

// printWinner prints the match result from the final state.
func printWinner(w io.Writer, s *fighter.State) {
	a, b := s.Fighters[0].Wins, s.Fighters[1].Wins
	if p, ok := s.Winner(); ok {
		fmt.Fprintf(w, "winner: player %d, %d rounds to %d (round %d in progress)\n", p, max(a, b), min(a, b), s.Round)
		return
	}
	fmt.Fprintf(w, "winner: none, %d rounds each (round %d in progress)\n", a, s.Round)
}
