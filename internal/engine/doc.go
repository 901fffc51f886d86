// Package engine is rollstep's sans-IO deterministic engine: one engine
// with two settings, input delay D and prediction window W, that is
// lockstep with W = 0 and GGPO-style rollback with W > 0 (see
// docs/architecture.md §1 and §3). It is internal: games drive it through
// the root package's Session and are written in package core's
// vocabulary (Game, Input, Frame, Effects, the events).
//
// # The idea
//
// Every player's input for frame f is produced on its own machine at frame
// f−D, tagged with f and sent to every peer. An engine may simulate frame
// f once it holds every player's input for f, or, with W > 0, up to W
// frames past the newest fully known frame using predicted inputs. When a
// real input arrives that differs from the prediction the engine loads the
// state saved before the first wrong frame and re-simulates to the current
// frame, within the same call. D and W are local choices, changeable at any
// frame: peers of one match may run different modes.
//
// Like etcd raft's RawNode, the engine is a synchronous state machine. It
// takes local inputs (AddLocalInput), decoded peer messages (Receive) and
// the current time as an argument (Advance), and returns what to send and
// what happened as data (Ready). It never reads a clock or a socket, starts
// no goroutine and logs nothing. The engine owns the game state and the
// ring of saved states (package state), and calls Game.Step itself, so no
// state can hide outside a snapshot.
//
// # Host loop
//
// The session drives the engine once per tick:
//
//  1. Feed every message that arrived since the last tick to Receive, with
//     the PeerID of its sender and the current time.
//  2. For each local player, read the device and call AddLocalInput; the
//     input applies to frame Frame()+D. ErrInputDiscarded is harmless.
//  3. Call Advance(now). It applies any correction (rollback and
//     re-simulation), simulates at most one new frame, and returns a Ready.
//  4. Send each of Ready.Messages to its peer (encode before the next
//     Advance: the engine reuses the buffers).
//  5. Play Ready.Effects, stop Ready.Cancelled, handle Ready.Events.
//  6. Render State(); it must not be written.
//
// A host that is behind calls steps 2 and 3 several times in one tick.
//
// # Input delay changes
//
// Every frame of a local player holds exactly one input, written once. The
// next input goes to frame Frame()+D. If that frame is past the player's
// newest scheduled frame (D was raised by k), the k frames between are
// filled with the player's previous input. If it is at or before it (D was
// lowered, or a second call in one frame), the frame already has its input
// and the new one is discarded (ErrInputDiscarded), so lowering D by k
// drops k inputs. No peer ever sees two different inputs of a player for
// one frame; a peer that sends them is reported by an EquivocationEvent.
//
// The filled frames reach Step with status InputFilled, the previous
// input as value (the zero value with Config.FillZero, for command-style
// inputs), on every peer alike.
//
// # Control channel
//
// Each player's slot of a frame (Slot: what Ready's messages carry and
// Receive takes) holds its input and a control word: the match commands
// the player gave (Pause, Resume, SetSpeed, queued and attached to its
// next input), the fill mark and its step-time report (SetStepReport,
// StepReport). Commands are simulated: every peer applies one at the
// frame it rides, the control state (Control) is saved, rolled back and
// checksummed with the game's state, and while the game is paused Step
// is not called while frames still advance. PauseEvent and SpeedEvent
// report each change once its frame is confirmed. Config.StepsPerFrame
// runs Step several times a frame (a lockstep turn of several ticks), and
// ReadSteps gives the inputs of every Step of a logged frame, so a replay
// of ReadSteps reproduces a paused or multi-tick match.
//
// # Confirmation and desyncs
//
// A frame is confirmed when every input of it and of every earlier frame is
// known and it was simulated with them; it is never simulated again. The
// confirmed frames' inputs go to the input log (ReadLog), and the state
// after every N-th confirmed frame is checksummed and sent to every peer.
// Only confirmed frames are compared, so predictions and rollbacks never
// raise a false desync. A mismatch raises a DesyncEvent with both
// checksums and the retained local state (Config.SnapshotRetention).
// Neither does a split: when this engine agrees a disconnect frame d
// while a peer is gone, without that peer's vote (every link broke before
// the vote completed), the peer's reports of frames from d on are not
// compared, since it may have confirmed them with other inputs.
//
// # Naming the differing fields
//
// Then the peers narrow the difference down without sending their states.
// Each engine keeps a copy of its state after the desynced frame (one copy
// per frame, shared by every peer that desynced at it, released when the
// peer disconnects) and runs its own search, the other peer answering it:
//
//  1. Query: the hashes of the blocks of one byte range, cut into at most
//     64 blocks of ceil(length/64) bytes (Message.Blocks; the first range
//     is the whole state).
//  2. Answer: the peer hashes the same blocks of its own state after that
//     frame and returns a 64-bit mask of those that differ (an entry of
//     Message.Answers), or Unavailable when it no longer holds the state.
//  3. Each differing block becomes a range: one that lies inside a single
//     leaf field names that field; any other is queried again, 64 times
//     smaller. A 1 MiB state takes three or four rounds to name a field.
//
// Several queries are in flight at once: the searcher keeps up to 16
// pending, always the lowest ranges in memory not yet asked, and puts one
// in each message, the one sent least recently, so a search costs about
// one message per query plus a round trip per round instead of a round
// trip per query (16 fields scattered over 360 KiB: 41 queries in 55 to
// 65 messages at 60 messages a second and a 100 ms round trip, against
// 290 to 300 with one query at a time).
// The answerer answers every query it receives and sends up to MaxAnswers
// answers a message, each in the next few messages after every copy of
// its query, so loss, duplication and reordering only delay the search;
// an answer that matches no pending query is dropped. Fields named above
// a range still being searched wait for it, so a DesyncFieldsEvent names
// exactly the leaf fields whose bytes differ, at most 16, in memory
// order, or the first of them and why it is Incomplete (more fields
// differ, 64 queries spent, a state expired, the peer disconnected).
//
// A peer that has not confirmed the queried frame yet waits before
// answering, so the peers may detect the desync at different times (and
// at different frames, when checksum reports arrive out of order): an
// engine asked about a frame it did not detect at answers from its
// retained snapshots and, the first time, keeps a copy of that state for
// the rest of the peer's search, which it follows answer by answer. It
// holds at most two such copies at once, shared by frame, released when
// that search ends or the peer is gone. A query with 64 hashes and four
// answers take at most 626 bytes of a packet (see package
// internal/wire). The search runs only after a desync: it allocates, the
// steady state does not.
//
// # Disconnects
//
// DisconnectPeer declares a peer gone. Peers gossip the declaration
// (Message.Gone) and the number of the player's inputs they hold
// (Message.Held). A peer adopts a declaration it hears only from a peer
// whose lowest player handle is below the declared peer's, so when two
// peers time each other out, every peer that hears both keeps the one
// with the lower handle, whichever declaration arrives first (the rule
// and its limits are in disconnect.go); a peer declared by a higher one
// is dropped by each peer's own timeout. Once every remaining peer has
// declared it, each computes
// the same frame: the largest number of the player's inputs any remaining
// peer holds. Peers holding fewer get the missing inputs relayed, so no
// confirmed frame is ever undone; from that frame on the player's input is
// InputDisconnected (DisconnectEvent). Taking the smallest number instead
// would force a peer that already confirmed frames with the player's real
// inputs to roll back confirmed frames.
//
// # Returns
//
// A disconnected peer can come back. One remaining peer, the sponsor,
// takes a Snapshot of its confirmed state, sends it, and calls ReturnPeer:
// a return command in its next input names the return frame R, so every
// peer agrees when the player's inputs are real again (until R they stay
// InputDisconnected). Once the command is written, Handoff gives the
// confirmed inputs from the snapshot frame on, and the returning peer's
// new engine starts with Resume, which replays them, checks the result
// against the sponsor's checksum and joins the match at the handoff frame.
// The rule, and how peers tell a stale disconnect vote from a new one, is
// in rejoin.go; the record's layout in handoff.go.
//
// # Sync test
//
// With Config.SyncTest = k, every new frame is followed by a rollback of k
// frames and a re-simulation whose checksums must equal the first
// simulation's; a SyncTestEvent names the first frame where they do not
// and the differing fields. The sync test never rolls back further than a
// real rollback could: its distance is min(k, W), following SetPrediction,
// so a lockstep engine (W = 0) does not sync-test, and Stats.SyncTest
// reports the distance in effect. With Config.SyncTestSparse, the k frames
// since the last check are re-simulated once every k frames instead: each
// frame is checked once, not k times, for about one extra Step a frame
// instead of k. Building with the rollstep_synctest tag
// turns this on for every engine whose MaxPrediction allows it
// (DefaultSyncTest).
//
// # Effects
//
// Step emits side effects into Effects instead of playing them. The engine
// delivers each effect once, at the end of the Advance that simulated its
// frame, and reports in Ready.Cancelled the effects a later re-simulation
// of the frame no longer emits (see Effects).
package engine
