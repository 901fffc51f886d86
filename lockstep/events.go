package lockstep

import (
	"time"

	"github.com/rollstep/rollstep/core"
)

// Event is an advisory event in Events. Use a type switch; the values are
//
//   - *StallEvent (a pointer, valid until the next Update, so that a
//     stalled turn allocates nothing) and DelayEvent of this package;
//   - core.DesyncEvent[S] (its Snapshot is the game's state, a copy the
//     caller may keep), core.DesyncFieldsEvent (paths name fields of the
//     game's state, or "match." then a field of the engine's pause and
//     speed state), core.EquivocationEvent, core.DisconnectEvent (the
//     agreed frame a dropped player's inputs stop at),
//     core.SyncTestEvent, core.EffectsDroppedEvent, and core.PauseEvent
//     and core.SpeedEvent (a speed of Percent makes a turn last
//     TurnPeriod·100/Percent);
//   - the life cycle, in the same core types as every mode:
//     core.StartedEvent, and for a peer core.ConnectedEvent,
//     core.RefusedEvent, core.InterruptedEvent, core.ResumedEvent,
//     core.PeerLostEvent (dropped after the timeout, or left) and
//     core.SplitEvent; for a spectator core.SpectatorJoinedEvent and
//     core.SpectatorLeftEvent; in auto mode core.TimesyncEvent.
type Event = any

// StallEvent reports that a turn ran late because inputs were missing:
// Stall is how long the session waited for them after the turn was due,
// and Waiting has bit i set for every core.PeerID i whose inputs were
// missing during the wait.
type StallEvent struct {
	Frame   core.Frame    // the turn that stalled
	Stall   time.Duration // how long it waited
	Waiting uint64        // bit i: peer i was waited for
}

// DelayEvent is core.DelayEvent, the same in every mode: the delay
// controller changed this session's D (and, in auto mode, W) at turn
// Frame.
type DelayEvent = core.DelayEvent
