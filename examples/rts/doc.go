// Package rts is rollstep's real-time-strategy prototype, played in
// lockstep: 2 to MaxPlayers players and up to MaxUnits units that steer
// toward the points their players click, keep apart from their neighbours,
// and fight. It exists to show the shape of an RTS on rollstep — a large
// state, tiny inputs — and to prove the claim of lockstep: the bandwidth a
// match needs is that of the players' commands, whatever the number of
// units.
//
// # The state
//
// State is one arena-serializable value (see package state): fixed-size
// arrays of Unit, a count, per-player tallies, and the spatial Grid, with
// fixed-point positions (package fixed) and explicit padding, so it has
// the same bytes on every target and a checksum is a hash of its memory.
// Nothing in it is a pointer, a slice, an int or a float.
//
// A dead unit is not removed from the array (indices name units in
// effects and in the grid, and must stay put): it is marked, by clearing
// FlagAlive, and skipped from then on.
//
// # The step
//
// Game.Step runs one tick, in phases, each over the units in index order:
//
//  1. Rebuild the grid: a uniform grid of GridSide × GridSide cells of
//     2^CellShift world units, held in the state as a head per cell and a
//     next-link per unit (int32 indices, so the layout does not depend on
//     the word size). Units are linked in descending index order, so every
//     cell lists its units in ascending order.
//  2. Apply each player's Command, in player handle order. A command is a
//     click: a control group (see Command) and a point. KindMove sends the
//     group there; KindAttack designates the enemy nearest to the point, or
//     is an attack-move when there is none. Commands for a player's
//     disconnected seat, for groups that do not exist or of unknown kinds
//     are ignored.
//  3. Steer: each unit seeks its foe (until within AttackRange) or its
//     goal at up to Speed, plus a push from the neighbours closer than
//     SepRadius, found through the grid's cells around it. A unit without
//     a foe and without a move order looks for the nearest enemy in range
//     every AcquireEvery ticks, also through the grid.
//  4. Attack: a unit whose foe is in range and that has reloaded deals
//     Damage.
//  5. Deaths: units at 0 HP or below are marked dead; each emits an
//     EffectDied effect.
//  6. Move every live unit by its velocity, kept on the map.
//
// Phases 3 and 4 read the positions and lives of the start of the tick,
// and fixed-point sums are exact, so no result depends on the order in
// which units or neighbours are visited — only on the state. The grid is
// checked against a brute-force O(n²) oracle in the tests.
//
// # Players and bots
//
// Inputs are made outside the step. A Bot plays a player from a seed,
// reading the state it sees, and returns at most one Command per turn;
// lockstep's command-style input queue (package lockstep) schedules it and
// gives the game the zero Command, "no command", in the turns without one.
//
// # Playing a match
//
// PlaySim plays a match of bots between peers over a simulated network
// (package transport/sim) in virtual time and reports each peer's upload
// and stall time and the final checksum. A host loop of its own — the
// command in cmd/rts does this over real UDP — follows package lockstep:
//
//  1. Build the initial state with New; every peer uses the same
//     arguments.
//  2. Build the session with rollstep.NewSession over a transport.Conn,
//     with SessionConfig's configuration.
//  3. Every game-loop frame: when a new turn started, ask the player or
//     the bot for a command and give it to AddLocalInput; then call
//     Update(now).
//  4. Play the EffectDied effects of Session.Effects; render State.
//
// The numbers (step cost at 1,000 and 10,000 units, upload per peer) are
// in the documentation of the command in cmd/rts; they come from
// BenchmarkStep and TestUploadIndependentOfUnits. NewRecorder and Host
// record a replay of a match (package replay). The design is in
// docs/architecture.md (§1 and §6) of the repository.
package rts
