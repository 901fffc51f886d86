package sim

import (
	"strconv"
	"time"

	"github.com/rollstep/rollstep/transport"
)

// DropReason says why a Shaper dropped a datagram. The zero value,
// DropNone, means that it was not dropped.
type DropReason uint8

const (
	// DropNone means the datagram was not dropped.
	DropNone DropReason = iota
	// DropCut means the link was cut (Network.Cut, Partition).
	DropCut
	// DropLoss means the datagram was lost with probability
	// LinkConfig.Loss.
	DropLoss
	// DropQueue means the bandwidth queue would have grown above
	// LinkConfig.QueueLimit.
	DropQueue
)

// String returns "none", "cut", "loss" or "queue".
func (r DropReason) String() string {
	switch r {
	case DropNone:
		return "none"
	case DropCut:
		return "cut"
	case DropLoss:
		return "loss"
	case DropQueue:
		return "queue"
	}
	return "DropReason(" + strconv.Itoa(int(r)) + ")"
}

// Fate is what a Shaper decided for one datagram. The zero value is a
// datagram delivered at time zero, exactly once.
type Fate struct {
	// Drop is why the datagram never arrives, or DropNone if it does.
	// When it is not DropNone the other fields are zero.
	Drop DropReason
	// At is the arrival time, on the clock of the now passed to Decide.
	At time.Duration
	// Duplicate reports that a second copy arrives right after the
	// first, at the same time At.
	Duplicate bool
	// Reordered reports that the datagram was held back by
	// LinkConfig.ReorderDelay outside the link's FIFO order.
	Reordered bool
}

// Dropped reports whether the datagram never arrives.
func (f Fate) Dropped() bool { return f.Drop != DropNone }

// Shaper decides the fate of the datagrams sent on one directed link: the
// impairments of a LinkConfig, applied in the order that LinkConfig
// documents, with the link's own seeded random stream. It reads no clock
// and starts no goroutines: the caller passes the send time to Decide and
// delivers the datagram at the time it returns. A Network uses one Shaper
// per directed link; cmd/rollstep proxy uses the same type on real
// sockets, with a real clock, so both apply the same impairments.
//
// Times are durations since an origin the caller chooses (virtual time
// zero for a Network); latency spikes are counted from that origin.
//
// A Shaper is made by NewShaper; the zero value is a perfect link with a
// fixed random stream, usable but not what a caller normally wants. A
// Shaper is not safe for concurrent use.
type Shaper struct {
	cfg LinkConfig
	cut bool
	rng linkRand
	// now is the latest send time seen; Decide never goes back before it.
	now time.Duration
	// busyUntil is when the bandwidth queue empties and lastArrival the
	// arrival time of the latest datagram that kept FIFO order; both only
	// grow.
	busyUntil   time.Duration
	lastArrival time.Duration
}

// NewShaper returns a Shaper for the directed link from → to of a Network
// whose Config.Seed is seed. Fed the same send times and sizes, it makes
// exactly the decisions that link of such a Network makes, so a run over
// real sockets can be replayed on virtual time. It returns the
// *ConfigError of cfg.Validate, and keeps a copy of cfg.
func NewShaper(cfg LinkConfig, seed uint64, from, to transport.Addr) (*Shaper, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s := newShaper(cfg, seed, from, to)
	return &s, nil
}

// newShaper is NewShaper for a valid cfg, by value.
func newShaper(cfg LinkConfig, seed uint64, from, to transport.Addr) Shaper {
	return Shaper{cfg: cfg.clone(), rng: seedLinkRand(seed, uint32(from), uint32(to))}
}

// Config returns a copy of the configuration in force.
func (s *Shaper) Config() LinkConfig { return s.cfg.clone() }

// SetConfig replaces the configuration for datagrams decided from now on,
// keeping the random stream and the state of the bandwidth queue and the
// FIFO order, or returns the *ConfigError of cfg.Validate. It keeps a copy
// of cfg.
func (s *Shaper) SetConfig(cfg LinkConfig) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	s.cfg = cfg.clone()
	return nil
}

// Decide decides the fate of a datagram of size payload bytes sent at
// time now, and updates the link's state as if it had been sent.
// Bandwidth counts size + transport.HeaderOverhead bytes. A now earlier
// than that of a previous call is taken as the previous one, so the
// decisions never go back in time. Decide does not allocate.
func (s *Shaper) Decide(now time.Duration, size int) Fate {
	now = max(now, s.now)
	s.now = now
	c := &s.cfg
	if s.cut {
		return Fate{Drop: DropCut}
	}
	if s.rng.chance(c.Loss) {
		return Fate{Drop: DropLoss}
	}
	wire := size + transport.HeaderOverhead
	leave := now
	if c.Bandwidth > 0 {
		start := max(now, s.busyUntil)
		if c.QueueLimit > 0 && bytesIn(start-now, c.Bandwidth)+uint64(wire) > uint64(c.QueueLimit) {
			return Fate{Drop: DropQueue}
		}
		leave = addSat(start, serialization(wire, c.Bandwidth))
		s.busyUntil = leave
	}
	f := Fate{At: addSat(leave, inForce(&c.Latency, c.Schedule, now).at(now, &s.rng))}
	if s.rng.chance(c.Reorder) {
		f.At = addSat(f.At, c.ReorderDelay)
		f.Reordered = true
	} else {
		f.At = max(f.At, s.lastArrival)
		s.lastArrival = f.At
	}
	f.Duplicate = s.rng.chance(c.Duplicate)
	return f
}
