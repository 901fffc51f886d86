package main

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/examples/rts"
	"github.com/rollstep/rollstep/examples/units"
	"github.com/rollstep/rollstep/replay"
)

// maxReplayOutput bounds what rollstep replay info and verify may print
// for a file of at most maxFuzzReplay bytes.
const (
	maxFuzzReplay   = 1 << 20
	maxReplayOutput = 64 << 10
)

// The replay format's header size and frame limit (see package replay's
// doc): the most frames a replay holds is also its largest checksum and
// keyframe interval.
const (
	replayHeaderSize = 144
	replayMaxFrames  = 1 << 25
)

// maxVerifyWork bounds the re-simulation FuzzReplayCommands asks of
// verify for one input, as frames times state bytes: the committed farm
// replays need at most 600 × 745,584 and verify in well under 0.1 s each.
const maxVerifyWork = 1 << 29

// FuzzReplayCommands runs rollstep replay info and rollstep replay verify,
// in process, on a file holding the fuzzer's bytes, and again on the same
// bytes with both CRCs recomputed so that mutations reach the section
// decoders behind them. The seeds are real replays of the three example
// games (the committed farm replays and short recordings made here, one
// of them diverging) and truncations of them. It asserts:
//
//   - neither command panics; each exits 0 or 1, with an empty stderr on
//     0 and a non-empty one on 1, and prints under 64 KiB in all for a
//     file of at most 1 MiB;
//   - info exits 0 exactly when replay.ReadHeader accepts the bytes;
//   - verify fails whenever info does, or the game's replay.Open does
//     (replayOpeners), and prints "ok" only when it exits 0;
//   - every real, unmodified replay among the seeds verifies.
//
// Verify re-simulates every frame the header claims, and the inputs are
// run-length encoded: a valid replay of replayMaxFrames-1 identical frames
// takes 847 bytes for a one-unit units match (hugeFramesReplay, a seed;
// verify takes 0.4 s) and 101 KB for 16,384 units (minutes). So
// verify's time is bounded by the claimed frame count, not by the file's
// size, and the target asks verify to re-simulate only replays of at most
// maxVerifyWork frame-bytes, and replays that the game's replay.Open
// (whose time is bounded by the bytes) rejects, which verify must reject
// too.
func FuzzReplayCommands(f *testing.F) {
	reals := realReplays(f)
	good := map[string]bool{}
	for _, name := range sortedKeys(reals) {
		data := reals[name]
		good[string(data)] = !strings.HasPrefix(name, "diverged")
		f.Add(data)
		for _, n := range []int{0, 7, replayHeaderSize - 1, replayHeaderSize, len(data) / 2, len(data) - 9, len(data) - 1} {
			f.Add(data[:n])
		}
		f.Add(append(bytes.Clone(data), 0))
	}
	f.Add(hugeFramesReplay(f))
	dir := f.TempDir()
	for _, name := range sortedKeys(reals) {
		// The real replays verify (or diverge) without the fuzzer's help.
		code, out, errOut := runReplayArgs("verify", writeReplay(f, dir, name, reals[name]))
		if want := map[bool]int{true: 0, false: 1}[good[string(reals[name])]]; code != want {
			f.Fatalf("%s: verify exit %d, want %d\n%s%s", name, code, want, out, errOut)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		checkReplayCommands(t, dir, "fuzz.rsr", data, good[string(data)])
		if fixed := fixReplayCRCs(data); !bytes.Equal(fixed, data) {
			checkReplayCommands(t, dir, "fixed.rsr", fixed, false)
		}
	})
}

