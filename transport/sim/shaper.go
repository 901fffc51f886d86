package sim

import (
	"time"

	"github.com/rollstep/rollstep/internal/simlink"
	"github.com/rollstep/rollstep/transport"
)

// shaper decides the fate of the datagrams sent on one directed link: the
// impairments of a LinkConfig, applied in the order that LinkConfig
// documents, with the link's own seeded random stream. It reads no clock
// and starts no goroutines: the caller passes the send time to Decide and
// delivers the datagram at the time it returns. A Network uses one shaper
// per directed link; through internal/simlink, cmd/rollstep proxy uses the
// same type on real sockets, with a real clock, so both apply the same
// impairments.
//
// Times are durations since an origin the caller chooses (virtual time
// zero for a Network); latency spikes are counted from that origin. A
// shaper is not safe for concurrent use.
type shaper struct {
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

// newShaper returns the shaper for the directed link from → to of a
// Network whose Config.Seed is seed, for a valid cfg. It keeps a copy of
// cfg.
func newShaper(cfg LinkConfig, seed uint64, from, to transport.Addr) shaper {
	return shaper{cfg: cfg.clone(), rng: seedLinkRand(seed, uint32(from), uint32(to))}
}

// setConfig replaces the configuration, valid, for datagrams decided from
// now on, keeping the random stream and the state of the bandwidth queue
// and the FIFO order. It keeps a copy of cfg.
func (s *shaper) setConfig(cfg LinkConfig) { s.cfg = cfg.clone() }

func init() {
	simlink.NewShaper = func(cfg any, seed uint64, from, to transport.Addr) (simlink.Shaper, error) {
		c := cfg.(LinkConfig)
		if err := c.validate("sim.LinkConfig"); err != nil {
			return nil, err
		}
		s := newShaper(c, seed, from, to)
		return &s, nil
	}
}

// Decide decides the fate of a datagram of size payload bytes sent at
// time now, and updates the link's state as if it had been sent.
// Bandwidth counts size + transport.HeaderOverhead bytes. A now earlier
// than that of a previous call is taken as the previous one, so the
// decisions never go back in time. Decide does not allocate.
func (s *shaper) Decide(now time.Duration, size int) simlink.Fate {
	now = max(now, s.now)
	s.now = now
	c := &s.cfg
	if s.cut {
		return simlink.Fate{Drop: simlink.DropCut}
	}
	if s.rng.chance(c.Loss) {
		return simlink.Fate{Drop: simlink.DropLoss}
	}
	wire := size + transport.HeaderOverhead
	leave := now
	if c.Bandwidth > 0 {
		start := max(now, s.busyUntil)
		if c.QueueLimit > 0 && bytesIn(start-now, c.Bandwidth)+uint64(wire) > uint64(c.QueueLimit) {
			return simlink.Fate{Drop: simlink.DropQueue}
		}
		leave = addSat(start, serialization(wire, c.Bandwidth))
		s.busyUntil = leave
	}
	f := simlink.Fate{At: addSat(leave, inForce(&c.Latency, c.Schedule, now).at(now, &s.rng))}
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
