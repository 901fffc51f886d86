package replay_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/units"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/replay"
	"github.com/rollstep/rollstep/state"
)

func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		players, frames, n, k int
	}{
		{"every frame checked", 3, 120, 1, 25},
		{"sparse checks", 4, 121, 7, 30},
		{"one player", 1, 40, 3, 600},
		{"empty", 2, 0, 1, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, states := recordTally(t, tc.players, tc.frames, tc.n, tc.k)
			rp, err := replay.Open[tally, move](data, tallyHash)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			h := rp.Header()
			if h.Frames != core.Frame(tc.frames) || h.Players() != tc.players || h.Seed != 7 || h.Size != int64(len(data)) {
				t.Errorf("header = frames %d players %d seed %d size %d", h.Frames, h.Players(), h.Seed, h.Size)
			}
			for f := range tc.frames {
				got, err := rp.Inputs(core.Frame(f), nil)
				if err != nil {
					t.Fatal(err)
				}
				want := tallyInputs(f, tc.players)
				for p := range want {
					if got[p] != want[p] {
						t.Fatalf("frame %d player %d: got %+v, want %+v", f, p, got[p], want[p])
					}
				}
			}
			if err := rp.Verify(tallyGame{}); err != nil {
				t.Errorf("Verify: %v", err)
			}
			for f := range tc.frames + 2 {
				sum, ok := rp.Checksum(core.Frame(f))
				if want := f > 0 && f <= tc.frames && f%tc.n == 0; ok != want || (ok && sum != state.Checksum(&states[f])) {
					t.Errorf("Checksum(%d) = %#x, %v; want ok %v", f, sum, ok, want)
				}
			}
			var out bytes.Buffer
			if _, err := rp.WriteTo(&out); err != nil || !bytes.Equal(out.Bytes(), data) {
				t.Errorf("WriteTo does not reproduce the bytes (err %v)", err)
			}
			pl := replay.NewPlayer(rp, tallyGame{})
			for pl.Step() {
			}
			if *pl.State() != states[tc.frames] || pl.Frame() != core.Frame(tc.frames) {
				t.Errorf("played to frame %d state %+v, want %+v", pl.Frame(), *pl.State(), states[tc.frames])
			}
			for _, f := range []int{tc.frames, 0, tc.frames / 2, tc.k, tc.k - 1, tc.k + 1, 1, tc.frames - 1} {
				if f < 0 || f > tc.frames {
					continue
				}
				if err := pl.Seek(core.Frame(f)); err != nil {
					t.Fatalf("Seek(%d): %v", f, err)
				}
				if *pl.State() != states[f] || pl.Frame() != core.Frame(f) {
					t.Errorf("Seek(%d): frame %d state %+v, want %+v", f, pl.Frame(), *pl.State(), states[f])
				}
			}
			if err := pl.Seek(core.Frame(tc.frames + 1)); !errors.Is(err, replay.ErrOutOfRange) {
				t.Errorf("Seek past the end = %v, want ErrOutOfRange", err)
			}
			if _, err := rp.Inputs(core.Frame(tc.frames), nil); !errors.Is(err, replay.ErrOutOfRange) {
				t.Errorf("Inputs past the end = %v, want ErrOutOfRange", err)
			}
		})
	}
}

func TestRunsAreCompressed(t *testing.T) {
	r, err := replay.NewRecorder(tallyConfig(t, 2, 1, 1000), core.Game[tally, move](tallyGame{}), &tally{})
	if err != nil {
		t.Fatal(err)
	}
	idle := []core.Input[move]{{Status: core.InputConfirmed}, {Status: core.InputConfirmed}}
	for range 1000 {
		if err := r.Add(idle); err != nil {
			t.Fatal(err)
		}
	}
	// 1000 checksums (8000 B), one keyframe; the 1000 idle frames are one record.
	if got, limit := len(r.Bytes()), 8000+replay.HeaderSize+200; got > limit {
		t.Errorf("1000 idle frames take %d bytes, want at most %d", got, limit)
	}
}