// checkReplayCommands writes data to dir/name and checks what
// FuzzReplayCommands asserts of info and verify on it; mustVerify says
// that data is a real replay that verify must accept.
func checkReplayCommands(t *testing.T, dir, name string, data []byte, mustVerify bool) {
	path := writeReplay(t, dir, name, data)
	bounded := func(cmd, out, errOut string) {
		if len(data) <= maxFuzzReplay && len(out)+len(errOut) >= maxReplayOutput {
			t.Fatalf("%s printed %d bytes for a %d-byte file", cmd, len(out)+len(errOut), len(data))
		}
	}
	code, out, errOut := runReplayArgs("info", path)
	bounded("info", out, errOut)
	h, herr := replay.ReadHeader(bytes.NewReader(data))
	switch {
	case code != 0 && code != 1:
		t.Fatalf("info: exit %d\n%s%s", code, out, errOut)
	case (code == 0) != (herr == nil):
		t.Fatalf("info: exit %d, ReadHeader: %v\n%s%s", code, herr, out, errOut)
	case code == 0 && (errOut != "" || !strings.Contains(out, "frames      ")):
		t.Fatalf("info: exit 0 with stderr %q, stdout:\n%s", errOut, out)
	case code == 1 && (errOut == "" || out != ""):
		t.Fatalf("info: exit 1 with stdout %q, stderr %q", out, errOut)
	}
	var openErr error
	if open, known := replayOpeners[h.Game]; herr == nil && known {
		openErr = open(data)
	}
	if herr == nil && openErr == nil && int64(h.Frames)*int64(h.StateSize) > maxVerifyWork {
		return // a replay too long to re-simulate for every fuzz input
	}
	code, out, errOut = runReplayArgs("verify", path)
	bounded("verify", out, errOut)
	switch {
	case code != 0 && code != 1:
		t.Fatalf("verify: exit %d\n%s%s", code, out, errOut)
	case code == 0 && (herr != nil || openErr != nil || errOut != "" || !strings.Contains(out, ": ok: ")):
		t.Fatalf("verify: exit 0, ReadHeader: %v, Open: %v, stderr %q, stdout:\n%s", herr, openErr, errOut, out)
	case code == 1 && (errOut == "" || out != ""):
		t.Fatalf("verify: exit 1 with stdout %q, stderr %q", out, errOut)
	case mustVerify && code != 0:
		t.Fatalf("verify of a real replay: exit %d\n%s", code, errOut)
	}
}

// replayOpeners opens a replay with the types of each game replayGames
// knows, by game version hash, without re-simulating it.
var replayOpeners = map[[16]byte]func([]byte) error{
	unitsReplayVersion: opener[units.State, units.Order](unitsReplayVersion),
	fighter.GameID:     opener[fighter.State, fighter.Input](fighter.GameID),
	rts.Build:          opener[rts.State, rts.Command](rts.Build),
}

// opener returns a function that opens a replay of the game with state S
// and input I and version hash version.
func opener[S any, I comparable](version [16]byte) func([]byte) error {
	return func(b []byte) error {
		_, err := replay.Open[S, I](b, version)
		return err
	}
}

// TestReplayOpenersCoverGames keeps replayOpeners in step with the games
// registered for the replay commands.
func TestReplayOpenersCoverGames(t *testing.T) {
	for v, g := range replayGames {
		if _, ok := replayOpeners[v]; !ok {
			t.Errorf("replayOpeners lacks %s", g.name)
		}
	}
	if len(replayOpeners) != len(replayGames) {
		t.Errorf("replayOpeners has %d games, replayGames %d", len(replayOpeners), len(replayGames))
	}
}

// realReplays returns real replays by name: the committed farm replays of
// the example games, and short recordings of each game made here with its
// bots, one of them of a game with a bug (so that it diverges).
func realReplays(tb testing.TB) map[string][]byte {
	tb.Helper()
	out := map[string][]byte{}
	for name, path := range map[string]string{
		"farm-units":   farmUnits,
		"farm-fighter": filepath.Join("..", "..", "examples", "fighter", "testdata", "farm", "fighter-2p-100ms-5pct-3600f.rsr"),
		"farm-rts":     filepath.Join("..", "..", "examples", "rts", "testdata", "farm", "rts-3p-500u-600t.rsr"),
	} {
		data, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		out[name] = data
	}
	out["units"] = recordUnitsFor(tb, units.Game{}, 30, 20)
	out["diverged-units"] = recordUnitsFor(tb, nudged{}, 30, 20)
	out["units-empty"] = recordUnitsFor(tb, units.Game{}, 0, 1)
	out["fighter"] = recordFighter(tb, 90)
	out["rts"] = recordRTS(tb, 30)
	return out
}

// recordUnitsFor records frames frames of a 2-player, 10-unit units match
// stepped by game, under the units version hash, with player 1
// disconnected for frames 10 to 14.
func recordUnitsFor(tb testing.TB, game core.Game[units.State, units.Order], frames, keyframes int) []byte {
	tb.Helper()
	s, err := units.New(2, 10, 3)
	if err != nil {
		tb.Fatal(err)
	}
	r, err := replay.NewRecorder(replay.Config{Game: unitsReplayVersion, Players: 2, TickRate: 10, Seed: 3, ChecksumInterval: 3, KeyframeInterval: keyframes}, game, &s)
	if err != nil {
		tb.Fatal(err)
	}
	bots := []*units.Bot{units.NewBot(0, 3, 3), units.NewBot(1, 3, 3)}
	for f := range frames {
		in := make([]core.Input[units.Order], 2)
		for p, b := range bots {
			in[p] = core.Input[units.Order]{Value: b.Next(r.State()), Status: core.InputConfirmed}
		}
		if f >= 10 && f < 15 {
			in[1] = core.Input[units.Order]{Status: core.InputDisconnected}
		}
		if err := r.Add(in); err != nil {
			tb.Fatal(err)
		}
	}
	return r.Bytes()
}

