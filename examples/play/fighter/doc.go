// Command fighter is rollstep's fighter (examples/fighter) in an
// Ebitengine window: you against a bot, two people at one keyboard, or
// two machines over UDP, with sounds and hit sparks as effects and a
// network overlay.
//
//	cd examples/play
//	go run ./fighter                 # you against a bot, 50 ms away
//	go run ./fighter -vs human       # two people, one keyboard
//	go run ./fighter -listen 0.0.0.0:7000 -peer 192.0.2.8:7001                    # player 0: prints a token
//	go run ./fighter -listen 0.0.0.0:7001 -peer 192.0.2.7:7000 -player 1 -token T # player 1
//
// # Keys
//
// Player 0 (or you alone): A and D walk, W jumps, S crouches, F attacks,
// G blocks; alone, the arrows, Z and X work too. Player 1: the arrows, K
// attacks, L blocks. F1 or Tab shows the network overlay, P pauses the
// match for both sides, Esc quits.
//
// # How it uses rollstep
//
// Even a local match is two Rollback sessions, one per player, each
// knowing only its own player's inputs, joined by a transport/sim network
// advanced on the real clock, so what the screen shows is predicted and
// rolled back as over the internet (-latency, -jitter, -loss). The loop
// (package internal/duel, shared with the tests):
//
//  1. Ebitengine calls Update at 120 Hz; the keys are read once per call
//     and given to each person's seat with AddLocalInput (Held inputs: the
//     session reuses them for every frame it runs); bots choose from the
//     state their session shows.
//  2. Update(now) on every session: its pacer decides how many frames run.
//  3. Stats and Events feed the overlay's history; Effects starts each
//     new hit, block or KO's sound and spark once and stops those a
//     rollback cancelled.
//  4. Draw renders between Previous() and State() at Fraction(), reading
//     them and never writing.
//
// Built for js/wasm, the same command runs in the browser and meets the
// other player through rollstep's lobby: see ../fighter-serve.
//
// With -screenshot FILE -frames N it saves the screen at frame N and
// exits (the tests run it so under a virtual display).
package main
