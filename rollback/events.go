package rollback

import (
	"github.com/rollstep/rollstep/internal/stream"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/wire"
)

// Event is one thing that happened, returned by Session.Events and
// Spectator.Events; use a type switch. A session's events are the engine's
// (core.DesyncEvent[S], core.DesyncFieldsEvent, core.EquivocationEvent,
// core.DisconnectEvent, core.SyncTestEvent, core.EffectsDroppedEvent) and
// this package's: ConnectedEvent, RefusedEvent, StartedEvent,
// InterruptedEvent, ResumedEvent, PeerLostEvent, SplitEvent, TimesyncEvent,
// DelayEvent, SpectatorJoinedEvent, SpectatorLeftEvent. A spectator's are
// StreamStartedEvent and StreamEndedEvent. Event is an alias of any, so
// front ends share one event slice type.
type Event = any

// ConnectedEvent reports that the handshake with Peer completed.
type ConnectedEvent struct {
	Peer core.PeerID // the peer, an index into Config.Peers
}

// RefusedEvent reports that the handshake with Peer was refused by either
// side; Err is the *endpoint.HandshakeError naming the differing field.
// The match cannot start: Update returns ErrRefused from now on.
type RefusedEvent struct {
	Peer core.PeerID // the refusing or refused peer
	Err  error       // why
}

// StartedEvent reports that every peer is connected and frame 0 may run;
// At is the Update time at which the clock of the match started.
type StartedEvent struct {
	At time.Duration // the now of the Update that started the match
}

// InterruptedEvent reports that nothing arrived from Peer for the
// interrupt timeout. The session keeps predicting up to W frames and then
// stalls; the game may show a warning.
type InterruptedEvent struct {
	Peer core.PeerID // the silent peer
}

// ResumedEvent reports that an interrupted Peer was heard again.
type ResumedEvent struct {
	Peer core.PeerID // the peer heard again
}

// SplitEvent reports that Peer, lost to silence, was heard again: it is
// alive, and since Frame (the frame from which this session gave its
// players the disconnected status) the two sides have played apart. It is
// raised once per peer on each side that dropped the other. The peer stays
// dropped here; the game may end the match or tell the player.
type SplitEvent struct {
	Peer  core.PeerID // the peer heard again
	Frame core.Frame  // the first frame its players were disconnected, or -1 if not yet agreed
}

// PeerLostEvent reports that Peer is gone: silent for the disconnect
// timeout, its handshake timed out (Err is endpoint.ErrHandshakeTimeout),
// or it left (Left, with Reason). The session declares its players
// disconnected; a core.DisconnectEvent follows with the frame every peer
// agreed on.
type PeerLostEvent struct {
	Peer   core.PeerID      // the lost peer
	Left   bool             // it sent a Leave
	Reason wire.LeaveReason // the Leave's reason, if Left
	Err    error            // nil, or endpoint.ErrHandshakeTimeout
}

// DelayEvent reports that the delay policy changed the input delay D of
// every local player, from the measured RTT to the slowest peer.
type DelayEvent struct {
	Delay int           // the new D in frames
	RTT   time.Duration // the RTT that led to it
}

// SpectatorJoinedEvent reports that spectator Spectator (an index into
// Config.Spectators) completed its handshake and is being streamed to.
// Lockstep sessions raise it too.
type SpectatorJoinedEvent = stream.JoinedEvent

// SpectatorLeftEvent reports that the session stopped streaming to a
// spectator: Dropped when it fell more than StreamConfig.MaxLag frames
// behind (Lag), otherwise because it disconnected or left. Lockstep
// sessions raise it too.
type SpectatorLeftEvent = stream.LeftEvent

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
