package sim

import (
	"fmt"
	"strings"
	"time"
)

// jitterSeparators are the spellings of ± that ParseLatency accepts; the
// first is the one String writes.
var jitterSeparators = []string{"±", "~", "+-"}

// spikeKeyword introduces a spike in the text form of a Latency.
const spikeKeyword = "spike"

// ParseLatency parses a latency profile written as BASE, BASE±JITTER (also
// BASE~JITTER or BASE+-JITTER), optionally followed by the word "spike"
// and a spike in the form ParseSpike accepts, each part a
// time.ParseDuration string: "50ms", "50ms±10ms",
// "50ms~10ms spike 400ms/600ms/2s". It returns a *ParseError that matches
// ErrSyntax for malformed text, or one of the errors of Latency.Validate.
// Latency.String is its inverse.
func ParseLatency(s string) (Latency, error) {
	const fn = "ParseLatency"
	fields := strings.Fields(s)
	var l Latency
	switch {
	case len(fields) == 3 && fields[1] == spikeKeyword:
		sp, err := parseSpike(fields[2])
		if err != nil {
			return Latency{}, &ParseError{Func: fn, Input: s, Err: err}
		}
		l.Spike = sp
	case len(fields) != 1:
		return Latency{}, syntaxError(fn, s, "want BASE or BASE±JITTER, optionally followed by \"spike H/S/P\"")
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
		return Latency{}, &ParseError{Func: fn, Input: s, Err: err}
	}
	if hasJitter {
		if l.Jitter, err = parseDuration(jitter); err != nil {
			return Latency{}, &ParseError{Func: fn, Input: s, Err: err}
		}
	}
	if err := l.validate("Latency"); err != nil {
		return Latency{}, &ParseError{Func: fn, Input: s, Err: err}
	}
	return l, nil
}

// ParseSpike parses a spike written as H/S/P, three time.ParseDuration
// strings: the one-way latency during a spike, its length and its period,
// as in "400ms/600ms/2s". It returns a *ParseError that matches ErrSyntax
// for text that is not three durations (such as "400ms" alone), ErrRange
// for a negative or too large height, ErrSpikePeriod for a period that is
// zero or negative, and ErrSpikeLength for a length that is zero,
// negative or longer than the period. Spike.String is its inverse.
func ParseSpike(s string) (Spike, error) {
	sp, err := parseSpike(s)
	if err != nil {
		return Spike{}, &ParseError{Func: "ParseSpike", Input: s, Err: err}
	}
	return sp, nil
}

// parseSpike is ParseSpike without the *ParseError wrapper. Unlike
// Spike.Validate it rejects the zero spike, whose period is zero.
func parseSpike(s string) (Spike, error) {
	parts := strings.Split(s, "/")
	if len(parts) != 3 {
		return Spike{}, fmt.Errorf("%w: want H/S/P (height/length/period), e.g. 400ms/600ms/2s", ErrSyntax)
	}
	var d [3]time.Duration
	for i, p := range parts {
		v, err := parseDuration(p)
		if err != nil {
			return Spike{}, err
		}
		d[i] = v
	}
	sp := Spike{Height: d[0], Length: d[1], Period: d[2]}
	if sp.Period <= 0 {
		return Spike{}, &ConfigError{Field: "Spike.Period", Value: sp.Period.String(), Err: ErrSpikePeriod}
	}
	return sp, sp.validate("Spike")
}

// parseDuration parses one trimmed duration, wrapping failures in
// ErrSyntax.
func parseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%w: %v", ErrSyntax, err)
	}
	return d, nil
}

// syntaxError returns a *ParseError matching ErrSyntax.
func syntaxError(fn, input, want string) error {
	return &ParseError{Func: fn, Input: input, Err: fmt.Errorf("%w: %s", ErrSyntax, want)}
}

// String returns s as H/S/P, the form ParseSpike reads, or "none" for the
// zero Spike.
func (s Spike) String() string {
	if s.IsZero() {
		return "none"
	}
	return s.Height.String() + "/" + s.Length.String() + "/" + s.Period.String()
}

// String returns l in the form ParseLatency reads: "50ms", "50ms±10ms" or
// "50ms±10ms spike 400ms/600ms/2s".
func (l Latency) String() string {
	s := l.Base.String()
	if l.Jitter != 0 {
		s += jitterSeparators[0] + l.Jitter.String()
	}
	if !l.Spike.IsZero() {
		s += " " + spikeKeyword + " " + l.Spike.String()
	}
	return s
}
