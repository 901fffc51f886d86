package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

// linkFlags are the impairment flags that rollstep sim and rollstep proxy
// share, so that a scenario tried on the simulator can be repeated through
// the proxy with the same words and the same meaning.
type linkFlags struct {
	latency      *string
	jitter       *time.Duration
	spike        *string
	loss         *float64
	dup          *float64
	reorder      *float64
	reorderDelay *time.Duration
}

// registerLinkFlags defines the impairment flags on fs with the given
// default latency text.
func registerLinkFlags(fs *flag.FlagSet, defaultLatency string) *linkFlags {
	return &linkFlags{
		latency:      fs.String("latency", defaultLatency, "one-way `latency`: BASE or BASE±JITTER (also BASE~JITTER, BASE+-JITTER), e.g. 50ms±10ms"),
		jitter:       fs.Duration("jitter", 0, "uniform `jitter` around the base latency, at most the base"),
		spike:        fs.String("spike", "", "periodic latency spike `H/S/P`: latency H for the first S of every period P, e.g. 400ms/600ms/2s"),
		loss:         fs.Float64("loss", 0, "`probability` in [0, 1] that a datagram is lost"),
		dup:          fs.Float64("dup", 0, "`probability` in [0, 1] that a datagram arrives twice"),
		reorder:      fs.Float64("reorder", 0, "`probability` in [0, 1] that a datagram is held back by -reorder-delay, out of order"),
		reorderDelay: fs.Duration("reorder-delay", 20*time.Millisecond, "extra `delay` of a reordered datagram"),
	}
}

// link returns the impairments the flags describe. set holds the names of
// the flags given on the command line, so that -jitter and -spike can
// refuse to silently override what -latency already says.
func (lf *linkFlags) link(set map[string]bool) (sim.LinkConfig, error) {
	var c sim.LinkConfig
	l, err := parseLatency(*lf.latency)
	if err != nil {
		return c, fmt.Errorf("-latency: %w", err)
	}
	if set["jitter"] {
		if l.Jitter != 0 {
			return c, fmt.Errorf("-jitter %v: -latency %q already has a jitter", *lf.jitter, *lf.latency)
		}
		l.Jitter = *lf.jitter
	}
	if set["spike"] {
		if l.Spike != (sim.Spike{}) {
			return c, fmt.Errorf("-spike %s: -latency %q already has a spike", *lf.spike, *lf.latency)
		}
		if l.Spike, err = parseSpike(*lf.spike); err != nil {
			return c, fmt.Errorf("-spike: %w", err)
		}
	}
	c.Latency = l
	for _, p := range []struct {
		name string
		v    float64
	}{{"loss", *lf.loss}, {"dup", *lf.dup}, {"reorder", *lf.reorder}} {
		if !(p.v >= 0 && p.v <= 1) {
			return c, fmt.Errorf("-%s %v: want a probability in [0, 1]", p.name, p.v)
		}
	}
	if *lf.reorderDelay <= 0 {
		return c, fmt.Errorf("-reorder-delay %v: want a positive duration", *lf.reorderDelay)
	}
	c.Loss, c.Duplicate, c.Reorder, c.ReorderDelay = *lf.loss, *lf.dup, *lf.reorder, *lf.reorderDelay
	return c, nil
}

// visited returns the names of the flags set on fs's command line.
func visited(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// jitterSeparators are the spellings of ± that parseLatency accepts; the
// first is the one sim.Latency.String writes.
var jitterSeparators = []string{"±", "~", "+-"}

// spikeKeyword introduces a spike in the text form of a latency.
const spikeKeyword = "spike"

// errSyntax is matched by the errors of parseLatency and parseSpike for
// text that is not in the form they read.
var errSyntax = errors.New("invalid syntax")

// parseLatency parses a latency profile written as BASE, BASE±JITTER (also
// BASE~JITTER or BASE+-JITTER), optionally followed by the word "spike"
// and a spike in the form parseSpike reads, each part a
// time.ParseDuration string: "50ms", "50ms±10ms",
// "50ms~10ms spike 400ms/600ms/2s". sim.Latency.String is its inverse. Its
// error quotes the text and matches errSyntax for malformed text, or
// transport.ErrInvalidConfig (a *transport.ConfigError) for a profile
// that a sim.Network refuses.
func parseLatency(s string) (sim.Latency, error) {
	fields := strings.Fields(s)
	var l sim.Latency
	switch {
	case len(fields) == 3 && fields[1] == spikeKeyword:
		sp, err := parseSpikeText(fields[2])
		if err != nil {
			return sim.Latency{}, fmt.Errorf("%q: %w", s, err)
		}
		l.Spike = sp
	case len(fields) != 1:
		return sim.Latency{}, fmt.Errorf("%q: %w: want BASE or BASE±JITTER, optionally followed by \"spike H/S/P\"", s, errSyntax)
	}
	base, jitter, hasJitter := fields[0], "", false
	for _, sep := range jitterSeparators {
		if b, j, ok := strings.Cut(fields[0], sep); ok {
			base, jitter, hasJitter = b, j, true
			break
		}
	}
	var err error
	if l.Base, err = parseDuration(base); err != nil {
		return sim.Latency{}, fmt.Errorf("%q: %w", s, err)
	}
	if hasJitter {
		if l.Jitter, err = parseDuration(jitter); err != nil {
			return sim.Latency{}, fmt.Errorf("%q: %w", s, err)
		}
	}
	if err := checkLink(sim.LinkConfig{Latency: l}); err != nil {
		return sim.Latency{}, fmt.Errorf("%q: %w", s, err)
	}
	return l, nil
}

// parseSpike parses a spike written as H/S/P, three time.ParseDuration
// strings: the one-way latency during a spike, its length and its period,
// as in "400ms/600ms/2s". sim.Spike.String is its inverse. Its error
// quotes the text and matches errSyntax for text that is not three
// durations (such as "400ms" alone), or transport.ErrInvalidConfig for a
// spike that a sim.Network refuses, or whose period is zero.
func parseSpike(s string) (sim.Spike, error) {
	sp, err := parseSpikeText(s)
	if err != nil {
		return sim.Spike{}, fmt.Errorf("%q: %w", s, err)
	}
	return sp, nil
}

// parseSpikeText is parseSpike without the quoted input. Unlike a
// sim.Network it rejects the zero spike, whose period is zero.
func parseSpikeText(s string) (sim.Spike, error) {
	parts := strings.Split(s, "/")
	if len(parts) != 3 {
		return sim.Spike{}, fmt.Errorf("%w: want H/S/P (height/length/period), e.g. 400ms/600ms/2s", errSyntax)
	}
	var d [3]time.Duration
	for i, p := range parts {
		v, err := parseDuration(p)
		if err != nil {
			return sim.Spike{}, err
		}
		d[i] = v
	}
	sp := sim.Spike{Height: d[0], Length: d[1], Period: d[2]}
	if sp.Period <= 0 {
		return sim.Spike{}, &transport.ConfigError{Field: "sim.LinkConfig.Latency.Spike.Period", Reason: sp.Period.String() + " is not positive"}
	}
	return sp, checkLink(sim.LinkConfig{Latency: sim.Latency{Spike: sp}})
}

// parseDuration parses one trimmed duration, wrapping failures in
// errSyntax.
func parseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%w: %v", errSyntax, err)
	}
	return d, nil
}

// checkLink returns the *transport.ConfigError with which a sim.Network
// refuses l, or nil.
func checkLink(l sim.LinkConfig) error {
	n, err := sim.New(sim.Config{})
	if err != nil {
		return err
	}
	return n.SetLink(0, 1, l)
}
