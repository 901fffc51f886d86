// Package fighter is rollstep's rollback example: a two-player fighting
// prototype in fixed point, small enough to read in one sitting and shaped
// like the games rollback netcode is made for.
//
// # The game
//
// Two fighters stand on the ground of an arena ArenaWidth units wide
// between two walls. Each player holds buttons (Input: left, right, up,
// down, attack, block). A free fighter walks, crouches, blocks, jumps
// (gravity brings it down in 23 frames) or attacks. An attack has
// startup, active and recovery frames (Move): its hitbox exists only
// during the active frames and connects at most once. A hit takes Damage
// and puts the defender in hitstun; a defender holding block on the ground
// and facing the attacker takes only chip damage and blockstun instead. A
// low attack (down + attack) must be blocked crouching. A round ends when a
// fighter's health reaches 0 or after RoundFrames; the winner's Wins grows,
// and after a short pause the next round starts.
//
// # How it uses rollstep
//
//  1. State is one arena-serializable value: fixed.F and fixed.Vec2 for
//     everything that moves, sized integers for the rest, a state.Rand for
//     the random start positions, explicit padding. state.Validate accepts
//     it and a checksum is a hash of its 160 bytes.
//  2. Game.Step reads only the state and the frame's inputs, in player
//     order; it never reads a clock, a float or a map, and emits sounds as
//     effects (EffectHit, EffectBlock, EffectKO) that the session plays
//     once per frame, even when a rollback re-simulates the frame.
//  3. Inputs are made outside the step, by a player or a Bot, and handed to
//     a rollstep.Session (Mode Rollback) each rendered frame; the session predicts the
//     remote player's buttons, runs ahead, and rolls back when a real input
//     differs.
//
// The tests play full matches: two peers over transport/sim at 100 ms and
// 5 % loss agreeing on every confirmed checksum (and a spectator replaying
// the same final state), a rollback.SyncTest, rules tests that step
// through a SyncTest too, a golden checksum of a bot match pinned on every
// target of the determinism matrix (amd64, 32-bit 386 or arm, arm64,
// wasm), a match over
// real UDP sockets, and a replay (package replay) of a netplay match
// that re-simulates to the same checksums. BenchmarkFitsWindow gates the
// step's cost with bench.FitsWindow: the worst rollback frame at W = 8
// must fit half of a 60 Hz frame.
//
// # Layout
//
// This package is the game only. The command examples/fighter/cmd/fighter
// runs a match headless between two simulated peers (-sim), or as one of
// two real processes over UDP (-listen, -peer, -player, -token as player 0
// printed it, optional -psk for DTLS), or as a spectator of player 0
// (-spectate), and can write a replay (-replay); the driving code the
// command and the tests share is in examples/fighter/internal/match:
//
//	go run ./examples/fighter/cmd/fighter -sim -latency 100ms -loss 0.05
//
// See the command's documentation for the two-process form.
package fighter
