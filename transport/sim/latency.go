package sim

import (
	"strconv"
	"time"
)

// maxLatency bounds every duration in a latency profile (and
// LinkConfig.ReorderDelay), so that arrival times cannot overflow.
const maxLatency = 24 * time.Hour

// Latency is a one-way latency profile: the delay between the moment a
// datagram is sent (after any bandwidth queue) and its arrival. The zero
// value is a link with no delay. Every duration in it is at most 24 hours.
type Latency struct {
	// Base is the latency when there is no spike.
	Base time.Duration
	// Jitter spreads the latency uniformly over [Base-Jitter, Base+Jitter],
	// to the nanosecond. It is at most Base.
	Jitter time.Duration
	// Spike, when set, replaces the latency periodically.
	Spike Spike
}

// Spike is a periodic latency spike: for a datagram sent during the first
// Length of every Period, counted from virtual time zero, the latency is
// exactly Height instead of Base±Jitter. The spikes cover
// [k·Period, k·Period+Length) for k = 0, 1, 2, …. The zero value means no
// spike.
type Spike struct {
	// Height is the one-way latency during a spike.
	Height time.Duration
	// Length is how long each spike lasts, 0 < Length ≤ Period.
	Length time.Duration
	// Period is the time from the start of one spike to the next.
	Period time.Duration
}

// Step is one piece of a piecewise latency schedule: from virtual time At
// on, datagrams are sent with Latency, until the next step.
type Step struct {
	// At is when the step starts.
	At time.Duration
	// Latency is the profile in force from At.
	Latency Latency
}

// isZero reports whether s is the zero Spike, that is, no spike.
func (s Spike) isZero() bool { return s == Spike{} }

// validate returns nil if s is zero or a valid spike, and a
// *transport.ConfigError naming the field of field otherwise: for a
// negative or too large height, a period that is not positive, or a
// length that is not positive or exceeds the period.
func (s Spike) validate(field string) error {
	if s.isZero() {
		return nil
	}
	if err := checkDuration(field+".Height", s.Height); err != nil {
		return err
	}
	if s.Period <= 0 {
		return configError(field+".Period", s.Period.String()+" is not positive")
	}
	switch {
	case s.Length <= 0:
		return configError(field+".Length", s.Length.String()+" is not positive")
	case s.Length > s.Period:
		return configError(field+".Length", s.Length.String()+" exceeds Period "+s.Period.String())
	}
	return nil
}

// validate returns nil if l is a valid profile and a
// *transport.ConfigError naming the field of field otherwise: for a
// negative duration, one above maxLatency, or Jitter > Base, and the
// errors of Spike.validate.
func (l Latency) validate(field string) error {
	if err := checkDuration(field+".Base", l.Base); err != nil {
		return err
	}
	if err := checkDuration(field+".Jitter", l.Jitter); err != nil {
		return err
	}
	if l.Jitter > l.Base {
		return configError(field+".Jitter", l.Jitter.String()+" exceeds Base "+l.Base.String())
	}
	return l.Spike.validate(field + ".Spike")
}

// checkDuration reports an error unless 0 ≤ d ≤ maxLatency.
func checkDuration(field string, d time.Duration) error {
	switch {
	case d < 0:
		return configError(field, d.String()+" is negative")
	case d > maxLatency:
		return configError(field, d.String()+" exceeds the maximum of 24h")
	}
	return nil
}

// validateSchedule checks that steps start at strictly increasing,
// non-negative times and that each profile is valid.
func validateSchedule(field string, steps []Step) error {
	for i, st := range steps {
		f := field + "[" + strconv.Itoa(i) + "]"
		switch {
		case st.At < 0:
			return configError(f+".At", st.At.String()+" is negative")
		case i > 0 && st.At <= steps[i-1].At:
			return configError(f+".At", st.At.String()+" does not come after the previous step's "+steps[i-1].At.String())
		}
		if err := st.Latency.validate(f + ".Latency"); err != nil {
			return err
		}
	}
	return nil
}

// at returns the latency of a datagram sent at virtual time t ≥ 0, drawing
// from r only when there is jitter and no spike.
func (l *Latency) at(t time.Duration, r *linkRand) time.Duration {
	if s := l.Spike; s.Period > 0 && t%s.Period < s.Length {
		return s.Height
	}
	if l.Jitter == 0 {
		return l.Base
	}
	return l.Base - l.Jitter + time.Duration(r.below(uint64(2*l.Jitter)+1))
}

// inForce returns the profile in force at virtual time t: the last step
// whose At ≤ t, or base if there is none.
func inForce(base *Latency, steps []Step, t time.Duration) *Latency {
	l := base
	for i := range steps {
		if steps[i].At > t {
			break
		}
		l = &steps[i].Latency
	}
	return l
}
