// Package rollstep is deterministic multiplayer netcode: peers exchange
// only their players' inputs, and every peer runs the same deterministic
// simulation, so a match costs the bandwidth of its inputs whatever the
// size of the game's state.
//
// A match is played through a Session, one implementation for every mode.
// NewSession(cfg, game, initial, conn) returns a *Session whatever
// Config.Mode says. The mode is only a policy over the sans-IO engine of
// package core, which two numbers govern: the input delay D (an input
// given at frame f is scheduled for frame f+D) and the prediction window W
// (how many frames the session may run past the newest frame whose inputs
// it holds, predicting the missing ones and repairing a wrong prediction
// by loading a saved state and simulating again). See
// docs/architecture.md §1.
//
// # Modes
//
//   - Lockstep: W = 0 and D ≥ 1, adapted to the link (1 to 16 by
//     default). No frame (a turn, in this mode) runs before every input for
//     it has arrived, so nothing is predicted, saved or simulated twice.
//     Inputs are queued commands by default, at 10 turns per second. It
//     suits RTS games and large states; package lockstep explains its
//     pacing.
//   - Rollback: W = 8 by default (Config.Prediction) and D between 0 and
//     2, chosen from the measured round trip. Inputs are held state, at 60
//     frames per second by default. It suits fighting games and small
//     states; package rollback explains prediction and timesync, and holds
//     the spectator client and the sync test.
//   - Auto: D covers the latency while the lag it adds fits
//     Config.DelayBudget (100 ms by default) and prediction covers the
//     rest, up to Config.Prediction frames (8 by default). The session
//     moves between the two at any frame as the link changes: at 20 ms it
//     plays as lockstep, at 150 ms it predicts. Inputs are queued by
//     default, as in Lockstep.
//
// Nothing else depends on the mode: the handshake, the life cycle and its
// events, Stats and stall accounting, pause and game speed, the agreed end
// of a match, spectators and the input log work the same way in all
// three. Timesync runs wherever the session predicts (Rollback and Auto).
// The zero Mode is refused with a *ConfigError naming Mode,
// so a forgotten Mode never becomes a silent default.
//
// # Configuration
//
// Config configures every mode. Mode, Peers and, for a peer that plays,
// Local must be set; every other zero field takes the default its comment
// gives for the mode all filled in at one place.
// Config.Validate, and NewSession, report the first problem: a
// *ConfigError naming the field (it matches
// ErrInvalidConfig; a transport field is named Transport.X).
//
// The match fields must agree on every peer, whatever mode each runs:
// Players, the frame period (TickRate or TurnPeriod), TicksPerTurn,
// ChecksumInterval, Game and the input type. The handshake compares a
// digest of them and refuses a peer that differs, naming the field. Peers
// agree on the match before the session starts (a lobby hands out the
// seats, the seed and the secret), and every peer builds the initial state
// the same way from what they agreed.
//
// # Host loop
//
// A Session is not safe for concurrent use, starts no goroutine and reads
// no clock other than Config.StepClock: the game loop drives it.
//
//  1. Build the session: NewSession(cfg, game, initial, conn), where every
//     peer builds initial the same way and conn is a transport.Conn
//     (transport/udp, transport/dtls, or transport/sim in tests). The
//     session owns conn from then on.
//  2. Each frame of the game loop, read a monotonic clock once: now.
//  3. Give each local player's input with AddLocalInput (see Inputs).
//  4. Call Update(now): it receives, runs the frames that are due and may
//     run (after a rollback, if a correction arrived), and sends.
//  5. Play the effects of Effects and stop the cancelled ones; handle
//     Events; to record a replay, feed the input log to a recorder.
//  6. Render the game's blend of Previous() and State() by Fraction().
//     Both are copies owned by the session: read them, never write them
//     or keep them past the next Update.
//  7. At the end, call EndAt with the same frame on every peer, or Close
//     to leave at once.
//
// # Inputs
//
// AddLocalInput takes a local player's input in one of two styles; the
// value is copied.
//
// Queued, or command-style (Lockstep and Auto by default): an input is a
// command, such as an order to a group of units. Each frame takes the
// oldest queued input of every local player, or the zero I (no command)
// when none is queued, and schedules it D frames ahead, so the game adds
// an input whenever the player acts. At most Config.MaxQueuedInputs (32 by
// default) wait; beyond that AddLocalInput returns ErrQueueFull. Remote
// inputs are predicted as the zero I, and a frame the engine fills when D
// rises carries the zero I, so no command is ever applied twice.
//
// Held, or state-style (Rollback's default, and in any mode with
// Config.Inputs Held): an input is what the player holds, such as a stick
// and its buttons. AddLocalInput sets it, once per rendered frame before
// Update, and every frame schedules the newest. Remote inputs are
// predicted by repeating the last one, and a filled
// frame repeats the previous input.
//
// SetPredictor replaces the prediction in either style. The game's Step
// gets the inputs of a frame in player order, each with its status
// (core.InputConfirmed, core.InputPredicted, core.InputFilled,
// core.InputDisconnected).
//
// # Pacing and stalls
//
// Frames are paced by a fixed timestep at the frame
// period: TurnPeriod, or one second over TickRate. One Update runs at most
// Config.MaxStepsPerUpdate frames, so a hitch is caught up over the
// following Updates (Config.MaxCatchUp bounds the debt). A frame that is
// due but cannot run, because its inputs are missing and may not be
// predicted, stalls: the session repeats its messages every
// Config.ResendInterval, and when the frame runs it reports a *core.StallEvent
// and counts the wait in Stats, per frame and per peer waited for. The
// schedule slips by the stall instead of catching it up. Every player's
// inputs carry its machine's step time (measured with Config.StepClock),
// and every peer paces frames at the slowest step time reported when it
// exceeds the period, rather than stalling on that machine.
//
// # Life cycle of a match
//
// A match goes through the same stages in every mode, each reported as an
// event of package core:
//
//   - Handshake. The first Update starts a handshake with every peer; each
//     that completes raises core.ConnectedEvent. A peer that differs in a
//     match field is refused: core.RefusedEvent, and from then on Update
//     returns an error matching ErrRefused whose text names the
//     field. A DTLS listener waits for
//     its clients inside Update, as a UDP session waits for Hellos, so the
//     host needs no wait loop of its own.
//   - Start. Once every player's peer is connected, core.StartedEvent
//     reports that frame 0 may run (Stats.Started); spectators never hold the
//     start back. No match starts alone by accident: when a peer's
//     handshake does not finish within Transport.HandshakeTimeout, Update
//     fails with an error matching ErrHandshakeTimeout, which says what
//     arrived from the peer's address, unless Config.SoloStart lets the
//     match start without it (its players disconnected from frame 0).
//   - Running. A peer silent for the interrupt timeout raises
//     core.InterruptedEvent, and core.ResumedEvent if it is heard again.
//     Transient send errors (an unreachable network, a refused port) are
//     counted in the peer's SendErrors (Peer) and retried by the protocol;
//     Update returns only errors that end the match.
//   - Lost. A peer silent for Transport.DisconnectTimeout, or one that
//     left, raises core.PeerLostEvent: Left and Reason (a core.LeaveReason)
//     when it sent a Leave, Agreed when the other peers agreed it was gone
//     before this session noticed. The peers that remain agree on one frame
//     from which its players' inputs are core.InputDisconnected
//     (core.DisconnectEvent, the same frame everywhere) and play on.
//   - Split. A peer lost to silence that is heard again raises
//     core.SplitEvent with the frame it was dropped at: each side played
//     on without the other from that frame. A session probes the peers it
//     lost, and the probes say so: a peer that still heard it (one
//     direction of the link failed, or two peers lost each other while the
//     others heard both) drops it too (core.PeerLostEvent with Dropped)
//     when its side is the one to yield, and then reports the split and
//     yields, or when its lowest player handle is below the prober's, so
//     that the others drop the prober as well. The side whose lowest player
//     handle is higher yields (a session's side is itself and the peers it
//     still hears and plays with; a restarted process is on no side until
//     it has taken the lowest side's state): each of its sessions throws its frames away and
//     rejoins from the other side, one after the other (Stats.Rejoining
//     says so until its core.RejoinEvent, which counts them in
//     Discarded). With more than two
//     sides, as when every link dropped at once, a session offered the
//     state of a side lower than the one it joined yields again, so the
//     match heals to the side of the lowest handle in any order. A
//     partial partition (two peers cannot reach each other, the others
//     reach both) can outlast a rejoin: a session that has not heard a
//     peer for the disconnect timeout since the match brought it back
//     drops it again, and a session dropped again soon after its own
//     return waits before it yields again, twice as long each time (5 s
//     up to 40 s at the default timeout; Stats.Rejoining says so), so
//     the tries cost the others little until the link heals. With several links broken at once, a
//     session may wait for the others' agreement to a drop they never
//     make; blocked so for two disconnect timeouts, it starts over as a
//     restarted process would and takes the others' state.
//   - Rejoined. A peer whose process restarted, started with the same
//     Config and Rejoin set, proves it holds the token and comes back: the
//     survivor with the lowest player handle sends it the confirmed state
//     and the inputs since, every peer agrees the frame from which its
//     inputs count again, and each reports a core.RejoinEvent (Err is
//     nil, or says why it failed, matching ErrRejoin). The others never
//     wait for the transfer.
//   - Open seats. A Peer with Open set is a seat nobody holds at the
//     start: the match does not wait for it, its players' inputs are
//     core.InputDisconnected from frame 0, and a player takes it mid-match
//     exactly as a restarted one rejoins (Config.Rejoin), reported by the
//     same core.RejoinEvent.
//   - Ended. EndAt ends the match at an agreed frame (core.MatchEndedEvent,
//     then Ended once the session left; see Ending a match), after which
//     Update does nothing. Close leaves at
//     once: the other peers see a core.PeerLostEvent with Reason
//     core.LeaveQuit.
//
// # Events
//
// Events returns the events raised since its previous call, in order:
// one set of types in every mode, read with a type switch. Besides the
// life cycle above, there are *core.StallEvent (a pointer, valid until the next
// Events call, so that a stalled frame allocates nothing), the engine's
// events (core.DesyncEvent, core.DesyncFieldsEvent naming the fields that
// differ, core.EquivocationEvent, core.DisconnectEvent,
// core.EffectsDroppedEvent, core.PauseEvent, core.SpeedEvent),
// core.DelayEvent when D or W changes, core.SpectatorEvent when a
// spectator joins or goes, and core.TimesyncEvent where the session predicts
// (with Config.ManualTimesync the game applies it with Wait; see package
// rollback).
// At most 4096 are kept between two calls; the rest are counted in
// Stats.DroppedEvents.
//
//	for _, ev := range s.Events() {
//		switch e := ev.(type) {
//		case *core.StallEvent:
//			// e.Stall: how long frame e.Frame waited; e.Waiting: for whom
//		case core.PeerLostEvent:
//			// e.Peer is gone; its players' inputs are disconnected
//		case core.DesyncFieldsEvent:
//			// e.Paths name the fields of the state that differ
//		}
//	}
//
// # Stats
//
// Stats returns the session's counters, one type in every mode: the
// current frame and the frames played (Frame, Played), the pause state
// and speed, the current D and W (Delay, Prediction), the rollbacks and
// the frames simulated again, the checksums compared and the desyncs
// found, the current frame period (Period), the stalls (Stall,
// StalledFrames, LastStall, MaxStall), the frames timesync waited
// (Waited, Timesync), the step times (StepTime, SlowestStep), the input
// queue (Queued, Requeued), per peer (Peers, indexed by core.PeerID) its
// state in the life cycle, when it was last heard, the round trip, the
// frames it runs ahead, the traffic, the rollbacks it caused and the
// stalls it caused, and per spectator whether it joined, the frame it
// started from, what its join record cost and what it acknowledged. Its
// slices are the caller's.
//
// # Pause and game speed
//
// Pause, Resume and SetSpeed are commands on behalf of a local player.
// Each rides the player's next input, so every peer, whatever its mode,
// applies it at the same frame and reports a core.PauseEvent or
// core.SpeedEvent once that frame is confirmed. While paused, frames keep
// running (inputs, timesync and checksums flow) but the game's Step is not
// called, and queued inputs wait for the resume. At a speed of p percent
// a frame lasts 100/p of the frame period, on the spectators too.
//
// # Ending a match
//
// EndAt(f) makes f the first frame not played: the session runs no frame
// from f on and leaves once every frame before f is confirmed and every
// peer holds this session's inputs for them, so the first peer to stop
// strands nobody (core.MatchEndedEvent, Ended); a host with spectators
// lifts the stream delay and leaves once they hold the last frame too.
// After a peer was lost to silence, or reported split, the end waits up
// to Transport.DisconnectTimeout for it, so that a split the links' heal
// reveals is reported on both sides before the end (each side then keeps
// its own result), and a peer that yielded it hears the end and plays
// its own side to it instead of waiting for a state no one will send.
// The wait past the last frame is no stall. Every peer's game calls
// it with the same f, decided from the simulation (a round timer, a
// score); a peer whose game has not called it adopts the f of the first
// peer that ends, unless it has already simulated frame f. A frame
// already simulated is refused with an
// error matching ErrOutOfRange, so a predicting session should call EndAt
// at least W frames ahead, or from confirmed state.
//
// # Spectators
//
// A session streams its confirmed frames to the addresses in
// Config.Spectators, Config.SpectatorDelay frames late if asked, so that a
// spectator cannot relay what it sees to a player in time to matter. The
// spectators are extra peers of the session's Conn that never hold the
// match back: one that lags more than SpectatorMaxLag frames is dropped
// (core.SpectatorEvent with Dropped). A session with Config.Spectate (or
// rollback.NewSpectator, which makes one) plays the stream of a session of
// any mode, pauses and speed changes included.
//
// A spectator may start at any time in the match, and quit or crash and
// start again at its address. One that comes more than 256 frames in gets
// a join record first: the confirmed state of a frame the stream delay
// already allows, compressed and paced at Config.RejoinRate like a
// rejoin's snapshot, then the stream from that frame. The session reports
// it with core.SpectatorEvent{Joined: true, From: that frame} once the
// record is through, and SpectatorStats says what it cost; a record that
// does not get through within RejoinTimeout drops the spectator. The
// players never wait for it. Over a Conn that accepts unknown sources
// (transport/udp's AcceptUnknown), a spectator may come from an address
// the host never heard of, as behind a NAT, and takes the first free
// spectator place: list places without addresses (a udp.Peer with the
// zero Addr) to let spectators come from anywhere.
//
// A spectator outlives its host's rejoin. When the host's side yields a
// split, what it streamed since the split is thrown away: the host keeps
// its spectators through its rejoin and then sends each a join record of
// the match kept, and the spectator's replay starts over from it (a
// core.RejoinEvent with Peer -1 on the spectator, a SpectatorEvent Joined
// again on the host). A host whose process restarted does the same for
// the spectators that come back to it. A spectator that loses its host to
// silence waits for it, Config.RejoinTimeout at most, and starts its
// handshake over, so that a host that restarts or comes back after an
// outage takes it back the same way.
//
// # Replays
//
// The input log records a match. Set Config.LogRetention to more frames
// than are confirmed between two Updates and, after every Update, call the
// AddLog method of a replay Recorder with the session. AddLog reads
// ReadSteps, the inputs of every call of the game's Step in each confirmed
// frame (none for a paused frame, TicksPerTurn otherwise), so the replay
// reproduces the match however it was paused and however many Steps a
// frame ran. The log holds confirmed frames only, with the inputs of each
// frame's final simulation, never a prediction; a wrapper of the game's
// Step would also see the predictions that a rollback later replaced.
// LogRange gives the frames the log holds, and ReadLog a frame's inputs
// as Step got them on its first tick, which replays the match too when it
// never paused and TicksPerTurn is 1.
//
// # Mixed modes
//
// Every mode speaks one protocol, and D and W are local choices that no
// other peer needs to know, so the peers of one match may run different
// modes: a Rollback fighter, a Lockstep peer on a good link and an Auto
// peer can share it (Example_mixedModes). They must agree only on the
// match fields, so give them the same TickRate: Lockstep's default
// differs from the others'.
package rollstep
