// Package lockstep documents lockstep and auto mode of the rollstep
// session. A lockstep session never runs a turn before it holds every
// player's input for it: input delay D ≥ 1 and no
// prediction (W = 0), a policy of the one engine of package core (see
// docs/architecture.md §1). It suits RTS games and anything with a large
// state: the bandwidth is the inputs', whatever the state's size, and no
// state is ever saved, loaded or simulated twice.
//
// A lockstep session is the one session of every mode,
// rollstep.NewSession with Config.Mode rollstep.Lockstep (or rollstep.Auto,
// which adds prediction beyond a delay budget); Config, Session and
// NewSession on this page are package rollstep's, which documents the
// host loop, inputs, the life cycle of a match, events, Stats, pause and
// speed, EndAt, spectators and replays. The package has no names of its
// own: its examples show a lockstep match. This page describes what is
// particular to lockstep and auto mode.
//
// # Turns
//
// A frame of a lockstep session is called a turn. A turn lasts T
// (Config.TurnPeriod, or one second over Config.TickRate; 10 turns per
// second by default) and is one engine frame
// made of Config.TicksPerTurn calls of the game's Step: the first gets the
// turn's inputs, the others the zero input. So a game can step its
// simulation at 30 Hz while its players' inputs travel at 10 Hz, and a
// replay frame is one Step, not one turn (see Recording replays).
//
// Each turn, every local player's oldest queued input (AddLocalInput; the
// zero I if none) is scheduled D turns ahead, and the Update that ran
// the turn sends it to every peer. A turn runs when T has passed since the
// previous one (a fixed-timestep accumulator, bounded to
// Config.MaxStepsPerUpdate turns per Update) and every input for it is
// held. A turn's inputs are
// made when it runs, not when it is due, so with one-way latency L the
// pace settles at max(T, L/D, Tcpu), Tcpu being the slowest machine's
// step time: with T = 100 ms, D = 2 and L = 300 ms, a turn's inputs arrive
// 300 ms after the turn two before it ran, and turns come every 150 ms.
// In Lockstep mode every turn before the current one is confirmed
// (ConfirmedFrame is Frame()-1).
//
// # Command-style inputs
//
// Inputs are command-style by default: each turn takes the oldest queued
// input of a local player, or the zero I (no command) when none is
// queued, so a game calls AddLocalInput whenever the player gives an
// order, and orders given faster than one a turn go out on the following
// turns (at most Config.MaxQueuedInputs wait; Stats.Queued is the longest
// queue). With Config.Inputs Held they are state-style instead, as in
// Rollback mode: every turn takes the newest input given.
//
// # Adaptive delay
//
// Every Config.DelayWindow turns (about a second, or as long as that many
// turns take at full pace, so stalls are acted on soon) the session gives
// its delay controller the round trip to the slowest peer,
// its jitter and the window's stall time. D rises at once when stalls
// appear and falls by one only after sustained slack, between
// Config.MinDelay (1) and Config.MaxDelay (16); Config.FixedDelay keeps it
// at Config.InputDelay. Each change is a core.DelayEvent.
//
// Lowering D by one leaves a turn that already has its input, so the
// input queued for the next turn would have to wait a turn; for a player
// who gives an input every turn it would wait for ever, and every
// lowering would add a turn of lag behind a smaller D. So with
// command-style inputs the session lowers D only at a turn where the
// player has nothing queued: no command is lost and none waits behind a
// smaller D (a player who gives an input every turn keeps its D). When D
// rises, the engine fills the skipped turns (core.InputFilled) with the
// zero input, so no command is applied twice.
//
// # Stalls and slow machines
//
// A due turn whose inputs are missing stalls. The session counts the wait
// per turn (*core.StallEvent, Stats.LastStall, Stats.StalledFrames,
// Stats.MaxStall) and per peer waited for (Stats.Peers[i].Stall), and repeats
// its messages every Config.ResendInterval (a quarter of a turn, at most
// 50 ms, by default).
//
// A slow machine is paced, not waited for. With Config.StepClock set, the
// session measures how long its game's Steps take per turn and reports
// the largest of each delay window in the control word of its inputs
// (core.Slot), so every peer runs turns at the slowest reported step time
// (Stats.SlowestStep, Stats.Period) when it exceeds T instead of stalling
// on that machine every turn. Without a StepClock the step time is taken
// as 0.
//
// # Pause and game speed
//
// Pause, Resume and SetSpeed ride the player's next turn input in its
// control word, so every peer pauses, resumes or changes speed at the same
// turn (core.PauseEvent, core.SpeedEvent). The same word carries the step
// time and marks the filled turns; it changes only when the player acts or
// its step time does, so the wire codec's XOR-delta coding makes it nearly
// free on idle turns. While paused, turns keep running (inputs and
// checksums flow) but the game's Step is not called; queued game inputs
// wait until the game resumes, and inputs already scheduled for paused
// turns are dropped.
//
// # Auto mode
//
// A positive Config.Prediction (or Config.Mode rollstep.Auto) makes the
// session the hybrid of docs/architecture.md §1: the controller covers the
// latency with delay while the lag it adds fits Config.DelayBudget (100 ms
// by default) and predicts the rest, with W up to Config.Prediction,
// repairing a misprediction by rollback, and it switches at any turn as
// the link changes. It starts at D = 1 without predicting. Unlike
// Lockstep, its default rate is 60 frames per second
// (60 frames a second); set TickRate or TurnPeriod for turns.
// Inputs stay command-style by default, and predicted remote inputs are
// the zero I.
//
// Auto mode runs timesync, as Rollback mode does (Config.TimesyncWindow and the fields after it; see
// package rollback): a peer that runs ahead of another, say after its
// process was frozen and caught up, waits a few turns instead of
// predicting further, and rolling back deeper, than the link requires for
// the rest of the match (Stats.Waited, core.TimesyncEvent). Plain
// Lockstep needs none: it never runs ahead.
//
// # Spectators
//
// A lockstep session streams its confirmed turns to Config.Spectators as
// any session does (see package rollstep; a spectator that lags more than
// Config.SpectatorMaxLag turns is dropped, core.SpectatorEvent).
// rollback.NewSpectator plays the stream: its TickRate is the turn rate
// and its StepsPerFrame the TicksPerTurn.
//
// # Recording replays
//
// Set Config.LogRetention to more turns than run between two Updates and,
// after every Update, call a replay Recorder's AddLog with the
// session. AddLog reads ReadSteps, which gives the inputs of every call of
// the game's Step in a turn: none when the game was paused, TicksPerTurn
// calls otherwise, the first with the turn's inputs and the others with
// the zero input. A replay frame is thus one Step, not one turn, and the
// replay reproduces the match however it was paused and whatever
// TicksPerTurn. Whether a turn was paused is the answer of the simulation
// that confirmed it (in auto mode, a turn predicted without a pause
// command may be simulated again with it), so every peer records the same
// replay.
//
// ReadLog gives each turn's inputs exactly as the game's Step got them on
// the turn's first tick; a turn filled when D rose has the zero input
// there (core.InputFilled), as the game saw it, so a command is not
// applied twice on playback. LogRange, ReadLog and ReadSteps all count
// turns, so a recorder needs nothing but its next turn. Recording through
// a wrapper of the game's Step, as the examples do, also works but sees
// predicted steps in auto mode.
package lockstep
