package sim

import (
	"strconv"
	"time"

	"github.com/rollstep/rollstep/transport"
)

// defaultInboxLimit is Config.InboxLimit's default.
const defaultInboxLimit = 1024

// Config configures a Network. The zero value is valid: seed 0, perfect
// links (no delay, loss or cap) and inboxes of 1024 datagrams.
type Config struct {
	// Seed determines every random choice of the network. Two networks
	// with the same Config that receive the same sequence of calls deliver
	// the same datagrams at the same virtual times.
	Seed uint64
	// Link is the configuration of every directed link that SetLink has
	// not configured.
	Link LinkConfig
	// InboxLimit is how many arrived datagrams an endpoint holds before
	// further arrivals are dropped (and counted as dropped on their link),
	// like a socket receive buffer. Zero means 1024.
	InboxLimit int
}

// LinkConfig describes one directed link, from one endpoint to another.
// The zero value is a perfect link: no delay, loss, duplication,
// reordering or bandwidth cap.
//
// The fate of a datagram is decided when it is sent, in this order: it is
// dropped if the link is cut, then with probability Loss, then if the
// bandwidth queue would exceed QueueLimit; it waits for the bandwidth
// queue; its latency comes from the profile in force at the send time; the
// link is first in, first out, so it never arrives before a datagram sent
// earlier on the link, unless it is chosen for reordering with probability
// Reorder, in which case it arrives ReorderDelay later than it otherwise
// would and datagrams sent after it may overtake it; finally, with
// probability Duplicate, a second copy arrives right after it at the same
// virtual time.
type LinkConfig struct {
	// Latency is the one-way latency profile.
	Latency Latency
	// Schedule optionally replaces Latency piecewise over virtual time:
	// from Schedule[i].At on, Schedule[i].Latency is in force. Steps start
	// at strictly increasing times. Before the first step, Latency is in
	// force.
	Schedule []Step
	// Loss is the probability in [0, 1] that a datagram is dropped.
	Loss float64
	// Duplicate is the probability in [0, 1] that a datagram that is not
	// lost arrives twice.
	Duplicate float64
	// Reorder is the probability in [0, 1] that a datagram that is not
	// lost is held back by ReorderDelay outside the link's FIFO order.
	Reorder float64
	// ReorderDelay is the extra delay of a reordered datagram, at most 24
	// hours. It must be positive when Reorder is.
	ReorderDelay time.Duration
	// Bandwidth caps the link at this many bytes per second, counting
	// transport.HeaderOverhead per datagram; zero means no cap. A datagram
	// of w wire bytes occupies the link for ⌈w·10⁹/Bandwidth⌉ ns, after
	// the datagrams queued before it, and its latency starts when it has
	// been serialized.
	Bandwidth int64
	// QueueLimit, when positive with a Bandwidth cap, drops a datagram
	// whose wire bytes would bring the bytes waiting in the bandwidth
	// queue above QueueLimit (tail drop). Zero means an unbounded queue.
	QueueLimit int
}

// validate returns nil if c is valid and a *transport.ConfigError naming
// the field of a sim.Config otherwise. It does not modify c.
func (c *Config) validate() error {
	if c.InboxLimit < 0 {
		return configError("sim.Config.InboxLimit", strconv.Itoa(c.InboxLimit)+" is negative")
	}
	return c.Link.validate("sim.Config.Link")
}

// validate returns nil if c is valid and a *transport.ConfigError
// otherwise, naming the field as a field of field (such as
// "sim.LinkConfig"): the errors of Latency.validate for each profile, and
// those of unordered steps, a probability outside [0, 1], a negative
// bandwidth or queue limit, or a ReorderDelay that is negative, above 24
// hours, or zero while Reorder is positive. It does not modify c.
func (c *LinkConfig) validate(field string) error {
	if err := c.Latency.validate(field + ".Latency"); err != nil {
		return err
	}
	if err := validateSchedule(field+".Schedule", c.Schedule); err != nil {
		return err
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"Loss", c.Loss}, {"Duplicate", c.Duplicate}, {"Reorder", c.Reorder}} {
		if !(p.v >= 0 && p.v <= 1) {
			return configError(field+"."+p.name, strconv.FormatFloat(p.v, 'g', -1, 64)+" is not a probability in [0, 1]")
		}
	}
	if err := checkDuration(field+".ReorderDelay", c.ReorderDelay); err != nil {
		return err
	}
	if c.Reorder > 0 && c.ReorderDelay == 0 {
		return configError(field+".ReorderDelay", "0s while Reorder is "+strconv.FormatFloat(c.Reorder, 'g', -1, 64)+": it must be positive")
	}
	if c.Bandwidth < 0 {
		return configError(field+".Bandwidth", strconv.FormatInt(c.Bandwidth, 10)+" is negative")
	}
	if c.QueueLimit < 0 {
		return configError(field+".QueueLimit", strconv.Itoa(c.QueueLimit)+" is negative")
	}
	return nil
}

// configError returns a *transport.ConfigError for field, which names the
// package's type, as in "sim.LinkConfig.Loss".
func configError(field, reason string) error {
	return &transport.ConfigError{Field: field, Reason: reason}
}

// clone returns a copy of c that shares no memory with it.
func (c *LinkConfig) clone() LinkConfig {
	out := *c
	out.Schedule = append([]Step(nil), c.Schedule...)
	return out
}
