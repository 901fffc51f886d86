package rollback

import "github.com/rollstep/rollstep/core"

// Event is one thing that happened, returned by Session.Events and
// Spectator.Events; use a type switch. A session's events are the engine's
// (core.DesyncEvent[S], core.DesyncFieldsEvent, core.EquivocationEvent,
// core.DisconnectEvent, core.SyncTestEvent, core.EffectsDroppedEvent) and
// this package's: ConnectedEvent, RefusedEvent, StartedEvent,
// InterruptedEvent, ResumedEvent, PeerLostEvent, SplitEvent, TimesyncEvent,
// DelayEvent, SpectatorJoinedEvent, SpectatorLeftEvent. A spectator's are
// StreamStartedEvent and StreamEndedEvent, and the replayed match's
// core.PauseEvent, core.SpeedEvent and core.DisconnectEvent. Event is an alias of any, so
// front ends share one event slice type.
type Event = any

// The life-cycle events of a player peer, core's, the same in every mode
// (a lockstep session raises these very types).
type (
	// ConnectedEvent reports that the handshake with Peer completed.
	ConnectedEvent = core.ConnectedEvent
	// RefusedEvent reports that the handshake with Peer was refused by
	// either side; Err is the *endpoint.HandshakeError naming the
	// differing field. The match cannot start: Update returns ErrRefused
	// from now on.
	RefusedEvent = core.RefusedEvent
	// StartedEvent reports that every peer is connected and frame 0 may
	// run; At is the Update time at which the clock of the match started.
	StartedEvent = core.StartedEvent
	// InterruptedEvent reports that nothing arrived from Peer for the
	// interrupt timeout. The session keeps predicting up to W frames and
	// then stalls; the game may show a warning.
	InterruptedEvent = core.InterruptedEvent
	// ResumedEvent reports that an interrupted Peer was heard again.
	ResumedEvent = core.ResumedEvent
	// SplitEvent reports that Peer, lost to silence, was heard again: it
	// is alive, and since Frame (the frame from which this session gave
	// its players the disconnected status, or -1 if not yet agreed) the
	// two sides have played apart. It is raised once per peer on each
	// side that dropped the other; the peer stays dropped here.
	SplitEvent = core.SplitEvent
	// PeerLostEvent reports that Peer is gone: silent for the disconnect
	// timeout, its handshake timed out (Err is
	// endpoint.ErrHandshakeTimeout), or it left (Left, with Reason). The
	// session declares its players disconnected; a core.DisconnectEvent
	// follows with the frame every peer agreed on.
	PeerLostEvent = core.PeerLostEvent
)

// DelayEvent is core.DelayEvent, the same in every mode: the delay policy
// changed the input delay D of every local player, from the measured RTT
// to the slowest peer.
type DelayEvent = core.DelayEvent

// SpectatorJoinedEvent reports that spectator Spectator (an index into
// Config.Spectators) completed its handshake and is being streamed to.
// Lockstep sessions raise it too.
type SpectatorJoinedEvent = core.SpectatorJoinedEvent

// SpectatorLeftEvent reports that the session stopped streaming to a
// spectator: Dropped when it fell more than StreamConfig.MaxLag frames
// behind (Lag), otherwise because it disconnected or left. Lockstep
// sessions raise it too.
type SpectatorLeftEvent = core.SpectatorLeftEvent

// StreamStartedEvent reports that a spectator connected to its host.
type StreamStartedEvent struct{}

// EndReason says why a spectator's stream ended.
type EndReason uint8

// The end reasons. The zero value, EndUnknown, is never reported.
const (
	EndUnknown EndReason = iota // the zero EndReason
	EndLeft                     // the host left (it closed its session)
	EndLost                     // the host was silent for the disconnect timeout
	EndDropped                  // the host dropped the spectator for lagging
	EndRefused                  // the handshake was refused
)

var endNames = [...]string{"unknown", "host left", "host lost", "dropped", "refused"}

// String returns the reason, such as "host left".
func (r EndReason) String() string {
	if int(r) < len(endNames) {
		return endNames[r]
	}
	return endNames[0]
}

// StreamEndedEvent reports that a spectator's stream ended; the
// spectator's Update returns ErrStreamEnded from now on. Frame is the
// spectator's current frame; every frame before it was simulated with
// the host's confirmed inputs. Err carries the handshake error for
// EndRefused.
type StreamEndedEvent struct {
	Reason EndReason  // why
	Frame  core.Frame // the spectator's frame when it ended
	Err    error      // the handshake error, for EndRefused
}