func TestMismatchIsRefused(t *testing.T) {
	data, _ := recordTally(t, 2, 30, 1, 10)
	type otherState struct{ A [3]int64 }
	type otherInput struct{ Add int16 }
	for _, tc := range []struct {
		name  string
		open  func() error
		field string
	}{
		{"game version", func() error {
			_, err := replay.Open[tally, move](data, core.GameVersion("another build"))
			return err
		}, "Game"},
		{"state type", func() error { _, err := replay.Open[otherState, move](data, tallyHash); return err }, "StateLayout"},
		{"input type", func() error { _, err := replay.Open[tally, otherInput](data, tallyHash); return err }, "InputSize"},
		{"tick rate", func() error {
			rp, err := replay.Open[tally, move](data, tallyHash)
			if err != nil {
				return err
			}
			d, _ := core.DigestOf[move](2, 30, 1, tallyHash)
			return rp.CheckConfig(d)
		}, "TickRate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.open()
			var me *replay.MismatchError
			ok := errors.As(err, &me)
			if !ok || !errors.Is(err, replay.ErrMismatch) || me.Field != tc.field {
				t.Fatalf("got %v, want a *MismatchError for %s", err, tc.field)
			}
		})
	}
	rp, _ := replay.Open[tally, move](data, tallyHash)
	d, _ := core.DigestOf[move](2, 60, 1, tallyHash)
	if err := rp.CheckConfig(d); err != nil {
		t.Errorf("CheckConfig(same) = %v", err)
	}
}

func TestVerifyReportsFirstDivergence(t *testing.T) {
	for _, tc := range []struct {
		name            string
		n, k            int
		at              int32
		frame, diffAt   core.Frame
		keyframe, diffs bool
	}{
		// The game diverges while stepping frame 37, so the state after
		// 38 steps is the first that differs.
		{"checksum every frame", 1, 20, 37, 38, 40, false, true},
		{"checksum at its keyframe", 2, 2, 37, 38, 38, false, true},
		{"keyframe only", 1000, 10, 37, 40, 40, true, true},
		{"no keyframe after", 1, 100, 37, 38, 0, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, _ := recordTally(t, 2, 60, tc.n, tc.k)
			rp, err := replay.Open[tally, move](data, tallyHash)
			if err != nil {
				t.Fatal(err)
			}
			err = rp.Verify(tallyGame{divergeAt: tc.at, bias: 1})
			var de *replay.DivergenceError
			ok := errors.As(err, &de)
			if !ok || !errors.Is(err, replay.ErrDiverged) {
				t.Fatalf("Verify = %v, want a *DivergenceError", err)
			}
			if de.Frame != tc.frame || de.Keyframe != tc.keyframe || de.Want == de.Got {
				t.Errorf("got frame %d keyframe %v (%v), want frame %d keyframe %v", de.Frame, de.Keyframe, err, tc.frame, tc.keyframe)
			}
			if !tc.diffs {
				if len(de.Diffs) != 0 {
					t.Errorf("got diffs %v, want none", de.Diffs)
				}
				return
			}
			if de.DiffFrame != tc.diffAt || len(de.Diffs) != 1 || de.Diffs[0].Path != "Total[1]" {
				t.Errorf("got diff at %d: %v, want Total[1] at %d", de.DiffFrame, de.Diffs, tc.diffAt)
			}
		})
	}
}

func TestRecorderRejectsBadInput(t *testing.T) {
	r, err := replay.NewRecorder(tallyConfig(t, 2, 1, 10), core.Game[tally, move](tallyGame{}), &tally{})
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range [][]core.Input[move]{
		{{Status: core.InputConfirmed}},
		{{Status: core.InputConfirmed}, {Status: core.InputPredicted}},
		{{Status: core.InputUnknown}, {Status: core.InputConfirmed}},
	} {
		if err := r.Add(in); !errors.Is(err, replay.ErrInvalidInput) {
			t.Errorf("Add(%v) = %v, want ErrInvalidInput", in, err)
		}
	}
	if r.Frames() != 0 {
		t.Errorf("Frames() = %d after rejected inputs, want 0", r.Frames())
	}
	cfg := tallyConfig(t, 2, 1, 10)
	cfg.ChecksumInterval = -1
	if _, err := replay.NewRecorder(cfg, core.Game[tally, move](tallyGame{}), &tally{}); !errors.Is(err, replay.ErrInvalidConfig) {
		t.Errorf("NewRecorder(interval -1) = %v, want ErrInvalidConfig", err)
	}
	cfg = tallyConfig(t, 2, 1, 10)
	cfg.Match.InputLayout++
	if _, err := replay.NewRecorder(cfg, core.Game[tally, move](tallyGame{}), &tally{}); !errors.Is(err, replay.ErrInvalidConfig) {
		t.Errorf("NewRecorder(other input layout) = %v, want ErrInvalidConfig", err)
	}
}

