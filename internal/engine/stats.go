package engine

import (
	"time"

	"github.com/rollstep/rollstep/core"
)

// Stats are the engine's counters; see Engine.Stats. The session
// publishes what a game needs of them in its own Stats.
type Stats struct {
	Frame        core.Frame           // the current frame
	ConfirmedEnd core.Frame           // one past the newest confirmed frame (0: none)
	Prediction   int                  // W
	Delay        [core.MaxPlayers]int // D of each local player
	SyncTest     int                  // the sync-test distance in effect: min(Config.SyncTest, W); 0 when off

	Frames        uint64     // frames simulated for the first time
	Rollbacks     uint64     // loads of a saved state to re-simulate
	ResimFrames   uint64     // frames re-simulated
	RollbackDepth [17]uint64 // rollbacks by depth; the last bucket holds 16 and deeper
	Saves         uint64     // states copied into the ring
	Loads         uint64     // states copied out of the ring

	StallTime    time.Duration // time Advance could not step for want of remote inputs
	StalledCalls uint64        // calls of Advance that stalled

	Checksums       uint64 // confirmed frames checksummed
	UncheckedFrames uint64 // checksum frames whose state was gone (always 0 unless there is a bug)
	SkippedReports  uint64 // peers' checksum reports never received before the peer stopped resending them (heavy loss)
	Desyncs         uint64 // peers found desynced
	SyncTestFrames  uint64 // frames re-simulated by the sync test

	DiscardedInputs uint64 // AddLocalInput calls that returned ErrInputDiscarded
	BadMessages     uint64 // messages Receive rejected
	Equivocations   uint64 // contradictory inputs received
	LostCorrections uint64 // corrections that could not be applied (always 0 unless there is a bug)

	Peers []PeerStats // one entry per remote peer, indexed by PeerID
}

// PeerStats describes one remote peer.
type PeerStats struct {
	Connected   bool          // false once the peer is declared disconnected
	RTT         time.Duration // smoothed round-trip time, valid if RTTSamples > 0
	Jitter      time.Duration // mean deviation of the RTT
	RTTSamples  int           // round trips measured
	FramesAhead core.Frame    // the peer's frame minus ours when its last message arrived
	InputLead   core.Frame    // frames before it was needed that its newest input arrived (negative: late, predicted)
	Held        core.Frame    // inputs of its players we hold (the fewest over its players)
	Acked       core.Frame    // inputs of our local players it acknowledged (the fewest)
	Desynced    bool          // a checksum mismatch with the peer was found
	Rollbacks   uint64        // rollbacks caused by the peer's inputs (see the attribution rule below)
	ResimFrames uint64        // frames those rollbacks re-simulated
	// RollbackDepth counts the peer's Rollbacks by depth (frames
	// re-simulated), bucketed like Stats.RollbackDepth: the last bucket
	// holds 16 and deeper. Summed over the peers it equals
	// Stats.RollbackDepth.
	//
	// Attribution rule: one rollback is charged to one peer, the one whose
	// late or corrected input made the earliest frame wrong (the frame the
	// rollback loads). When corrections from several peers land before one
	// Advance and their first wrong frames are equal, the peer with the
	// lowest PeerID is charged, whatever the arrival order.
	RollbackDepth [17]uint64
	// StallTime is the part of Stats.StallTime spent waiting for this
	// peer's inputs: a stall is charged to every peer owning a player
	// whose input for the frame is missing, so with several such peers the
	// sum over peers exceeds Stats.StallTime.
	StallTime time.Duration

	// The engine does not see bytes or packets: the transport fills these.
	BytesSent       uint64 // bytes sent to the peer
	BytesReceived   uint64 // bytes received from the peer
	PacketsSent     uint64 // datagrams sent to the peer
	PacketsReceived uint64 // datagrams received from the peer
}
