package rts

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/replay"
)

// The RTS's part of the replay farm: a recorded minute of a 3-player
// match, committed under testdata/farm and verified on every target of the
// CI determinism matrix. A change that alters the simulation fails this
// test until the replay is re-recorded on purpose with
//
//	go test ./examples/rts -run TestReplayFarm -rerecord
//
// and the reason is given in the commit message.
var rerecord = flag.Bool("rerecord", false, "re-record the replays under testdata/farm")

const farmReplay = "testdata/farm/rts-3p-500u-600t.rsr"

func TestReplayFarm(t *testing.T) {
	if *rerecord {
		r := playSim(t, SimConfig{Players: 3, Units: 500, Turns: 600, Latency: 30 * ms, Loss: 0.02, Seed: 31, Record: true})
		if err := os.WriteFile(farmReplay, r.Replay, 0o644); err != nil {
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
			if err := replay.VerifyData(data, Build, core.Game[State, Command](Game{})); err != nil {
				t.Fatalf("the simulation no longer reproduces %s: %v", name, err)
			}
			h, err := replay.ReadHeader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if h.Frames < 600 {
				t.Errorf("%s holds %d turns, want a minute (600)", name, h.Frames)
			}
		})
	}
}