// TestRecordFromEngineLog records a match from a core.Engine's input log
// while it runs, and checks the replay ends in the engine's state.
func TestRecordFromEngineLog(t *testing.T) {
	cfg := engine.DefaultConfig()
	cfg.Players = 1
	cfg.Local = []core.PlayerHandle{0}
	cfg.Peers = nil
	cfg.LogRetention = 16
	cfg.InputDelay = 2
	eng, err := engine.NewEngine[tally, move](cfg, tallyGame{}, &tally{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := replay.NewRecorder(tallyConfig(t, 1, 1, 16), core.Game[tally, move](tallyGame{}), &tally{})
	if err != nil {
		t.Fatal(err)
	}
	for f := range 100 {
		if err := eng.AddLocalInput(0, move{Add: int16(f % 5), Jump: f%9 == 0}); err != nil {
			t.Fatal(err)
		}
		eng.Advance(time.Duration(f) * time.Millisecond)
		if err := r.AddLog(eng); err != nil {
			t.Fatal(err)
		}
	}
	if r.Frames() != eng.Frame() || *r.State() != *eng.State() {
		t.Fatalf("recorder at frame %d %+v, engine at %d %+v", r.Frames(), *r.State(), eng.Frame(), *eng.State())
	}
	rp, err := replay.Open[tally, move](r.Bytes(), tallyHash)
	if err != nil {
		t.Fatal(err)
	}
	if err := rp.Verify(tallyGame{}); err != nil {
		t.Error(err)
	}
}

func TestAddLogReportsGap(t *testing.T) {
	cfg := engine.DefaultConfig()
	cfg.Players, cfg.Local, cfg.Peers, cfg.LogRetention, cfg.InputDelay = 1, []core.PlayerHandle{0}, nil, 8, 0
	eng, err := engine.NewEngine[tally, move](cfg, tallyGame{}, &tally{})
	if err != nil {
		t.Fatal(err)
	}
	for f := range 20 {
		_ = eng.AddLocalInput(0, move{Add: 1})
		eng.Advance(time.Duration(f))
	}
	r, err := replay.NewRecorder(tallyConfig(t, 1, 1, 16), core.Game[tally, move](tallyGame{}), &tally{})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.AddLog(eng); !errors.Is(err, replay.ErrLogGap) || r.Frames() != 0 {
		t.Errorf("AddLog after the log dropped frame 0 = %v (frames %d), want ErrLogGap", err, r.Frames())
	}
}

func TestWriteFileIsAtomic(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "match.rsr")
	r, err := replay.NewRecorder(tallyConfig(t, 2, 1, 10), core.Game[tally, move](tallyGame{}), &tally{})
	if err != nil {
		t.Fatal(err)
	}
	for f := range 50 {
		_ = r.Add(tallyInputs(f, 2))
	}
	if err := os.WriteFile(name, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := replay.WriteFile(name, r); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rp, err := replay.Read[tally, move](f, tallyHash)
	if err != nil {
		t.Fatal(err)
	}
	if rp.Frames() != 50 {
		t.Errorf("read %d frames, want 50", rp.Frames())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("directory holds %d files after WriteFile, want 1", len(ents))
	}
}

func TestVerifyDataRefusesAnotherBuild(t *testing.T) {
	var other [16]byte
	other[0] = 1
	data := recordUnits(t, 2, 20, 30, 3)
	game := core.Game[units.State, units.Order](units.Game{})
	if err := replay.VerifyData(data, unitsVersion, game); err != nil {
		t.Fatalf("VerifyData of a fresh recording: %v", err)
	}
	if err := replay.VerifyData(data, other, game); !errors.Is(err, replay.ErrMismatch) {
		t.Errorf("VerifyData for another build = %v, want ErrMismatch", err)
	}
	if err := replay.VerifyData(data[:len(data)/2], unitsVersion, game); !errors.Is(err, replay.ErrTruncated) {
		t.Errorf("VerifyData of half a file = %v, want ErrTruncated", err)
	}
}
