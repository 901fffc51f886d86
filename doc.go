// Package rollstep is deterministic multiplayer netcode: peers exchange
// only inputs, and every peer runs the same deterministic simulation. One
// sans-IO engine (package core) with two settings, input delay D and
// prediction window W, serves every mode (docs/architecture.md §1):
//
//   - Lockstep (D ≥ 1, adaptive; W = 0): no turn runs before every input
//     for it is held. Suits RTS games and large states. Package lockstep.
//   - Rollback (D 0–2, W = 8): missing inputs are predicted and a
//     misprediction is repaired by loading a saved state and
//     re-simulating. Suits fighting games and small states. Package
//     rollback.
//   - Auto (D and W adaptive): input delay covers the latency while the
//     felt lag fits a budget (100 ms by default); prediction covers the
//     rest, up to W = 8. The session moves between the two at any frame
//     as the link changes: at 20 ms it is lockstep, at 150 ms it predicts.
//     It is the lockstep front end with a prediction window.
//
// This package picks the front end per match: NewSession with Config.Mode
// returns a Session, the interface every front end satisfies, pause and
// game speed included; Config.Spectators streams to spectators in every
// mode. AsLockstep and AsRollback reach the front end's own methods and
// Stats (rollback's Wait for manual timesync, lockstep's Peer). Every mode speaks one
// protocol, so peers of one match may run different modes: a Rollback
// fighter, a Lockstep peer on a good link and an Auto peer can share it;
// the handshake compares only what must agree (players, tick rate, input
// type, steps per frame, checksum interval, game build).
//
// # Match configuration
//
// Peers either pre-agree on the match (players, tick rate, checksum
// interval, game build: every session handshake compares a digest of them
// and refuses a mismatch, naming the field) or negotiate it: the authority
// (player 0) offers a MatchConfig with NewOffer, each follower adopts it
// through the callback of NewAccept, and the offer is repeated until
// acknowledged, under loss. Every peer then builds the initial state from
// the agreed config and its session with Config.Game set to the config's
// Digest, over the same Conn.
//
// # Host loop
//
//  0. Optionally negotiate the match: call Negotiation.Update(now) each
//     frame until it reports done.
//  1. Build the session: NewSession(cfg, game, initial, conn), where every
//     peer builds initial the same way and conn is a transport.Conn
//     (transport/udp, transport/dtls, or transport/sim in tests).
//  2. Each frame of the game loop, read the clock once: now.
//  3. Give each local player's input: AddLocalInput.
//  4. Update(now): receive, simulate as far as the mode allows, send.
//  5. Play Effects (stop the cancelled ones); handle Events.
//  6. Render Lerp(Previous(), State(), Fraction()); never write them.
//  7. At the end, Close.
//
// # Common denominator
//
// Stats here are the counters both front ends have (the engine's, D and
// W); each front end's own Stats say more. Events are the front end's
// event values (Event is any); the life cycle of peers, spectators, pause,
// speed and timesync is reported with the same core types in every mode
// (core.ConnectedEvent, core.PeerLostEvent, core.SplitEvent,
// core.PauseEvent, …).
package rollstep
