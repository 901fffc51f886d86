package rollstep

import (
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/timesync"
)

// Event is an advisory event in Session.Events, the same set in every
// mode. Use a type switch; the values are
//
//   - *StallEvent (a pointer, valid until the next Events call, so that a
//     stalled frame allocates nothing);
//   - the engine's: core.DesyncEvent[S] (its Snapshot is a copy the caller
//     may keep), core.DesyncFieldsEvent (paths name fields of the game's
//     state, or "match." then a field of the pause and speed state),
//     core.EquivocationEvent, core.DisconnectEvent (the agreed frame a
//     dropped player's inputs stop at), core.EffectsDroppedEvent,
//     core.PauseEvent and core.SpeedEvent;
//   - the life cycle: core.StartedEvent, core.MatchEndedEvent,
//     core.DelayEvent, and for a peer core.ConnectedEvent,
//     core.RefusedEvent, core.InterruptedEvent, core.ResumedEvent,
//     core.PeerLostEvent (dropped after the timeout, or left) and
//     core.SplitEvent (a lost peer heard again); for a spectator
//     core.SpectatorJoinedEvent and core.SpectatorLeftEvent; where the
//     session predicts, TimesyncEvent.
type Event = any

// StallEvent reports that a frame ran late because inputs were missing:
// Stall is how long the session waited for them after the frame was due,
// and Waiting has bit i set for every core.PeerID i whose inputs were
// missing during the wait.
type StallEvent struct {
	Frame   core.Frame    // the frame that stalled
	Stall   time.Duration // how long it waited
	Waiting uint64        // bit i: peer i was waited for
}

// TimesyncEvent reports the frame advantage over the peer this session is
// furthest ahead of (Peer, Advantage: positive means ahead), averaged over
// one window, and the recommended Wait in frames; RemoteDelay is that
// peer's D as its messages show, and Applied reports that the session
// waits by itself (unless Config.Timesync.Manual). It is raised at the end
// of a window when Wait > 0.
type TimesyncEvent = timesync.Event
