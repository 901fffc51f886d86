package fighter_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/examples/fighter/internal/match"
	"github.com/rollstep/rollstep/replay"
)

// The fighter's part of the replay farm: a recorded minute of netplay,
// committed under testdata/farm and verified on every target of the CI
// determinism matrix. A change that alters the simulation fails this test
// until the replay is re-recorded on purpose with
//
//	go test ./examples/fighter -run TestReplayFarm -rerecord
//
// and the reason is given in the commit message.
var rerecord = flag.Bool("rerecord", false, "re-record the replays under testdata/farm")

const farmReplay = "testdata/farm/fighter-2p-100ms-5pct-3600f.rsr"

func TestReplayFarm(t *testing.T) {
	if *rerecord {
		data, _ := recordMatch(t)
		if err := os.WriteFile(farmReplay, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := filepath.Glob("testdata/farm/*.rsr")
	if err != nil || len(files) == 0 {
		t.Fatalf("no replays under testdata/farm (%v): run with -rerecord", err)
	}
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := replay.VerifyData(data, match.GameID, core.Game[fighter.State, fighter.Input](fighter.Game{})); err != nil {
				t.Fatalf("the simulation no longer reproduces %s: %v", name, err)
			}
			h, err := replay.ReadHeader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if h.Frames < 3600 {
				t.Errorf("%s holds %d frames, want a minute (3600)", name, h.Frames)
			}
		})
	}
}
