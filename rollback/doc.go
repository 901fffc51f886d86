// Package rollback documents GGPO-style rollback mode of the rollstep
// session, and holds the spectator client and the sync test. A rollback
// session predicts the
// inputs of remote players and runs ahead of them by up to W frames (the
// prediction window, 8 by default); when a real input differs from its
// prediction, it loads the state saved before that frame and simulates
// again, within the same Update. It suits fighting games and other games
// with a small state; see docs/architecture.md §1.
//
// A rollback session is the one session of every mode,
// rollstep.NewSession with Config.Mode rollstep.Rollback; this package
// declares no session of its own. Config, Session and Stats on this page
// are package rollstep's, which documents the host loop, inputs, the life
// cycle of a match, events, pause and speed, EndAt, spectators and
// replays. This page describes what is particular to rollback.
//
// # What rollback mode sets
//
// With the zero values of Config, a rollback session runs 60 frames per
// second (60 by default) with W = 8 (Config.Prediction, at
// most 64) and a small input delay D, 0 to 2 frames (Config.MaxDelay),
// chosen once a second by the session's delay policy from the
// measured round trip, unless Config.FixedDelay keeps Config.InputDelay.
// Inputs are held state by default (Config.Inputs): a game calls
// AddLocalInput once per rendered frame with what the player holds, and
// every frame simulated until the next call uses it. A session repeats its messages every half
// frame while stalled (Config.ResendInterval) and catches up at most one
// second after a hitch (Config.MaxCatchUp); beyond that the schedule
// slips and timesync rebalances the peers.
//
// # Prediction and rollback
//
// The engine of package core does the prediction, the rollback, the
// confirmation, the desync detection and the disconnect agreement; the
// session adds the fixed timestep, the network and timesync. A missing
// remote input is predicted by repeating the player's last one
// (repeat the last input; Session.SetPredictor replaces it), and the game's Step
// sees it with status core.InputPredicted. A frame is confirmed once every
// input for it has arrived (ConfirmedFrame); predicted frames may follow
// it. A correction is applied before the next frame runs: the session loads
// the state saved before the first wrong frame and simulates up to the
// current one again (Stats.Rollbacks and Stats.ResimFrames count the
// rollbacks and the frames simulated again).
//
// The effects of a frame are delivered once: Effects returns the new ones
// to play and those an earlier Update delivered that the new simulation no
// longer emits, to stop. State and Previous are copies, so rendering can
// read them but never write into a simulation that may be rolled back.
// When W is used up, the session stops and waits for inputs: a stall
// (*core.StallEvent), which, as in every mode, slips the schedule
// rather than being caught up.
//
// # Timesync
//
// Peers should simulate the same frame at the same moment. When one runs
// ahead of another, say after its process was frozen and caught up, the
// other's inputs reach it later in its own frames: it predicts further and
// rolls back deeper than the link requires, and stalls sooner at the end
// of its window, for the rest of the match.
// So a session that predicts (Rollback and Auto) measures its frame
// advantage over its peers and, when it is ahead, waits.
//
// Every message carries the sender's current frame which, unlike the
// frame of its newest input, does not depend on the sender's D. Each
// frame the session estimates every peer's frame now from the newest one
// reported, half the smoothed round trip and the time since it arrived,
// and averages its advantage over a window (one second of frames by
// default). When the average is at least Config.MinAdvantage
// frames (2), it raises a core.TimesyncEvent naming the peer it is
// furthest ahead of and the frames to wait, at most MaxWait (8)
// per window, and skips that many frame periods. With ManualTimesync it
// only raises the event, and the game applies it with Session.Wait;
// NoTimesync turns it off. Skipped periods are not caught up, and
// they count in Stats.Waited, not as stalls; Stats.Timesync holds the
// newest window's estimate. The arithmetic is in int64 nanoseconds, with
// samples clamped to ±65536 frames, so a peer paused for hours overflows
// nothing.
//
// # Spectators
//
// A host lists its spectators' addresses in Config.Spectators (see
// package rollstep); each spectator runs NewSpectator against the host.
// The host may be a session of any mode. SpectatorConfig's Players,
// TickRate, StepsPerFrame, ChecksumInterval and Game must equal the
// host's, since the handshake compares them; for a lockstep host TickRate
// is its turn rate and StepsPerFrame its TicksPerTurn.
//
// A Spectator is a rollstep.Session with Config.Spectate, so it has a
// session's methods and Stats (Buffered counts the frames received and
// not played yet). It plays the host's confirmed inputs: it never
// predicts and never rolls back, so its Effects are final and it cancels
// none. It plays at the tick rate, keeps SpectatorConfig.Buffer frames
// (2) unplayed to absorb jitter, and catches up faster, at most
// MaxStepsPerUpdate (8) frames per Update, when more have arrived. The host streams Config.SpectatorDelay frames late if
// asked and never waits for a spectator: one more than SpectatorMaxLag
// frames behind is dropped. Its Events use the session's life-cycle
// vocabulary with the host as peer 0: core.ConnectedEvent and
// core.StartedEvent once connected, the match's core.PauseEvent,
// core.SpeedEvent and core.DisconnectEvent as it replays them, and at the
// end a core.PeerLostEvent when the host leaves (Left, with its Reason),
// drops the spectator for lagging (Reason core.LeaveDropped), or stays
// lost to silence for 30 s (the rejoin timeout: until then the spectator
// waits, Stats.Rejoining, for a restarted host or the link to come back,
// and its replay starts over from the host's join record, a
// core.RejoinEvent with Peer -1); from then on Ended reports true and
// Update does nothing. A refused
// handshake is a core.RefusedEvent, and Update then returns an error
// matching rollstep.ErrRefused, as a player's session does.
//
// A spectator may start long after the match did. The host then sends it
// the confirmed state of a recent frame before the stream: Frame stays 0
// until that state is in, then jumps to its frame, and the replay goes on
// from there exactly as the players played it. The state is checked
// against its checksum; a bad one ends the stream with a
// core.PeerLostEvent whose Err says so. A spectator that quit or crashed
// may start again at the same address and joins the same way.
//
// # Sync test
//
// NewSyncTest runs a game with every player local: each
// SyncTest.AdvanceFrame simulates a frame from one input per player, then
// rolls back SyncTestConfig.CheckDistance frames, simulates them again and
// compares the checksums; a *SyncTestError (find it with errors.As) names
// the first frame and the fields that differ. Use it in development builds
// and tests to prove the game's Step deterministic before it meets a
// network. A check distance of k costs k extra Steps a frame (a frame
// takes 9 times one without the sync test at k = 8 for a 1 KiB state);
// SyncTestConfig.Sparse checks each block of k frames once instead, about
// one extra Step a frame at any k (2.3 times), with every frame still
// compared once. The
// rollstep_synctest build tag turns the same check on inside every
// session whose prediction window allows it, in Rollback and Auto mode
// (at distance 2, or less when W is smaller), reported as
// core.SyncTestEvent.
package rollback
