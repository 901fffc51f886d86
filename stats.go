package rollstep

import (
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/stream"
	"github.com/rollstep/rollstep/transport"
)

// SpectatorStats describes one spectator of a session: whether its
// handshake completed (Joined), whether it left, was lost or was dropped
// (Left), dropped for lagging (Dropped), and the frames of inputs it
// acknowledged (Acked).
type SpectatorStats = stream.Stats

// Stats are a session's counters, the same in every mode; see
// Session.Stats.
type Stats struct {
	// Mode is the session's mode.
	Mode Mode
	// Started reports whether the match has started: every peer's
	// handshake finished (or, with Config.SoloStart, timed out), and frame
	// 0 may run.
	Started bool
	// Rejoining reports that the session is coming back into the match:
	// a restarted process (Config.Rejoin), or a session whose side of a
	// split yielded (it threw its frames since the split away). It runs
	// no frame until it has the match's state; its own core.RejoinEvent
	// ends it. A session dropped again soon after such a return reports it
	// while it waits before it yields again (the others told it, and a link
	// to some peer is still down). A spectator reports it while it waits
	// for a host lost to silence (Config.Spectate).
	Rejoining bool
	// Frame is the next frame the session runs; Played is the number of
	// frames run in which the game stepped (not paused).
	Frame  core.Frame
	Played int64
	// Paused and Speed (percent) are the game's state at the current frame.
	Paused bool
	Speed  int
	// Delay and Prediction are the local players' current D and W;
	// SyncTest the sync-test distance in effect (0 when off).
	Delay, Prediction, SyncTest int

	// Rollbacks counts the loads of a saved state to re-simulate from,
	// ResimFrames the frames they re-simulated, and RollbackDepth the
	// rollbacks by depth (frames re-simulated; the last bucket holds 16
	// and deeper). SyncTestFrames counts the frames the sync test
	// re-simulated.
	Rollbacks, ResimFrames uint64
	RollbackDepth          [17]uint64
	SyncTestFrames         uint64
	// Checksums counts the confirmed frames checksummed and Desyncs the
	// peers found desynced; SkippedReports the peers' checksum reports
	// that never arrived before the peer stopped resending them (heavy
	// loss).
	Checksums, Desyncs, SkippedReports uint64

	// Period is the current frame period: the configured one·100/speed,
	// or the slowest reported step time if longer.
	Period time.Duration
	// Stall is the total time due frames waited for inputs (not the frames
	// timesync chose to wait, which Waited counts); StalledFrames how many
	// frames waited; LastStall and MaxStall the wait of the latest frame
	// and of the worst.
	Stall               time.Duration
	StalledFrames       uint64
	LastStall, MaxStall time.Duration
	// Waited is the number of frame periods timesync (or Wait) made the
	// session skip; Timesync is the newest window's core.TimesyncEvent, valid
	// if HasTimesync, even with Wait 0.
	Waited      uint64
	Timesync    core.TimesyncEvent
	HasTimesync bool
	// StepTime is this machine's step time per frame as reported to the
	// peers; SlowestStep the largest report of any player.
	StepTime, SlowestStep time.Duration

	// Queued is the most command-style inputs waiting in one local
	// player's queue (AddLocalInput) for a frame to take them. Requeued
	// counts command-style inputs the session could not give their frame
	// (it already had one), queued again for the next frame; Discarded the
	// inputs the session could not schedule because their frame already
	// had the player's input (after D was lowered, or a held input the
	// frame did not need).
	Queued              int
	Requeued, Discarded uint64
	// BadMessages counts the messages from peers that the session
	// rejected, and Equivocations the inputs a peer sent that contradict
	// one it sent before.
	BadMessages, Equivocations uint64
	// DroppedEvents counts events lost because Events was not called.
	DroppedEvents uint64
	// Buffered is, for a spectator (Config.Spectate), the frames received
	// and not played yet; a player's session leaves it 0.
	Buffered int

	// Peers has one entry per remote peer, indexed by core.PeerID.
	Peers []PeerStats
	// Spectators has one entry per Config.Spectators entry.
	Spectators []SpectatorStats
}

