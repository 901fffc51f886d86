package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/rollstep/rollstep/examples/units"
	"github.com/rollstep/rollstep/transport/sim"
)

// simMode is the -mode of rollstep sim.
type simMode string

const (
	modeLockstep simMode = "lockstep"
	modeRollback simMode = "rollback"
	modeAuto     simMode = "auto"
	modeBoth     simMode = "both" // lockstep, then rollback, on the same link
)

// nudge is a -nudge PEER:FRAME: add one unit to one field of that peer's
// state after it simulates that frame.
type nudge struct {
	peer  int
	frame int32
}

// simOptions is the parsed command line of rollstep sim.
type simOptions struct {
	mode         simMode
	peers        int
	turn         time.Duration // lockstep turn length
	ticksPerTurn int
	fps          int  // rollback frames per second
	delay        int  // fixed input delay D, when hasDelay
	hasDelay     bool // without -delay the delay controller runs
	prediction   int  // prediction window W, when hasPrediction
	hasPred      bool
	link         sim.LinkConfig
	units        int
	turns        int // lockstep length of the match
	frames       int // rollback length of the match
	seed         uint64
	nudge        nudge
	hasNudge     bool
	checkEvery   int
	json         bool
	chart        string
	script       lifeScript // -leave, -kill, -blackout and -late
	watch        []int      // -watch: the peers a spectator watches, one spectator each
}

// Defaults of rollstep sim: a bad link, to show what each mode costs.
const (
	defaultSimLatency = "80ms±20ms"
	defaultSimSpike   = "400ms/600ms/5s"
	defaultSimLoss    = 0.05
)

