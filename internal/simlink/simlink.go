// Package simlink gives the rest of this module transport/sim's model of
// one directed link, which that package uses for every link of a Network
// but does not export: cmd/rollstep proxy applies it to real sockets with
// a real clock, and the module's tests to real Conns, so that they see
// the impairments a Network would apply. transport/sim sets NewShaper when
// it is initialised.
package simlink

import (
	"strconv"
	"time"

	"github.com/rollstep/rollstep/transport"
)

// Shaper decides the fate of the datagrams sent on one directed link: the
// impairments of a sim.LinkConfig, applied in the order that type
// documents, with the link's own seeded random stream. It reads no clock
// and starts no goroutines: the caller passes the send time to Decide and
// delivers the datagram at the time it returns. Times are durations since
// an origin the caller chooses (virtual time zero for a Network); latency
// spikes are counted from that origin. A Shaper is not safe for concurrent
// use.
type Shaper interface {
	// Decide decides the fate of a datagram of size payload bytes sent at
	// time now, and updates the link's state as if it had been sent.
	// Bandwidth counts size + transport.HeaderOverhead bytes. A now
	// earlier than that of a previous call is taken as the previous one,
	// so the decisions never go back in time. Decide does not allocate.
	Decide(now time.Duration, size int) Fate
}

// NewShaper returns a Shaper for the directed link from → to of a
// sim.Network whose Config.Seed is seed, with cfg, a sim.LinkConfig, as
// the link's configuration. Fed the same send times and sizes, it makes
// exactly the decisions that link of such a Network makes, so a run over
// real sockets can be replayed on virtual time. It returns the
// *transport.ConfigError of an invalid cfg, and keeps a copy of cfg. It
// panics if cfg is not a sim.LinkConfig.
var NewShaper func(cfg any, seed uint64, from, to transport.Addr) (Shaper, error)

// DropReason says why a Shaper dropped a datagram. The zero value,
// DropNone, means that it was not dropped.
type DropReason uint8

const (
	// DropNone means the datagram was not dropped.
	DropNone DropReason = iota
	// DropCut means the link was cut (sim.Network.Cut, Partition).
	DropCut
	// DropLoss means the datagram was lost with probability
	// sim.LinkConfig.Loss.
	DropLoss
	// DropQueue means the bandwidth queue would have grown above
	// sim.LinkConfig.QueueLimit.
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
	// sim.LinkConfig.ReorderDelay outside the link's FIFO order.
	Reordered bool
}

// Dropped reports whether the datagram never arrives.
func (f Fate) Dropped() bool { return f.Drop != DropNone }
