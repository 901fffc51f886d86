// Command rts renders the real-time-strategy game of package
// github.com/rollstep/rollstep/examples/rts on Ebitengine: you (player
// 0, blue) against bots, in a lockstep match of rollstep sessions, or a
// replay file played back with seek.
//
//	cd examples/play && go run ./rts                # you against 3 bots
//	go run ./rts -bots 5 -units 2000 -record match.replay
//	go run ./rts -replay match.replay
//
// # The match
//
// Every player is a peer of its own, as on separate machines: one
// rollstep.Session per player (rollstep.NewSession, Mode Lockstep, the
// configuration of rts.SessionConfig), all in this process over a
// simulated network (package transport/sim, -latency one way), driven on
// the wall clock. Each game-loop update it runs the host loop of package
// examples/rts for every peer: when a new turn started, give the turn's
// command (yours, or the bot's rts.Bot.Next) to AddLocalInput; then
// Update(now). The screen draws the human's session: Previous and State
// interpolated by Fraction, and the rts.EffectDied effects of Effects as
// widening rings. The viewer only reads the session's states; nothing of
// it but rts.Command values reaches the simulation, and the camera's
// floats become a command's whole world units at one place
// (skirmish.MapPoint).
//
// # Orders
//
// An rts.Command gives one order to one of a player's 64 control groups
// (group g holds the player's ranks g, g+64, …), and a session takes one
// command per turn. So a selection is a set of groups, and an order to n
// groups leaves as n commands over n turns: it waits in the outbox (a
// square on the target; a newer order to a waiting group replaces it),
// is in flight from the turn it is given to the session until the turn
// it was scheduled for (input delay D) has run (a ring on the target and
// a line from each of the group's units to it), and then shows as a line
// from each selected unit to its goal (yellow: a move; red: an
// attack-move) or to its foe.
//
// # Controls
//
// Live match:
//
//   - left click on one of your units: select its group; drag: select the
//     groups of your units in the box; Shift adds to the selection;
//   - 1 to 9 and 0: select squad 1 to 10 (the groups g with g mod 10 =
//     n−1, a tenth of your army); E: every group;
//   - right click: order the selection there: a move, or an attack when an
//     enemy stands within rts.PickRadius of the point (the game designates
//     the nearest); A + right click: an attack-move;
//   - wheel: zoom at the cursor; middle drag or the arrow keys: pan.
//
// Replay:
//
//   - Space: pause or resume; "." and ",": one frame forward or back;
//   - Left and Right: 10 seconds back or forward; Home and End: the ends;
//   - Up and Down: double or halve the speed (25 % to 1600 %);
//   - click the progress bar: seek there; selecting works as live.
//
// A seek loads the replay's nearest keyframe at or before the target
// (replay.Player.Seek; one every rts.ReplayKeyframes frames) and
// re-simulates from it with the recorded inputs, so it lands on the very
// state playing straight through reaches.
//
// # Flags
//
//	-bots N        bots against you, 1 to 7 (default 3)
//	-units N       units of all players together, 0 to 10000 (default 600)
//	-seed N        seed of the map, the bots and the simulated network
//	-turn D        turn length, one tick (default 50ms)
//	-latency D     one-way latency of the simulated links (default 30ms)
//	-every N       the bots' mean turns between commands (default 8)
//	-record FILE   live: write a replay of the match on exit
//	-replay FILE   play a replay file (from -record, or from
//	               examples/rts/cmd/rts -replay) instead of a match
//	-screenshot FILE  after -frames updates, save the screen as PNG, exit 0
//	-frames N      updates (60 a second) before the screenshot (default 120)
//	-autoplay      live: a script plays you: it drag-selects the units
//	               around your base, sends them to the centre, then
//	               attack-moves squad 3 onto the next player's base
//
// With -screenshot the match runs on a clock of updates (1/60 s each)
// instead of the wall clock, so a screenshot shows the same turn however
// fast the machine draws.
//
// # Code and tests
//
// This package holds the Ebitengine side: reading the devices once per
// update, drawing, the screenshot. Everything else — camera mapping,
// selection, order building, the outbox, the local match, playback and
// the autoplay script — is in internal/skirmish, which does not import
// Ebitengine (its initialisation needs a display) and is tested headless,
// including that seeks land on the straight-through checksum and that a
// recorded live match replays to the session's own state. The tests in
// screentest build this command, run it under Xvfb (package
// internal/xvfb) and check its screenshots; they skip when Xvfb or the
// X11 and OpenGL headers are missing. Refresh testdata/rts.png and
// testdata/rts-replay.png with
//
//	RTS_SCREENSHOTS=1 go test ./rts/...
package main
