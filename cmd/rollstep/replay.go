package main

// rollstep replay info FILE     print a replay's header
// rollstep replay verify FILE   re-simulate a replay and compare every
//                               stored checksum and keyframe
//
// verify needs the game's types, so it knows a fixed set of games, found
// by the game version hash in the replay's header: see replayGames.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/arena"
	"github.com/rollstep/rollstep/replay"
)

// replayGame is a game whose replays the replay commands can verify.
type replayGame struct {
	name      string                  // such as "examples/units"
	stateType string                  // the state type's name, for info
	inputType string                  // the input type's name, for info
	verify    func(data []byte) error // opens data and verifies it
}

// replayGames holds the games the replay commands know, by game version
// hash. Games are added by registerReplayGame from an init function, one
// file per game (replay_units.go is the model): an example game's
// engineer adds cmd/rollstep/replay_NAME.go with
//
//	func init() { registerReplayGame("examples/NAME", NAME.Version, NAME.Game{}) }
//
// where NAME.Version is the [16]byte game version hash its recorder
// writes (core.GameVersion of a version string).
var replayGames = map[[16]byte]replayGame{}

// registerReplayGame makes the replay commands know game, a core.Game with
// state S and input I whose replays carry the game version hash version.
// It panics if version is registered twice: two games must not share a
// hash.
func registerReplayGame[S any, I comparable](name string, version [16]byte, game core.Game[S, I]) {
	if g, dup := replayGames[version]; dup {
		panic(fmt.Sprintf("rollstep: games %s and %s share version hash %x", g.name, name, version))
	}
	describe := func(l *arena.Layout, err error) string {
		if err != nil {
			return err.Error()
		}
		return fmt.Sprintf("%s, %d bytes, layout %#016x", l.TypeName(), l.Size(), l.Fingerprint())
	}
	g := replayGame{name: name, stateType: describe(arena.LayoutOf[S]()), inputType: describe(arena.LayoutOf[I]())}
	g.verify = func(data []byte) error { return replay.VerifyData(data, version, game) }
	replayGames[version] = g
}

// runReplay runs "rollstep replay SUBCOMMAND FILE".
func runReplay(args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "help") {
		replayUsage(stdout)
		return 0
	}
	if len(args) != 2 || (args[0] != "info" && args[0] != "verify") {
		replayUsage(stderr)
		return 2
	}
	data, err := os.ReadFile(args[1])
	if err != nil {
		fmt.Fprintf(stderr, "rollstep replay: %v\n", err)
		return 1
	}
	h, err := replay.ReadHeader(bytes.NewReader(data))
	if err != nil {
		fmt.Fprintf(stderr, "rollstep replay: %s: %v\n", args[1], err)
		return 1
	}
	g, known := replayGames[h.Game]
	if args[0] == "info" {
		printReplayInfo(stdout, args[1], len(data), &h, g, known)
		return 0
	}
	if !known {
		fmt.Fprintf(stderr, "rollstep replay: %s: no known game has version hash %x (known: %s)\n", args[1], h.Game, knownReplayGames())
		return 1
	}
	if err := g.verify(data); err != nil {
		fmt.Fprintf(stderr, "rollstep replay: %s: %v\n", args[1], err)
		var de *replay.DivergenceError
		if errors.As(err, &de) {
			for _, d := range de.Diffs {
				fmt.Fprintf(stderr, "  frame %d: %s\n", de.DiffFrame, d)
			}
		}
		return 1
	}
	fmt.Fprintf(stdout, "%s: ok: %s, %d frames; %d checksums and %d keyframes reproduced\n", args[1], g.name, h.Frames,
		int(h.Frames)/h.ChecksumInterval, int(h.Frames)/h.KeyframeInterval)
	return 0
}

// printReplayInfo prints the header summary of rollstep replay info.
func printReplayInfo(w io.Writer, name string, size int, h *replay.Header, g replayGame, known bool) {
	game := "unknown to this build"
	if known {
		game = g.name
	}
	fmt.Fprintf(w, "file        %s (%d bytes)\n", name, size)
	fmt.Fprintf(w, "format      %d\n", h.Version)
	fmt.Fprintf(w, "game        %s (version hash %x)\n", game, h.Game)
	fmt.Fprintf(w, "players     %d\n", h.Players)
	fmt.Fprintf(w, "tick rate   %d frames/s\n", h.TickRate)
	fmt.Fprintf(w, "frames      %d (%v)\n", h.Frames, h.Duration)
	fmt.Fprintf(w, "seed        %d\n", h.Seed)
	fmt.Fprintf(w, "state       %d bytes, layout %#016x\n", h.StateSize, h.StateLayout)
	if known {
		fmt.Fprintf(w, "            this build: %s\n", g.stateType)
	}
	fmt.Fprintf(w, "input       %d bytes, layout %#016x\n", h.InputSize, h.InputLayout)
	if known {
		fmt.Fprintf(w, "            this build: %s\n", g.inputType)
	}
	fmt.Fprintf(w, "checksums   every %d frames (%d)\n", h.ChecksumInterval, int(h.Frames)/h.ChecksumInterval)
	fmt.Fprintf(w, "keyframes   every %d frames (%d)\n", h.KeyframeInterval, int(h.Frames)/h.KeyframeInterval)
}

// knownReplayGames lists the registered games' names, sorted.
func knownReplayGames() string {
	var names []string
	for _, g := range replayGames {
		names = append(names, g.name)
	}
	slices.Sort(names)
	return fmt.Sprint(names)
}

func replayUsage(w io.Writer) {
	fmt.Fprint(w, `usage: rollstep replay info FILE
       rollstep replay verify FILE

info prints the header of a replay file. verify re-simulates the replay
with this build's copy of its game (found by the game version hash in the
header) and compares every stored checksum and keyframe; it exits 1 and
names the first divergent frame and fields if one differs, or if the
replay was recorded by another build of the game.
`)
}
