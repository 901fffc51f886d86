package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/units"
	"github.com/rollstep/rollstep/replay"
)

// farmUnits is the committed units replay of replay's farm; the
// test also pins that this command and the farm use one version hash.
var farmUnits = filepath.Join("..", "..", "replay", "testdata", "farm", "units-4p-1000u-600f.rsr")

// runReplayArgs runs rollstep replay in process.
func runReplayArgs(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(append([]string{"replay"}, args...), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestReplayVerifiesFarm(t *testing.T) {
	code, out, errOut := runReplayArgs("verify", farmUnits)
	if code != 0 || !strings.Contains(out, "ok: examples/units, 600 frames") {
		t.Fatalf("verify: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runReplayArgs("info", farmUnits)
	for _, want := range []string{"game        examples/units", "players     4", "frames      600 (1m0s)", "keyframes   every 100 frames (6)"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("info: exit %d, output lacks %q:\n%s%s", code, want, out, errOut)
		}
	}
}

// nudged is units.Game with a bug: from frame 12 on, unit 3 drifts.
type nudged struct{}

func (nudged) Step(s *units.State, in []core.Input[units.Order], fx core.Effects) {
	units.Game{}.Step(s, in, fx)
	if s.Frame > 12 {
		s.Units[3].Pos.X++
	}
}

// recordUnitsWith records 30 frames of a 2-player, 10-unit units match
// stepped by game, under the units version hash.
func recordUnitsWith(t *testing.T, game core.Game[units.State, units.Order]) []byte {
	t.Helper()
	s, _ := units.New(2, 10, 3)
	r, err := replay.NewRecorder(replay.Config{Game: unitsReplayVersion, Players: 2, TickRate: 10, KeyframeInterval: 20}, game, &s)
	if err != nil {
		t.Fatal(err)
	}
	bots := []*units.Bot{units.NewBot(0, 3, 3), units.NewBot(1, 3, 3)}
	for range 30 {
		in := make([]core.Input[units.Order], 2)
		for p, b := range bots {
			in[p] = core.Input[units.Order]{Value: b.Next(r.State()), Status: core.InputConfirmed}
		}
		if err := r.Add(in); err != nil {
			t.Fatal(err)
		}
	}
	return r.Bytes()
}

func TestReplayVerifyFailures(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := recordUnitsWith(t, units.Game{})
	other := bytes.Clone(good)
	other[20] ^= 1 // the game hash, so the header CRC fails too
	for _, tc := range []struct {
		name, file, want string
		code             int
	}{
		{"good", write("good.rsr", good), "ok: examples/units, 30 frames", 0},
		{"diverged", write("bug.rsr", recordUnitsWith(t, nudged{})), "diverged at frame 13", 1},
		{"truncated", write("short.rsr", good[:len(good)-9]), "truncated", 1},
		{"corrupt", write("bad.rsr", other), "corrupt", 1},
		{"missing", filepath.Join(dir, "none.rsr"), "no such file", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runReplayArgs("verify", tc.file)
			if code != tc.code || !strings.Contains(out+errOut, tc.want) {
				t.Errorf("exit %d, want %d with %q:\n%s%s", code, tc.code, tc.want, out, errOut)
			}
		})
	}
	if code, _, _ := runReplayArgs("play", "x"); code != 2 {
		t.Errorf("unknown subcommand: exit %d, want 2", code)
	}
}