// recordFighter records frames frames of a fighter match between two bots.
func recordFighter(tb testing.TB, frames int) []byte {
	tb.Helper()
	const seed = 5
	s := fighter.New(seed)
	r, err := replay.NewRecorder(replay.Config{Game: fighter.GameID, Players: 2, TickRate: 60, Seed: seed, ChecksumInterval: 10, KeyframeInterval: 25}, fighter.Game{}, &s)
	if err != nil {
		tb.Fatal(err)
	}
	bots := []*fighter.Bot{fighter.NewBot(0, seed), fighter.NewBot(1, seed)}
	for range frames {
		in := make([]core.Input[fighter.Input], 2)
		for p, b := range bots {
			in[p] = core.Input[fighter.Input]{Value: b.Next(r.State()), Status: core.InputConfirmed}
		}
		if err := r.Add(in); err != nil {
			tb.Fatal(err)
		}
	}
	return r.Bytes()
}

// recordRTS records turns turns of a 2-player, 20-unit RTS match between
// two bots, with the game's own recorder configuration.
func recordRTS(tb testing.TB, turns int) []byte {
	tb.Helper()
	const seed = 7
	s, err := rts.New(2, 20, seed)
	if err != nil {
		tb.Fatal(err)
	}
	r, err := rts.NewRecorder(2, 0, seed, &s)
	if err != nil {
		tb.Fatal(err)
	}
	bots := []*rts.Bot{rts.NewBot(0, 2, seed), rts.NewBot(1, 2, seed)}
	for range turns {
		in := make([]core.Input[rts.Command], 2)
		for p, b := range bots {
			in[p] = core.Input[rts.Command]{Value: b.Next(r.State()), Status: core.InputConfirmed}
		}
		if err := r.Add(in); err != nil {
			tb.Fatal(err)
		}
	}
	return r.Bytes()
}

// hugeFramesReplay returns a valid units replay of a few hundred bytes
// that claims replayMaxFrames-1 frames: one frame recorded with checksum
// and keyframe intervals of replayMaxFrames, its single input run
// stretched to replayMaxFrames-1 frames (no checksum or keyframe falls
// inside it).
func hugeFramesReplay(tb testing.TB) []byte {
	tb.Helper()
	s, err := units.New(1, 1, 1)
	if err != nil {
		tb.Fatal(err)
	}
	r, err := replay.NewRecorder(replay.Config{Game: unitsReplayVersion, Players: 1, TickRate: 10, ChecksumInterval: replayMaxFrames, KeyframeInterval: replayMaxFrames}, units.Game{}, &s)
	if err != nil {
		tb.Fatal(err)
	}
	if err := r.Add([]core.Input[units.Order]{{Status: core.InputDisconnected}}); err != nil {
		tb.Fatal(err)
	}
	one := r.Bytes()
	le := binary.LittleEndian
	inputs := int(le.Uint64(one[96:]))
	if one[inputs] != 1 { // the run length of the only record
		tb.Fatalf("unexpected input section % x", one[inputs:])
	}
	run := binary.AppendUvarint(nil, replayMaxFrames-1)
	out := append(append(append([]byte(nil), one[:inputs]...), run...), one[inputs+1:]...)
	grow := uint64(len(run) - 1)
	le.PutUint32(out[84:], replayMaxFrames-1)
	for _, off := range []int{104, 112, 120} {
		le.PutUint64(out[off:], le.Uint64(out[off:])+grow)
	}
	return fixReplayCRCs(out)
}

// fixReplayCRCs returns a copy of b whose body and header CRCs are correct
// for its bytes (b itself when it is shorter than a header).
func fixReplayCRCs(b []byte) []byte {
	if len(b) < replayHeaderSize {
		return b
	}
	b = bytes.Clone(b)
	binary.LittleEndian.PutUint32(b[128:], crc32.Checksum(b[replayHeaderSize:], castagnoli))
	binary.LittleEndian.PutUint32(b[140:], crc32.Checksum(b[:140], castagnoli))
	return b
}

// castagnoli is the CRC-32C table of replay files.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// writeReplay writes data to dir/name and returns the path.
func writeReplay(tb testing.TB, dir, name string, data []byte) string {
	tb.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// sortedKeys returns the keys of m in order, so that seeds are added in
// a stable order.
func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