// PeerStats describes one remote peer of a session.
type PeerStats struct {
	Addr  transport.Addr      // the peer's address on the Conn
	State transport.PeerState // where it is in its life cycle
	// LastHeard is when its newest valid packet arrived, if Heard.
	LastHeard time.Duration
	Heard     bool
	// RTT and Jitter are the smoothed round trip and its deviation, valid
	// once RTTSamples round trips were measured; delay control and
	// timesync act on them.
	RTT, Jitter time.Duration
	RTTSamples  int
	// FramesAhead is the peer's frame minus ours when its last message
	// arrived; InputLead how many frames before it was needed its newest
	// input arrived (negative: late, so predicted). Held is the frames of
	// its players' inputs we hold and Acked the frames of our local
	// players' inputs it acknowledged (the fewest over the players).
	FramesAhead, InputLead, Held, Acked core.Frame
	// Desynced reports that a checksum of the peer differed from ours.
	Desynced bool
	// Rollbacks counts the rollbacks the peer's late or corrected inputs
	// caused, ResimFrames the frames they re-simulated and RollbackDepth
	// them by depth. One rollback is charged to one peer: the one whose
	// input made the earliest frame wrong (the lowest core.PeerID on a
	// tie), so summed over the peers they equal the session's.
	Rollbacks, ResimFrames uint64
	RollbackDepth          [17]uint64
	// Stall is the time frames waited for this peer's inputs (a wait for
	// two peers counts for both).
	Stall time.Duration
	// The bytes and datagrams to and from the peer, with
	// transport.HeaderOverhead counted per datagram (as transport/sim
	// does).
	BytesSent, BytesReceived, PacketsSent, PacketsReceived uint64
	// SendErrors counts the transient send failures (an unreachable
	// network, a refused port), which the protocol retries; Dropped counts
	// the datagrams from the peer's address that were not valid packets
	// of the match (another token, malformed, replayed, early or stale).
	SendErrors, Dropped uint64
}

// Stats returns the session's counters. Its slices (Peers, Spectators)
// are the caller's: a later call does not change them, so two readings
// can be compared, at the cost of two small allocations per call.
func (s *Session[S, I]) Stats() Stats {
	st := s.stats
	st.Mode = s.cfg.Mode
	st.Started, st.Rejoining = s.started, s.rejoin.me.active || s.rejoin.backoff.waiting(s.now) || (s.watch != nil && s.watch.lost)
	es := s.eng.Stats()
	copyEngineStats(&st, &es)
	st.Peers = make([]PeerStats, len(s.cfg.Peers))
	for i := range st.Peers {
		p := &st.Peers[i]
		if i < len(es.Peers) && s.watch == nil {
			copyEnginePeer(p, &es.Peers[i])
		}
		if ps, ok := s.ep.Peer(core.PeerID(i)); ok {
			copyEndpointPeer(p, &ps)
		}
		p.Stall = s.peerStall[i]
	}
	st.Period = s.pacer.Period()
	st.Stall = s.pacer.Stalled() - s.waitTime // timesync's waits are no stall
	if s.syncWait {
		st.Stall -= s.pacer.Stalled() - s.waitFrom
	}
	st.Timesync, st.HasTimesync = s.lastSync, s.hasSync
	st.Spectators = s.stream.Stats(nil)
	if s.watch != nil {
		st.Buffered = s.buffered()
	}
	st.Delay, st.Prediction = s.delayNow(), s.eng.Prediction()
	st.StepTime = time.Duration(s.report) * stepUnit
	st.SlowestStep = s.slowestStep()
	ctl := s.eng.Control()
	st.Paused, st.Speed = ctl.Paused, ctl.Speed
	st.Played = int64(ctl.Played)
	for i := range s.locals {
		st.Queued = max(st.Queued, s.locals[i].inputs.n)
	}
	return st
}

// copyEngineStats copies the engine's counters a game sees into st.
func copyEngineStats(st *Stats, es *engine.Stats) {
	st.Frame, st.SyncTest = es.Frame, es.SyncTest
	st.Rollbacks, st.ResimFrames, st.RollbackDepth = es.Rollbacks, es.ResimFrames, es.RollbackDepth
	st.SyncTestFrames = es.SyncTestFrames
	st.Checksums, st.Desyncs, st.SkippedReports = es.Checksums, es.Desyncs, es.SkippedReports
	st.Discarded, st.BadMessages, st.Equivocations = es.DiscardedInputs, es.BadMessages, es.Equivocations
}

// copyEnginePeer copies the engine's counters of one peer into p.
func copyEnginePeer(p *PeerStats, e *engine.PeerStats) {
	p.FramesAhead, p.InputLead, p.Held, p.Acked = e.FramesAhead, e.InputLead, e.Held, e.Acked
	p.Desynced = e.Desynced
	p.Rollbacks, p.ResimFrames, p.RollbackDepth = e.Rollbacks, e.ResimFrames, e.RollbackDepth
}

// copyEndpointPeer copies the connection's view of one peer into p.
func copyEndpointPeer(p *PeerStats, e *endpoint.PeerStats) {
	p.Addr, p.State, p.Heard, p.LastHeard = e.Addr, e.State, e.Heard, e.LastHeard
	p.RTT, p.Jitter, p.RTTSamples = e.RTT, e.Jitter, e.RTTSamples
	p.BytesSent, p.PacketsSent = e.WireBytesSent(), e.PacketsSent
	p.BytesReceived, p.PacketsReceived = e.WireBytesReceived(), e.PacketsReceived
	p.SendErrors = e.SendErrors
	p.Dropped = e.Dropped()
}
