package core

// Event is an advisory event. The engine raises, in Ready.Events,
// DesyncEvent[S], DesyncFieldsEvent, EquivocationEvent, DisconnectEvent,
// SyncTestEvent, EffectsDroppedEvent, PauseEvent and SpeedEvent; the
// session front ends raise the events of session_events.go (the peer
// life cycle, timesync, spectators, delay changes, the end of the match)
// in every mode. Use a type switch.
type Event interface {
	isEvent()
}

// DesyncEvent reports that a peer's checksum of a confirmed frame differs
// from the local one. The difference arose between frames Since and Frame
// (Since = Frame-N+1 for checksum interval N). Only the first desync with
// each peer is reported. Snapshot is a copy of the local state after Frame
// when it was still retained, else nil; it is the caller's to keep.
// A DesyncFieldsEvent naming the differing fields follows once the desync
// search with the peer ends.
type DesyncEvent[S any] struct {
	Peer     PeerID // the peer whose checksum differs
	Frame    Frame  // the checksummed frame where the difference was seen
	Since    Frame  // the first frame that can have caused it
	Local    uint64 // this engine's checksum of the state after Frame
	Remote   uint64 // the peer's checksum
	Snapshot *S     // a copy of the local state after Frame, or nil
}

// DesyncFieldsEvent names the fields of the state after Frame that differ
// between this engine and Peer. After a DesyncEvent the two engines narrow
// the difference down without sending their states: block hashes of ever
// smaller byte ranges (at most 64 per message, 64 times smaller each round)
// until each differing range lies inside one leaf field or is one byte.
// Paths therefore names exactly the leaf fields whose bytes differ, such as
// "Units[17].Pos.X", in memory order, at most 16 of them; it never names a
// field that does not differ. The search takes about log64(state size)
// queries per differing field, with up to 16 of them in flight at once,
// so it lasts a few round trips (16 scattered fields of a 360 KiB state:
// 41 queries in about 55 messages), and is raised once per DesyncEvent.
//
// Incomplete reports that Paths may leave differing fields out, and Reason
// says why: more than 16 fields differ (Paths holds the first 16), the
// search reached its bound of 64 queries, the state after Frame expired on
// this engine (see Config.SnapshotRetention) or on the peer before the
// search could use it, or the peer disconnected during the search.
type DesyncFieldsEvent struct {
	Peer       PeerID   // the peer whose state differs
	Frame      Frame    // the desynced frame
	Paths      []string // differing leaf field paths, at most 16, memory order
	Incomplete bool     // Paths may miss differing fields; see Reason
	Reason     string   // why Incomplete, or ""
}

// EquivocationEvent reports that Peer sent an input of Player for Frame
// that differs from the one it sent before. The first input stands.
type EquivocationEvent struct {
	Peer   PeerID       // the sender of the contradicting input
	Player PlayerHandle // whose input
	Frame  Frame        // the first contradicted frame in the message
}

// DisconnectEvent reports the agreed frame from which Player's inputs are
// InputDisconnected. Every peer that stays connected to the others reports
// the same Frame; two sides of a split (each lost the other) each decide
// alone and may differ.
type DisconnectEvent struct {
	Player PlayerHandle // the disconnected player
	Frame  Frame        // the first frame with InputDisconnected
}

// SyncTestEvent reports that re-simulating Frame gave a different state
// than its first simulation: Step is not deterministic. Frame is the first
// bad frame found; Paths names the differing fields (at most 16).
type SyncTestEvent struct {
	Frame Frame    // the first frame whose re-simulation differed
	First uint64   // checksum after the first simulation of Frame
	Again uint64   // checksum after the re-simulation
	Paths []string // differing field paths, at most 16
}

// EffectsDroppedEvent reports that Step emitted more than
// Config.MaxEffectsPerFrame effects for Frame; Dropped were not kept.
type EffectsDroppedEvent struct {
	Frame   Frame // the frame whose Step emitted too many effects
	Dropped int   // how many were dropped
}

// PauseEvent reports that the game was paused (Paused true) or resumed
// from frame Frame on, by Player's command (Pause, Resume). It is raised
// once, when Frame is confirmed; every peer reports the same Frame and
// Player.
type PauseEvent struct {
	Frame  Frame        // the first frame paused (or running again)
	Player PlayerHandle // whose command
	Paused bool         // paused, or resumed
}

// SpeedEvent reports that the game speed became Percent of normal from
// frame Frame on, by Player's command (SetSpeed), once Frame is confirmed.
type SpeedEvent struct {
	Frame   Frame        // the first frame at the new speed
	Player  PlayerHandle // whose command
	Percent int          // the new speed, MinSpeed..MaxSpeed
}

func (PauseEvent) isEvent()          {}
func (SpeedEvent) isEvent()          {}
func (DesyncEvent[S]) isEvent()      {}
func (DesyncFieldsEvent) isEvent()   {}
func (EquivocationEvent) isEvent()   {}
func (DisconnectEvent) isEvent()     {}
func (SyncTestEvent) isEvent()       {}
func (EffectsDroppedEvent) isEvent() {}
