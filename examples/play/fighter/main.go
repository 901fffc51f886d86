package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/rollstep/rollstep/examples/play/internal/duel"
)

// options are the command's flags.
type options struct {
	vs              string // "bot" or "human"
	autoplay        bool
	latency, jitter time.Duration
	loss            float64
	seed            uint64
	listen, peer    string
	player          int
	token           string
	overlay, mute   bool
	screenshot      string
	frames          int
	scale           float64
}

func main() {
	o, err := parseFlags(os.Args[1:], os.Stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		os.Exit(2)
	}
	browserOptions(o)
	if err := run(o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "fighter:", err)
		os.Exit(1)
	}
}

// parseFlags reads the command line.
func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("fighter", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.vs, "vs", "bot", `the other player on this machine: "bot" or "human" (two people at one keyboard)`)
	fs.BoolVar(&o.autoplay, "autoplay", false, "a bot plays your fighter too (a demo, and the screenshot test)")
	fs.DurationVar(&o.latency, "latency", 50*time.Millisecond, "one-way latency of the simulated link between the two local sessions")
	fs.DurationVar(&o.jitter, "jitter", 10*time.Millisecond, "jitter of that latency, at most -latency")
	fs.Float64Var(&o.loss, "loss", 0, "probability that the simulated link loses a datagram, 0 to 1")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the round starts and the bots (a network match takes the token)")
	fs.StringVar(&o.listen, "listen", "", `play over UDP: this machine's address ("ip:port")`)
	fs.StringVar(&o.peer, "peer", "", `with -listen: the other player's address ("ip:port")`)
	fs.IntVar(&o.player, "player", 0, "with -listen: your player, 0 or 1")
	fs.StringVar(&o.token, "token", "", "with -listen: the match token player 0 printed (player 1 only)")
	fs.BoolVar(&o.overlay, "overlay", false, "start with the network overlay shown (F1 or Tab toggles it)")
	fs.BoolVar(&o.mute, "mute", false, "no sound")
	fs.StringVar(&o.screenshot, "screenshot", "", "save the screen to this PNG file at frame -frames, then exit")
	fs.IntVar(&o.frames, "frames", 300, "with -screenshot: the frame to take it at")
	fs.Float64Var(&o.scale, "scale", 1, "window size as a multiple of 960×540")
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	var bad error
	switch {
	case fs.NArg() > 0:
		bad = fmt.Errorf("unexpected arguments %q", fs.Args())
	case o.vs != "bot" && o.vs != "human":
		bad = fmt.Errorf(`-vs %q: want "bot" or "human"`, o.vs)
	case o.listen != "" && o.peer == "":
		bad = errors.New("-listen needs -peer")
	case o.listen != "" && o.vs == "human":
		bad = errors.New("-vs human plays on one machine: leave out -listen")
	case o.player != 0 && o.player != 1:
		bad = fmt.Errorf("-player %d: want 0 or 1", o.player)
	case o.jitter > o.latency:
		bad = fmt.Errorf("-jitter %v exceeds -latency %v", o.jitter, o.latency)
	case o.loss < 0 || o.loss > 1:
		bad = fmt.Errorf("-loss %v: want 0 to 1", o.loss)
	case o.scale <= 0:
		bad = fmt.Errorf("-scale %v: want a positive number", o.scale)
	case o.screenshot != "" && o.frames <= 0:
		bad = fmt.Errorf("-frames %d: want a positive frame", o.frames)
	}
	if bad != nil {
		fmt.Fprintln(stderr, "fighter:", bad)
		fs.Usage()
		return nil, bad
	}
	return o, nil
}

const usage = `fighter-play: the rollstep fighter in a window, against a bot, a second
player at the same keyboard, or a player on another machine over UDP.

  go run ./fighter                        # you against a bot, 50 ms away
  go run ./fighter -vs human              # two people, one keyboard
  go run ./fighter -listen 0.0.0.0:7000 -peer 192.0.2.8:7001          # player 0: prints a token
  go run ./fighter -listen 0.0.0.0:7001 -peer 192.0.2.7:7000 -player 1 -token T

Keys: player 0 (or you alone) A/D walk, W jump, S crouch, F attack, G block
(arrows, Z and X also work when you play alone); player 1 arrows, K attack,
L block. F1 or Tab: network overlay. P: pause. Esc: quit.

Flags:
`

// run builds the match and plays it in a window until it is closed.
func run(o *options, stdout io.Writer) error {
	voices, err := newSounds(o.mute, stdout)
	if err != nil {
		return err
	}
	g := newGame(o, func() (*duel.Duel, error) { return openDuel(o, voices, stdout) })
	defer g.close()
	ebiten.SetWindowTitle("rollstep fighter")
	ebiten.SetWindowSize(int(screenW*o.scale), int(screenH*o.scale))
	ebiten.SetTPS(renderRate)
	err = ebiten.RunGame(g)
	if errors.Is(err, ebiten.Termination) {
		err = nil
	}
	if err == nil {
		err = g.err()
	}
	return err
}
