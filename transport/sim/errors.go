package sim

import (
	"errors"
	"strconv"
)

// ErrSyntax is matched by a *ParseError for text that is not in the form
// the parser expects, such as "400ms" given to ParseSpike.
var ErrSyntax = errors.New("sim: invalid syntax")

// ErrRange is matched by a *ConfigError for a value outside its bounds: a
// negative or too long duration, a negative bandwidth, a probability
// outside [0, 1], or a jitter larger than the base latency.
var ErrRange = errors.New("sim: value out of range")

// ErrSpikePeriod is matched by a *ConfigError for a spike whose period is
// zero or negative.
var ErrSpikePeriod = errors.New("sim: spike period must be positive")

// ErrSpikeLength is matched by a *ConfigError for a spike whose length is
// zero or negative, or longer than its period.
var ErrSpikeLength = errors.New("sim: spike length must be positive and at most the period")

// ErrScheduleOrder is matched by a *ConfigError for a latency schedule whose
// steps do not start at strictly increasing, non-negative times.
var ErrScheduleOrder = errors.New("sim: schedule steps out of order")

// ConfigError describes an invalid field of a Config, LinkConfig, Latency
// or Spike. It unwraps to one of ErrRange, ErrSpikePeriod, ErrSpikeLength
// or ErrScheduleOrder.
type ConfigError struct {
	// Field names the field, for example "Link.Latency.Spike.Period".
	Field string
	// Value is the offending value as text.
	Value string
	// Err is the sentinel that says what is wrong.
	Err error
}

// Error returns a message naming the field, its value and the problem.
func (e *ConfigError) Error() string {
	return "sim: " + e.Field + " = " + e.Value + ": " + trimPrefix(e.Err.Error())
}

// Unwrap returns the sentinel error.
func (e *ConfigError) Unwrap() error { return e.Err }

// ParseError is returned by ParseLatency and ParseSpike. Err is ErrSyntax,
// an error from time.ParseDuration wrapped with it, or a *ConfigError when
// the text parses but the value is invalid.
type ParseError struct {
	// Func is the parser, "ParseLatency" or "ParseSpike".
	Func string
	// Input is the text that failed to parse.
	Input string
	// Err says why.
	Err error
}

// Error returns a message quoting the input.
func (e *ParseError) Error() string {
	return "sim: " + e.Func + " " + strconv.Quote(e.Input) + ": " + trimPrefix(e.Err.Error())
}

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }

// trimPrefix drops the package prefix from a nested message so that it is
// not repeated.
func trimPrefix(s string) string {
	const p = "sim: "
	if len(s) >= len(p) && s[:len(p)] == p {
		return s[len(p):]
	}
	return s
}
