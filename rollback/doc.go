// Package rollback is rollstep's GGPO-style front end: a session predicts
// the inputs of remote players, runs ahead of them by up to W frames
// (the prediction window, 8 by default), and when a real input differs
// from its prediction it loads the state saved before that frame and
// re-simulates, within the same Update. It suits fighting games and other
// games with a small state; see docs/architecture.md §1 and §6.
//
// A Session is a thin policy over the one engine of package core, with
// W > 0 and a small input delay D (0 to 2 frames, chosen once a second
// by the delay policy of core/delay from the measured round trip unless
// fixed). The engine does the prediction, rollback, confirmation, desync
// detection and disconnect agreement; the session adds the game loop's
// fixed timestep (core/pace), the network (transport/endpoint over a
// transport.Conn: handshake, keep-alives, timeouts), timesync, the
// spectator stream and the events the game sees.
//
// # Host loop
//
// Each rendered frame:
//
//  1. Read the clock once: now (a monotonic time.Duration; the session
//     reads no clock itself).
//  2. For each local player, read the device and call AddLocalInput with
//     the input the player holds. Every frame simulated until the next
//     call uses it.
//  3. Call Update(now). It receives, runs the timers, simulates the frames
//     the fixed timestep owes (at most Config.MaxStepsPerUpdate; a long
//     hitch is caught up over the following calls), rolls back when a
//     correction arrived, and sends.
//  4. Play the effects Effects returns and stop the cancelled ones; they
//     are delivered once per frame even when a frame is re-simulated.
//  5. Handle Events: desyncs, disconnects, timesync recommendations, ...
//     To record a replay, drain ReadLog into a core/replay Recorder.
//  6. Render Previous and State blended by Fraction. Both are copies:
//     rendering can read them but never write the simulation.
//
// To end the match at a frame every peer reaches, call EndAt with the
// same frame on every peer; the session leaves once every peer holds what
// it needs (MatchEndedEvent, Ended). Close sends a Leave to every peer at
// once and closes the Conn.
//
// # Starting
//
// Every peer is configured with the same match (players, tick rate,
// checksum interval, game build and input type); the endpoint compares a
// digest of it in the handshake and refuses a mismatch naming the field
// (RefusedEvent, then Update returns ErrRefused). Frame 0 runs once every
// peer is connected (StartedEvent). A peer whose handshake times out
// fails Update with its *endpoint.HandshakeTimeoutError instead, unless
// Config.SoloStart lets the match start without it. The initial state is built by the
// game from the shared match parameters on every peer.
//
// # Timesync
//
// A peer that runs ahead of another makes it roll back more. Every
// message carries the sender's current frame, which, unlike the frame of
// its newest input, does not depend on the sender's D. Each tick the
// session estimates every peer's frame now from the newest one reported,
// half the smoothed round trip and the time since it arrived, averages
// its advantage over a window (one second), and when it is at least
// TimesyncConfig.MinAdvantage frames raises a TimesyncEvent and skips
// that many frame periods (at most MaxWait), unless Manual is set, in
// which case the game calls Wait. Arithmetic is in int64 nanoseconds,
// clamped to ±MaxAdvantage frames, so a peer paused for hours overflows
// nothing. A stall (W exhausted) also slips the local schedule: the
// fixed timestep does not catch up time spent waiting for inputs.
//
// # Pause and game speed
//
// Pause, Resume and SetSpeed are commands of the engine's control channel
// (see package core): each rides the local player's next input, so every
// peer, whatever its mode, pauses, resumes or changes speed at the same
// frame and reports a core.PauseEvent or core.SpeedEvent once the frame is
// confirmed. A prediction carries no command; a late one is corrected by
// rollback like any input. While paused, frames keep running (inputs,
// timesync and checksums flow) but the game's Step is not called; at a
// speed of p percent a frame lasts 100/p of the tick period, on the
// spectators too.
//
// # Disconnects
//
// A peer silent for the interrupt timeout raises InterruptedEvent (and
// ResumedEvent if heard again); silent for the disconnect timeout, or
// leaving, it raises PeerLostEvent, and the engines of the remaining
// peers agree on the frame from which its players' inputs are
// disconnected (core.DisconnectEvent, the same frame everywhere). A peer
// lost to silence that is heard again raises SplitEvent: each side played
// on without the other from the frame it dropped it. Transient send
// errors (an unreachable network, a refused port) are counted, not
// returned.
//
// # Spectators
//
// A host lists spectators' addresses in Config.Spectators; each runs
// NewSpectator against the host. The host streams only confirmed inputs,
// optionally StreamConfig.Delay frames late, and never waits for a
// spectator: one more than StreamConfig.MaxLag frames behind is dropped.
// A spectator plays at the tick rate and catches up faster, at most
// MaxStepsPerUpdate frames per Update, when it has fallen behind. When the
// host leaves, is lost, or drops it, a StreamEndedEvent ends it cleanly.
// The host may be a session of any mode: a lockstep host streams the same
// slots (SpectatorConfig.TickRate is then its turn rate).
//
// # Recording replays
//
// The input log is the way to record a match: set Config.LogRetention to
// more frames than are confirmed between two Updates and, after every
// Update, read the frames from the recorder's end to LogRange's end with
// ReadLog into a core/replay Recorder (or call its AddLog with the
// session), as ExampleSession_ReadLog shows. The log holds confirmed
// frames only, with exactly the inputs the game's Step got in each
// frame's final simulation, never a prediction, so the replay reproduces
// the match; a wrapper of the game's Step would also see the predicted
// simulations that a rollback later replaced.
//
// # Sync test
//
// NewSyncTest runs a game with every player local and, after every frame,
// rolls back CheckDistance frames, re-simulates and compares checksums; a
// *SyncTestError names the first frame and the fields that differ. The
// rollstep_synctest build tag turns the same check on inside every
// Session (core.DefaultSyncTest), reported as core.SyncTestEvent.
package rollback
