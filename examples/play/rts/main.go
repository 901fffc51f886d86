package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/rollstep/rollstep/examples/play/rts/internal/skirmish"
	"github.com/rollstep/rollstep/examples/rts"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

// options are the parsed command-line flags.
type options struct {
	bots, units int
	seed        uint64
	turn        time.Duration
	latency     time.Duration
	every       uint
	record      string
	replay      string
	screenshot  string
	frames      int
	autoplay    bool
}

// players returns the number of players of the live match.
func (o *options) players() int { return o.bots + 1 }

// errUsage reports a flag error already printed.
var errUsage = errors.New("usage")

// parse parses args, printing usage and errors to stderr.
func parse(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("rts", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.bots, "bots", 3, "bots against you, 1 to 7")
	fs.IntVar(&o.units, "units", 600, "units on the map, all players together, 0 to 10000")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the map, the bots and the simulated network")
	fs.DurationVar(&o.turn, "turn", 50*time.Millisecond, "turn length (one tick)")
	fs.DurationVar(&o.latency, "latency", 30*time.Millisecond, "one-way latency of the simulated network")
	fs.UintVar(&o.every, "every", 8, "the bots' mean turns between commands")
	fs.StringVar(&o.record, "record", "", "live mode: write a replay of the match to this file on exit")
	fs.StringVar(&o.replay, "replay", "", "play this replay file (as written by -record or examples/rts/cmd/rts -replay)")
	fs.StringVar(&o.screenshot, "screenshot", "", "after -frames updates, save the screen to this PNG file and exit")
	fs.IntVar(&o.frames, "frames", 120, "updates (60 a second) before the -screenshot")
	fs.BoolVar(&o.autoplay, "autoplay", false, "live mode: a script plays the human (select, move, attack-move)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, errUsage
	}
	switch {
	case fs.NArg() > 0:
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case o.bots < 1 || o.bots >= rts.MaxPlayers:
		return o, fmt.Errorf("-bots %d: want 1 to %d", o.bots, rts.MaxPlayers-1)
	case o.every == 0 || o.every > 1<<20:
		return o, fmt.Errorf("-every %d: want 1 to %d", o.every, 1<<20)
	case o.turn < time.Millisecond:
		return o, fmt.Errorf("-turn %v: want at least 1ms", o.turn)
	case o.frames < 1:
		return o, fmt.Errorf("-frames %d: want at least 1", o.frames)
	case o.replay != "" && o.record != "":
		return o, errors.New("-record: only in live mode, not with -replay")
	}
	return o, nil
}

// run runs the viewer and returns the exit code: 0 when it ended
// normally (window closed, or -screenshot saved), 1 on an error, 2 for a
// usage error.
func run(args []string, stderr io.Writer) int {
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
	if err := play(o); err != nil {
		fmt.Fprintf(stderr, "rts: %v\n", err)
		return 1
	}
	return 0
}

// play opens the replay or starts the match, and runs the window.
func play(o *options) error {
	var m *skirmish.Match
	var pb *skirmish.Playback
	if o.replay != "" {
		data, err := os.ReadFile(o.replay)
		if err != nil {
			return err
		}
		if pb, err = skirmish.OpenPlayback(data, tps); err != nil {
			return fmt.Errorf("%s: %w", o.replay, err)
		}
	} else {
		var err error
		m, err = skirmish.NewMatch(skirmish.MatchConfig{Players: o.players(), Units: o.units, Seed: o.seed, Turn: o.turn,
			Latency: o.latency, BotEvery: uint32(o.every), Record: o.record != ""})
		if err != nil {
			return err
		}
		defer m.Close()
	}
	v := newViewer(o, m, pb)
	ebiten.SetWindowSize(screenW, screenH)
	ebiten.SetWindowTitle("rollstep rts")
	ebiten.SetTPS(tps)
	err := ebiten.RunGame(v)
	if err == nil {
		err = v.err
	}
	if m != nil && o.record != "" {
		if werr := m.WriteReplay(o.record); err == nil {
			err = werr
		}
	}
	return err
}
