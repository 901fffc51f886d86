package rollstep

import (
	"slices"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/stream"
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
	// Engine holds the engine's counters: frames, rollbacks, re-simulated
	// frames, desyncs, and per peer RTT, frames ahead and the bytes and
	// packets of the transport (transport.HeaderOverhead counted per
	// datagram, as transport/sim does).
	Engine core.Stats
	// Spectators has one entry per Config.Spectators entry.
	Spectators []SpectatorStats
	// Delay and Prediction are the local players' current D and W.
	Delay, Prediction int
	// Frames is the number of frames run; Played the number in which the
	// game stepped (not paused).
	Frames, Played int64
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
	// PeerStall[i] is the time spent waiting for core.PeerID i's inputs
	// (a wait for two peers counts for both).
	PeerStall []time.Duration
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
	// player's queue (AddLocalInput) for a frame to take them.
	Queued int
	// Requeued counts command-style inputs the engine discarded because
	// their frame already had one, queued again for the next frame.
	Requeued uint64
	// DroppedEvents counts events lost because Events was not called.
	DroppedEvents uint64
	// Paused and Speed (percent) are the game's state at the current frame.
	Paused bool
	Speed  int
}

// Stats returns the session's counters. Its slices (Engine.Peers,
// PeerStall, Spectators) are the caller's: a later call does not change
// them, so two readings can be compared, at the cost of three small
// allocations per call.
func (s *Session[S, I]) Stats() Stats {
	st := s.stats
	st.Mode = s.cfg.Mode
	st.Started = s.started
	st.Engine = s.eng.Stats()
	s.ep.FillStats(&st.Engine)
	st.Engine.Peers = slices.Clone(st.Engine.Peers)
	st.Period = s.pacer.Period()
	st.Stall = s.pacer.Stalled() - s.waitTime // timesync's waits are no stall
	if s.syncWait {
		st.Stall -= s.pacer.Stalled() - s.waitFrom
	}
	st.PeerStall = slices.Clone(s.peerStall)
	st.Timesync, st.HasTimesync = s.lastSync, s.hasSync
	st.Spectators = s.stream.Stats(nil)
	st.Delay, st.Prediction = s.delayNow(), s.eng.Prediction()
	st.StepTime = time.Duration(s.report) * stepUnit
	st.SlowestStep = s.slowestStep()
	ctl := s.eng.Control()
	st.Paused, st.Speed = ctl.Paused, ctl.Speed
	st.Frames, st.Played = int64(s.eng.Frame()), int64(ctl.Played)
	for i := range s.locals {
		st.Queued = max(st.Queued, s.locals[i].inputs.n)
	}
	return st
}
