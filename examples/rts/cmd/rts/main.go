package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/rollstep/rollstep/examples/internal/secret"
	"github.com/rollstep/rollstep/examples/rts"
	"github.com/rollstep/rollstep/replay"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// options are the parsed command-line flags.
type options struct {
	peers, units, turns int
	period              time.Duration
	latency, jitter     time.Duration
	loss                float64
	seed                uint64
	every               uint
	replay              string

	listen  string
	peer    string
	player  int
	token   string
	timeout time.Duration
	rejoin  bool
	open    string
}

// errUsage reports a flag error already printed with the usage.
var errUsage = errors.New("usage")

// parse parses args into options, printing usage and errors to stderr.
func parse(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("rts", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.peers, "peers", 4, "simulated peers (players), 2 to 8")
	fs.IntVar(&o.units, "units", 1000, "units on the map, 0 to 10000")
	fs.IntVar(&o.turns, "turns", 600, "turns to play")
	fs.DurationVar(&o.period, "turn", 100*time.Millisecond, "turn length")
	fs.DurationVar(&o.latency, "latency", 40*time.Millisecond, "simulated one-way latency")
	fs.DurationVar(&o.jitter, "jitter", 0, "simulated latency jitter")
	fs.Float64Var(&o.loss, "loss", 0, "simulated loss probability, in [0, 1)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the map, the bots and the network (and the session token over UDP)")
	fs.UintVar(&o.every, "every", 4, "the bots' mean turns between commands")
	fs.StringVar(&o.replay, "replay", "", "record a replay of the match (peer 0's, or this player's over UDP) into this file")
	fs.StringVar(&o.listen, "listen", "", "UDP mode: local address (default: this player's entry of -peer)")
	fs.StringVar(&o.peer, "peer", "", "UDP mode: every player's address, comma-separated, in player order")
	fs.IntVar(&o.player, "player", 0, "UDP mode: this process's player index in -peer")
	fs.DurationVar(&o.timeout, "timeout", 0, "UDP mode: give up after this long (default: 10 × turns × turn + 30s)")
	fs.BoolVar(&o.rejoin, "rejoin", false, "UDP mode: this process restarts a player killed mid-match: come back into the running match (same -peer, -player and -token)")
	fs.StringVar(&o.open, "open", "", "UDP mode: players whose seats are open when the match starts (comma-separated indices): the others play without them, and a process started for one later with -rejoin drops in")
	fs.StringVar(&o.token, "token", "", "UDP mode: the match's session token (16 hex digits), as player 0 printed it; player 0 draws one if none is given")
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: rts [flags]

Plays an RTS match of bots in lockstep and prints each peer's upload in
bytes per second, its stall time and the final checksum.

  simulated: rts -peers 4 -units 5000 -turns 2000 -latency 40ms -loss 0.02
  real UDP:  rts -peer 127.0.0.1:7001,127.0.0.1:7002 -player 0   (then -player 1 -token TOKEN, with the token it printed)

flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "rts: unexpected argument %q\n", fs.Arg(0))
		return o, errUsage
	}
	if o.every == 0 || o.every > 1<<20 {
		return o, fmt.Errorf("-every %d: want 1 to %d", o.every, 1<<20)
	}
	if o.turns < 1 || o.turns > 1<<24 {
		return o, fmt.Errorf("-turns %d: want 1 to %d", o.turns, 1<<24)
	}
	if o.rejoin && (o.peer == "" || o.token == "") {
		return o, errors.New("-rejoin: a player comes back over UDP (-peer) with the match's -token")
	}
	if o.open != "" && o.peer == "" {
		return o, errors.New("-open: open seats are for a match over UDP (-peer)")
	}
	if o.peer != "" && o.player != 0 && o.token == "" {
		return o, errors.New("-token: required to join a match: give the token player 0 printed")
	}
	if o.token != "" {
		if _, err := secret.Parse(o.token); err != nil {
			return o, fmt.Errorf("-token: %w", err)
		}
	}
	return o, nil
}

// run runs the command and returns its exit code: 0 when the match was
// played and every peer agreed, 1 when it could not be played or the
// peers disagreed, 2 for a usage error.
func run(args []string, stdout, stderr io.Writer) int {
	o, err := parse(args, stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	case err != nil:
		fmt.Fprintf(stderr, "rts: %v\n", err)
		return 2
	}
	if o.peer != "" {
		err = playUDP(&o, stdout)
	} else {
		err = playSim(&o, stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "rts: %v\n", err)
		return 1
	}
	return 0
}

// errDisagree is returned when the peers' final checksums differ.
var errDisagree = errors.New("peers disagree")

// playSim plays the match over transport/sim and prints the report.
func playSim(o *options, w io.Writer) error {
	cfg := rts.SimConfig{Players: o.peers, Units: o.units, Turns: o.turns, TurnPeriod: o.period,
		Latency: o.latency, Jitter: o.jitter, Loss: o.loss, Seed: o.seed, BotEvery: uint32(o.every), Record: o.replay != ""}
	r, err := rts.PlaySim(cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "rts: %d peers, %d units, %d turns of %v over transport/sim (latency %v ± %v, loss %g), seed %d\n",
		o.peers, o.units, o.turns, o.period, o.latency, o.jitter, o.loss, o.seed)
	for i, p := range r.Peers {
		fmt.Fprintf(w, "peer %d: upload %.0f B/s, stall %.3f s (%d turns), D=%d\n", i, p.Upload, p.Stall.Seconds(), p.StalledTurns, p.Delay)
	}
	fmt.Fprintf(w, "virtual time %v, %d of %d units died\n", r.Elapsed, r.Final.Deaths, o.units)
	if !r.Agree() {
		sums := make([]string, len(r.Peers))
		for i, p := range r.Peers {
			sums[i] = fmt.Sprintf("%#016x", p.Checksum)
		}
		fmt.Fprintf(w, "checksums %s\n", strings.Join(sums, " "))
		return errDisagree
	}
	fmt.Fprintf(w, "checksum %#016x (all peers agree)\n", r.Peers[0].Checksum)
	if o.replay != "" {
		if err := replay.WriteFile(o.replay, r.Replay); err != nil {
			return err
		}
		fmt.Fprintf(w, "replay: %d bytes in %s\n", len(r.Replay), o.replay)
	}
	return nil
}
