package rollstep

import "github.com/rollstep/rollstep/core"

// Event is an advisory event in Session.Events, the same set in every
// mode. Use a type switch; the values are
//
//   - *core.StallEvent (a pointer, valid until the next Events call, so
//     that a stalled frame allocates nothing);
//   - the engine's: core.DesyncEvent[S] (its Snapshot is a copy the caller
//     may keep), core.DesyncFieldsEvent (paths name fields of the game's
//     state, or "match." then a field of the pause and speed state),
//     core.EquivocationEvent, core.DisconnectEvent (the agreed frame a
//     dropped player's inputs stop at), core.EffectsDroppedEvent,
//     core.PauseEvent, core.SpeedEvent, and core.SyncTestEvent in a build
//     with the rollstep_synctest tag;
//   - the life cycle: core.StartedEvent, core.MatchEndedEvent,
//     core.DelayEvent, and for a peer core.ConnectedEvent,
//     core.RefusedEvent, core.InterruptedEvent, core.ResumedEvent,
//     core.PeerLostEvent (dropped after the timeout, or left) and
//     core.SplitEvent (a lost peer heard again); for a spectator
//     core.SpectatorJoinedEvent and core.SpectatorLeftEvent; where the
//     session predicts, core.TimesyncEvent.
type Event = core.Event
