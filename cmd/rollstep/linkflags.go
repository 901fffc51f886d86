package main

import (
	"flag"
	"fmt"
	"time"

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
	l, err := sim.ParseLatency(*lf.latency)
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
		if !l.Spike.IsZero() {
			return c, fmt.Errorf("-spike %s: -latency %q already has a spike", *lf.spike, *lf.latency)
		}
		if l.Spike, err = sim.ParseSpike(*lf.spike); err != nil {
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
