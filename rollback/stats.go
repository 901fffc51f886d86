package rollback

import (
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/stream"
	"github.com/rollstep/rollstep/transport/endpoint"
)

// Stats are a session's counters; see Session.Stats.
type Stats struct {
	// Engine are the engine's counters: frames, rollbacks, re-simulated
	// frames, stall time, desyncs, and per peer RTT, frames ahead and the
	// bytes and packets of the transport (IP and UDP headers counted).
	Engine core.Stats
	// Transport are the endpoint's counters: per peer state, handshake,
	// dropped datagrams by reason.
	Transport endpoint.Stats
	// Delay is the local players' input delay D.
	Delay int
	// Waited is the number of frame periods timesync made the session
	// skip.
	Waited uint64
	// Timesync is the newest TimesyncEvent, valid if HasTimesync.
	Timesync    TimesyncEvent
	HasTimesync bool
	// DroppedEvents counts events lost because Events was not called.
	DroppedEvents uint64
	// Spectators has one entry per Config.Spectators entry.
	Spectators []SpectatorStats
}

// SpectatorStats describes one spectator of a host session: whether its
// handshake completed (Joined), whether it left, was lost or was dropped
// (Left), dropped for lagging (Dropped), and the frames of inputs it
// acknowledged (Acked).
type SpectatorStats = stream.Stats

// Stats returns the session's counters. Its slices are owned by the
// session and overwritten by the next call.
func (s *Session[S, I]) Stats() Stats {
	st := &s.stats
	st.Engine = s.eng.Stats()
	s.ep.FillStats(&st.Engine)
	st.Transport = s.ep.Stats()
	st.Delay, st.Waited = s.delayD, s.waited
	st.Timesync, st.HasTimesync = s.lastSync, s.hasSync
	st.DroppedEvents = s.dropped
	st.Spectators = s.stream.Stats(st.Spectators[:0])
	return *st
}
