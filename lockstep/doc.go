// Package lockstep is rollstep's lockstep front end: no peer runs a turn
// until it holds every player's input for it. It is a policy over the one
// engine of package core (input delay D ≥ 1, prediction window W = 0; see
// docs/architecture.md §1 and §6), suited to RTS games and anything with a large
// state: the bandwidth is the inputs', whatever the state's size.
//
// # Turns
//
// A turn lasts T (Config.TurnPeriod) and is one engine frame made of
// Config.TicksPerTurn calls of the game's Step: the first gets the turn's
// inputs, the others the zero input. Each turn, every local player's
// oldest queued input (AddLocalInput; the zero I if none) is scheduled D
// turns ahead and sent to every peer. A turn runs when T has passed since
// the previous one (the fixed-timestep accumulator of package core/pace,
// bounded to Config.MaxStepsPerUpdate turns per Update) and every input
// for it is held. So with one-way latency L, the pace settles at
// max(T, L/D, Tcpu): with T = 100 ms, D = 2 and L = 300 ms, a turn's
// inputs arrive 300 ms after the turn two before it ran, and turns come
// every 150 ms.
//
// Inputs are command-style by default: each turn takes the oldest queued
// input of a local player, or the zero I (no command) when none is
// queued. With Config.HoldInputs they are state-style, as in package
// rollback: every turn takes the newest input given.
//
// # Adaptive delay
//
// Every Config.DelayWindow turns (about a second) the session gives the
// controller of package core/delay the round trip to the slowest peer, its
// jitter and the window's stall time. D rises at once when stalls appear
// and falls by one only after sustained slack. Lowering D by one leaves a
// turn that already has its input, so the session applies it only at a
// turn where the player has nothing queued: no command is lost and none
// waits behind a smaller D (a player who gives an input every turn keeps
// its D). When D rises, the engine fills the
// skipped turns with copies of the previous input; the session gives the
// game the zero input for those, so no command is applied twice.
//
// # Stalls, slow machines and dropped peers
//
// A due turn whose inputs are missing stalls. The session counts the wait
// per turn (StallEvent, Stats.LastTurnStall) and per peer waited for
// (Stats.PeerStall), and repeats its messages every ResendInterval. Each
// player's input carries its machine's step time per turn
// (Config.StepClock), so every peer paces turns at the slowest reported
// step time when it exceeds T, instead of stalling on it. A peer silent
// for Config.Transport.DisconnectTimeout is dropped: the survivors agree,
// through the engine, on one turn from which its players' inputs are
// core.InputDisconnected, even when they notice the silence at different
// times (core.DisconnectEvent carries it).
//
// # Pause and game speed
//
// Pause, Resume and SetSpeed are commands of the engine's control
// channel: each rides the player's next turn input in its control word
// (see core.Slot), and the engine applies it in the simulation, so every
// peer pauses, resumes or changes speed at the same turn (core.PauseEvent,
// core.SpeedEvent). The same word carries the player's step time, and marks
// the turns the engine filled when D rose (core.InputFilled, with the zero
// input unless Config.HoldInputs), so a command is never applied twice.
// It changes only when the player acts or its step time does, so the wire
// codec's XOR-delta coding makes it nearly free on idle turns. Rollback
// sessions speak the same protocol. While paused, turns keep running (inputs and
// checksums flow) but the game's Step is not called; local game inputs
// stay queued until the game resumes, and inputs already scheduled for
// paused turns are dropped.
//
// # Auto mode
//
// With Config.MaxPrediction > 0 the session is the hybrid of
// docs/architecture.md §1: the controller covers latency with delay up to Config.DelayBudget
// and predicts the rest (W up to MaxPrediction), repairing mispredictions
// by rollback, switching at any turn as the link changes. The root
// package's Auto mode is this. Auto mode runs timesync as rollback does
// (Config.Timesync): a peer that runs ahead of another, say after its
// process was frozen and caught up, waits a few turns instead of making
// the other roll back more for the rest of the match (Stats.Waited,
// rollback.TimesyncEvent).
//
// # Spectators
//
// A session streams its confirmed turns to the addresses in
// Config.Spectators, Config.Spectate.Delay turns behind, as a rollback
// session does: the spectators are extra peers of its Conn that never
// hold the match back, and one that lags more than Spectate.MaxLag turns
// is dropped (rollback.SpectatorLeftEvent). The stream carries every
// player's slot, pause and speed commands included, so
// rollback.NewSpectator plays it: its TickRate is the turn rate and its
// StepsPerFrame the TicksPerTurn.
//
// # Recording replays
//
// The input log is the way to record a match: set Config.LogRetention to
// more turns than run between two Updates and, after every Update, call a
// core/replay Recorder's AddLog with the session. AddLog reads ReadSteps,
// which gives the inputs of every call of the game's Step in a turn: none
// when the game was paused, TicksPerTurn calls otherwise, the first with
// the turn's inputs and the others with the zero input. A replay frame is
// thus one Step, not one turn, and the replay reproduces the match however
// it was paused and whatever TicksPerTurn. Whether a turn was paused is
// the answer of the simulation that confirmed it (in auto mode, a turn
// predicted without a pause command may be simulated again with it), so
// every peer records the same replay.
//
// ReadLog keeps its meaning: each turn's inputs, exactly as the game's
// Step got them on the turn's first tick; a turn filled when D rose has
// the zero input there (core.InputFilled), as the game saw it, so a
// command is not applied twice on playback. LogRange, ReadLog and
// ReadSteps all count turns, so a recorder needs nothing but its next
// turn. Recording through a wrapper of the
// game's Step, as the examples do, also works but sees predicted steps in
// Auto mode.
//
// # Host loop
//
//  1. Build the session with NewSession over a transport.Conn; it
//     handshakes with every peer (the config digest must match) before
//     turn 0.
//  2. Each frame of the game loop, read the clock once: now.
//  3. For each local player, AddLocalInput when the player acts (a
//     command-style game) or once per turn (a state-style game).
//  4. Call Update(now): it receives, drops silent peers, runs the due
//     turns whose inputs are held, and sends.
//  5. Play Effects, handle Events (a type switch); to record a replay,
//     drain ReadSteps into a core/replay Recorder.
//  6. Render Lerp(Previous(), State(), Fraction()); never write them.
//  7. At the end, EndAt the same turn on every peer (the session leaves
//     once every peer holds what it needs: MatchEndedEvent), or Close to
//     leave at once.
//
// A peer whose handshake times out fails Update with its
// *endpoint.HandshakeTimeoutError unless Config.SoloStart is set; a peer
// lost to silence and heard again is reported as a core.SplitEvent;
// transient send errors are counted, not returned.
package lockstep