// parseSimFlags parses the flags of rollstep sim. It returns flag.ErrHelp
// for -h, errUsage for errors the flag package has reported on stderr, and
// otherwise an error naming the flag and its value.
func parseSimFlags(args []string, stderr io.Writer) (simOptions, error) {
	fs := flag.NewFlagSet("rollstep sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: rollstep sim [flags]

Runs a match of the demo game (units moving to targets, ordered by seeded
bots) between simulated peers on a virtual-time network, and reports per
peer: stall seconds, mean turn or frame period, rollbacks, re-simulated
frames, upload bytes per second (28 bytes of IP+UDP header counted per
datagram), input delay D and prediction window W over time, desyncs, and
whether all final checksums are equal. -leave, -kill, -blackout and -late
script the match's life cycle; the report then lists every peer's
life-cycle events and how its match ended, and groups the final checksums
of the peers that finished. The same flags and seed always give the same
output.

flags:
`)
		fs.PrintDefaults()
	}
	var o simOptions
	mode := fs.String("mode", string(modeBoth), "`mode`: lockstep, rollback, auto, or both (lockstep then rollback)")
	fs.IntVar(&o.peers, "peers", 2, "number of peers, one player each (1 to 16)")
	fs.DurationVar(&o.turn, "turn", 100*time.Millisecond, "lockstep turn `length`")
	fs.IntVar(&o.ticksPerTurn, "ticks-per-turn", 1, "simulation ticks per lockstep turn")
	fs.IntVar(&o.fps, "fps", 60, "rollback `frames` per second")
	delay := fs.Int("delay", 0, "fix the input delay D at `frames` (turns in lockstep) and turn the delay controller off")
	pred := fs.Int("prediction", 0, "prediction window W in `frames` (default: 0 in lockstep, 8 in rollback)")
	impair := registerLinkFlags(fs, defaultSimLatency)
	fs.IntVar(&o.units, "units", 200, "units in the demo game (0 to "+strconv.Itoa(units.MaxUnits)+")")
	fs.IntVar(&o.turns, "turns", 300, "lockstep turns to play")
	fs.IntVar(&o.frames, "frames", 1200, "rollback frames to play")
	fs.Uint64Var(&o.seed, "seed", 1, "`seed` of the network, the bots and the initial state")
	nudgeText := fs.String("nudge", "", "`PEER:FRAME`: add one unit to one field of that peer's state at that frame (0-based peer)")
	fs.IntVar(&o.checkEvery, "check-every", 1, "compare state checksums every `N` frames")
	fs.BoolVar(&o.json, "json", false, "print the report as JSON (schema in the package documentation)")
	fs.StringVar(&o.chart, "chart", "", "write an SVG timeline of every peer's turns, stalls, rollbacks and D to `file`")
	var leaves, kills, blackouts, cuts, lates, crashes, watches stringList
	fs.Var(&watches, "watch", "`PEER`: a spectator watches that peer's session from the start (repeatable); the report says whether it played the last frame on the peers' checksum")
	fs.Var(&leaves, "leave", "`PEER:FRAME`: that peer leaves cleanly when it reaches that frame (turn): it closes its session, which sends a Leave (repeatable)")
	fs.Var(&kills, "kill", "`PEER:FRAME`: that peer vanishes without a word when it reaches that frame (turn): its host stops updating it and never closes it (repeatable)")
	fs.Var(&blackouts, "blackout", "`START/DURATION`: every link drops every datagram from START for DURATION of virtual time, then heals, e.g. 2s/3s (repeatable)")
	fs.Var(&cuts, "cut", "`FROM:TO:START/DURATION`: the link from peer FROM to peer TO drops every datagram from START for DURATION of virtual time, the other direction working, e.g. 1:0:3s/4s (repeatable)")
	fs.Var(&crashes, "crash", "`PEER:FRAME:DOWNTIME`: that peer's process dies at that frame (turn) without a word and a new one of its seat starts DOWNTIME later and rejoins the match, e.g. 1:600:1s (repeatable)")
	fs.Var(&lates, "late", "`PEER:DELAY`: that peer's session exists from the start but is first updated at virtual time DELAY, the others at 0, e.g. 1:4s (repeatable)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, errUsage
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q (flags come as -name value)", fs.Arg(0))
	}
	set := visited(fs)
	o.mode = simMode(*mode)
	switch o.mode {
	case modeLockstep, modeRollback, modeAuto, modeBoth:
	default:
		return o, fmt.Errorf("-mode %q: want lockstep, rollback, auto or both", *mode)
	}
	if !set["latency"] && !set["spike"] && !set["loss"] {
		// The default is a bad link: a spike and loss on top of jitter.
		*impair.spike, *impair.loss = defaultSimSpike, defaultSimLoss
		set["spike"] = true
	}
	link, err := impair.link(set)
	if err != nil {
		return o, err
	}
	o.link = link
	o.hasDelay, o.delay = set["delay"], *delay
	o.hasPred, o.prediction = set["prediction"], *pred
	if set["nudge"] {
		if o.nudge, err = parseNudge(*nudgeText); err != nil {
			return o, err
		}
		o.hasNudge = true
	}
	if o.script, err = parseLifeScript(leaves, kills, blackouts, cuts, lates, crashes); err != nil {
		return o, err
	}
	for _, w := range watches {
		peer, err := strconv.Atoi(w)
		if err != nil || peer < 0 {
			return o, fmt.Errorf("-watch %q: want a peer index ≥ 0", w)
		}
		o.watch = append(o.watch, peer)
	}
	if err := o.check(); err != nil {
		return o, err
	}
	return o, o.script.check(&o)
}

// check validates the ranges of the numeric options.
func (o *simOptions) check() error {
	switch {
	case o.peers < 1 || o.peers > 16:
		return fmt.Errorf("-peers %d: want 1 to 16", o.peers)
	case o.turn <= 0:
		return fmt.Errorf("-turn %v: want a positive duration", o.turn)
	case o.ticksPerTurn < 1 || o.ticksPerTurn > 64:
		return fmt.Errorf("-ticks-per-turn %d: want 1 to 64", o.ticksPerTurn)
	case o.fps < 1 || o.fps > 1000:
		return fmt.Errorf("-fps %d: want 1 to 1000", o.fps)
	case o.hasDelay && (o.delay < 0 || o.delay > 64):
		return fmt.Errorf("-delay %d: want 0 to 64", o.delay)
	case o.hasPred && (o.prediction < 0 || o.prediction > 64):
		return fmt.Errorf("-prediction %d: want 0 to 64", o.prediction)
	case o.units < 0 || o.units > units.MaxUnits:
		return fmt.Errorf("-units %d: want 0 to %d", o.units, units.MaxUnits)
	case o.turns < 1 || o.turns > 1_000_000:
		return fmt.Errorf("-turns %d: want 1 to 1000000", o.turns)
	case o.frames < 1 || o.frames > 1_000_000:
		return fmt.Errorf("-frames %d: want 1 to 1000000", o.frames)
	case o.checkEvery < 1 || o.checkEvery > 1000:
		return fmt.Errorf("-check-every %d: want 1 to 1000", o.checkEvery)
	case o.hasNudge && o.nudge.peer >= o.peers:
		return fmt.Errorf("-nudge %d:%d: there are only %d peers (0-based)", o.nudge.peer, o.nudge.frame, o.peers)
	case len(o.watch) > 8:
		return fmt.Errorf("-watch given %d times: at most 8 spectators", len(o.watch))
	}
	for _, w := range o.watch {
		if w >= o.peers {
			return fmt.Errorf("-watch %d: there are only %d peers (0-based)", w, o.peers)
		}
	}
	return nil
}

// parseNudge parses PEER:FRAME.
func parseNudge(s string) (nudge, error) {
	p, f, ok := strings.Cut(s, ":")
	if !ok {
		return nudge{}, fmt.Errorf("-nudge %q: want PEER:FRAME, e.g. 1:61", s)
	}
	peer, err := strconv.Atoi(p)
	if err != nil || peer < 0 {
		return nudge{}, fmt.Errorf("-nudge %q: peer %q is not a peer index ≥ 0", s, p)
	}
	frame, err := strconv.ParseInt(f, 10, 32)
	if err != nil || frame < 0 {
		return nudge{}, fmt.Errorf("-nudge %q: frame %q is not a frame ≥ 0", s, f)
	}
	return nudge{peer: peer, frame: int32(frame)}, nil
}
