package replay_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/units"
	"github.com/rollstep/rollstep/replay"
)

// The replay farm: recorded matches of the example games, committed under
// testdata/farm and verified on every target of the determinism matrix.
// A change that alters a simulation fails TestReplayFarm until the replays
// are re-recorded on purpose with
//
//	go test ./replay -run TestReplayFarm -rerecord
//
// and the reason is given in the commit message.
var rerecord = flag.Bool("rerecord", false, "re-record the replays under testdata/farm and the fuzz seed corpus")

// unitsVersion is the game version hash of examples/units; cmd/rollstep
// registers the same one. Change the string when the units simulation
// changes on purpose, then re-record.
var unitsVersion = core.GameVersion("github.com/rollstep/rollstep/examples/units sim 1")

// farmGames verifies a replay of each game the farm knows, by game
// version hash.
var farmGames = map[[16]byte]func(data []byte) error{
	unitsVersion: func(data []byte) error {
		return replay.VerifyData(data, unitsVersion, core.Game[units.State, units.Order](units.Game{}))
	},
}

// farmRecipes records each committed replay.
var farmRecipes = map[string]func(testing.TB) []byte{
	"units-4p-1000u-600f.rsr": func(t testing.TB) []byte { return recordUnits(t, 4, 1000, 600, 1) },
}

// recordUnits records a match of examples/units between seeded bots at 10
// turns per second, with a checksum every turn and a keyframe every 10
// seconds.
func recordUnits(t testing.TB, players, count, frames int, seed uint64) []byte {
	t.Helper()
	s, err := units.New(players, count, seed)
	if err != nil {
		t.Fatal(err)
	}
	cfg := replay.Config{Game: unitsVersion, Players: players, TickRate: 10, Seed: seed, ChecksumInterval: 1, KeyframeInterval: 100}
	r, err := replay.NewRecorder(cfg, core.Game[units.State, units.Order](units.Game{}), &s)
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]*units.Bot, players)
	for p := range bots {
		bots[p] = units.NewBot(p, 5, seed)
	}
	in := make([]core.Input[units.Order], players)
	for range frames {
		for p, b := range bots {
			in[p] = core.Input[units.Order]{Value: b.Next(r.State()), Status: core.InputConfirmed}
		}
		if err := r.Add(in); err != nil {
			t.Fatal(err)
		}
	}
	return r.Bytes()
}

func TestReplayFarm(t *testing.T) {
	dir := filepath.Join("testdata", "farm")
	if *rerecord {
		for name, record := range farmRecipes {
			data := record(t)
			if err := replay.WriteFile(filepath.Join(dir, name), data); err != nil {
				t.Fatal(err)
			}
			t.Logf("re-recorded %s: %d bytes", name, len(data))
		}
		writeFuzzCorpus(t)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.rsr"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no replays in %s (%v)", dir, err)
	}
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			h, err := replay.ReadHeader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			verify, ok := farmGames[h.Game]
			if !ok {
				t.Fatalf("no game registered for version hash %x", h.Game)
			}
			if err := verify(data); err != nil {
				t.Fatalf("%v\n(if the simulation changed on purpose, re-record with -rerecord and say why in the commit message)", err)
			}
		})
	}
}

// writeFuzzCorpus writes FuzzOpen's seed corpus under testdata/fuzz.
func writeFuzzCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzOpen")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct{ players, frames, n, k int }{{4, 80, 1, 16}, {2, 25, 3, 5}, {16, 3, 1, 1}} {
		data, _ := recordTally(t, c.players, c.frames, c.n, c.k)
		var b strings.Builder
		fmt.Fprintf(&b, "go test fuzz v1\n[]byte(%q)\n", data)
		name := filepath.Join(dir, fmt.Sprintf("seed-%d", i))
		if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
