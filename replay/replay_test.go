package replay_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unsafe"

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
			if h.Frames != core.Frame(tc.frames) || h.Players != tc.players || h.Seed != 7 || h.Size != int64(len(data)) {
				t.Errorf("header = frames %d players %d seed %d size %d", h.Frames, h.Players, h.Seed, h.Size)
			}
			if h.Version != 1 || h.Game != tallyHash || h.TickRate != 60 || h.InputSize != 4 || h.StateSize != int(unsafe.Sizeof(tally{})) ||
				h.ChecksumInterval != tc.n || h.KeyframeInterval != tc.k || h.Duration != time.Duration(tc.frames)*time.Second/60 {
				t.Errorf("header = %+v", h)
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
			if err := replay.VerifyData(data, tallyHash, tallyGame{}); err != nil {
				t.Errorf("VerifyData: %v", err)
			}
			for f := range tc.frames + 2 {
				sum, ok := rp.Checksum(core.Frame(f))
				if want := f > 0 && f <= tc.frames && f%tc.n == 0; ok != want || (ok && sum != state.Checksum(&states[f])) {
					t.Errorf("Checksum(%d) = %#x, %v; want ok %v", f, sum, ok, want)
				}
			}
			if !bytes.Equal(replay.Encode(rp), data) {
				t.Errorf("re-encoding does not reproduce the bytes")
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
			at := pl.Frame()
			if err := pl.Seek(core.Frame(tc.frames + 1)); !hasPrefix(err, "replay: frame out of range: ") || pl.Frame() != at {
				t.Errorf("Seek past the end = %v (moved from frame %d to %d), want out of range, not moved", err, at, pl.Frame())
			}
			if _, err := rp.Inputs(core.Frame(tc.frames), nil); !hasPrefix(err, "replay: frame out of range: ") {
				t.Errorf("Inputs past the end = %v, want out of range", err)
			}
		})
	}
}

func TestRunsAreCompressed(t *testing.T) {
	r, err := replay.NewRecorder(tallyConfig(2, 1, 1000), core.Game[tally, move](tallyGame{}), &tally{})
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
		{"input layout", func() error { _, err := replay.Open[tally, sameSizeInput](data, tallyHash); return err }, "InputLayout"},
		{"format version", func() error {
			v2 := bytes.Clone(data)
			v2[8] = 2
			binary.LittleEndian.PutUint32(v2[140:], crc32.Checksum(v2[:140], crc32.MakeTable(crc32.Castagnoli)))
			_, err := replay.Open[tally, move](v2, tallyHash)
			return err
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.open()
			want := "replay: recorded with " + tc.field + " "
			if tc.field == "" {
				want = "replay: format version 2, this build reads 1"
			}
			if !errors.Is(err, replay.ErrMismatch) || errors.Is(err, replay.ErrCorrupt) || !hasPrefix(err, want) {
				t.Fatalf("got %v, want ErrMismatch starting %q", err, want)
			}
		})
	}
}

// sameSizeInput has the size of move and another layout.
type sameSizeInput struct {
	Add  int16
	Jump uint8
	_    uint8
}

// hasPrefix reports whether err is not nil and its message starts with
// prefix.
func hasPrefix(err error, prefix string) bool {
	return err != nil && strings.HasPrefix(err.Error(), prefix)
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
			err := replay.VerifyData(data, tallyHash, tallyGame{divergeAt: tc.at, bias: 1})
			var de *replay.DivergenceError
			if !errors.As(err, &de) || !hasPrefix(err, "replay: diverged at frame ") {
				t.Fatalf("VerifyData = %v, want a *DivergenceError", err)
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
	r, err := replay.NewRecorder(tallyConfig(2, 1, 10), core.Game[tally, move](tallyGame{}), &tally{})
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range [][]core.Input[move]{
		{{Status: core.InputConfirmed}},
		{{Status: core.InputConfirmed}, {Status: core.InputPredicted}},
		{{Status: 0}, {Status: core.InputConfirmed}},
	} {
		if err := r.Add(in); !hasPrefix(err, "replay: invalid input: ") {
			t.Errorf("Add(%v) = %v, want an invalid input", in, err)
		}
	}
	if r.Frames() != 0 {
		t.Errorf("Frames() = %d after rejected inputs, want 0", r.Frames())
	}
	for _, tc := range []struct {
		name string
		edit func(*replay.Config)
	}{
		{"checksum interval -1", func(c *replay.Config) { c.ChecksumInterval = -1 }},
		{"keyframe interval over the limit", func(c *replay.Config) { c.KeyframeInterval = replay.MaxFrames + 1 }},
		{"no players", func(c *replay.Config) { c.Players = 0 }},
		{"too many players", func(c *replay.Config) { c.Players = core.MaxPlayers + 1 }},
		{"no tick rate", func(c *replay.Config) { c.TickRate = 0 }},
		{"tick rate over 65535", func(c *replay.Config) { c.TickRate = 1 << 16 }},
	} {
		cfg := tallyConfig(2, 1, 10)
		tc.edit(&cfg)
		if _, err := replay.NewRecorder(cfg, core.Game[tally, move](tallyGame{}), &tally{}); !hasPrefix(err, "replay: invalid config: ") {
			t.Errorf("NewRecorder(%s) = %v, want an invalid config", tc.name, err)
		}
	}
	cfg := tallyConfig(2, replay.MaxFrames, replay.MaxFrames)
	if _, err := replay.NewRecorder(cfg, core.Game[tally, move](tallyGame{}), &tally{}); err != nil {
		t.Errorf("NewRecorder(intervals at the limit) = %v", err)
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
	r, err := replay.NewRecorder(tallyConfig(1, 1, 16), core.Game[tally, move](tallyGame{}), &tally{})
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
	if err := replay.VerifyData(r.Bytes(), tallyHash, tallyGame{}); err != nil {
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
	r, err := replay.NewRecorder(tallyConfig(1, 1, 16), core.Game[tally, move](tallyGame{}), &tally{})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.AddLog(eng); !hasPrefix(err, "replay: frames missing from the input log: next frame 0, log holds ") || r.Frames() != 0 {
		t.Errorf("AddLog after the log dropped frame 0 = %v (frames %d), want frames missing", err, r.Frames())
	}
}

func TestWriteFileIsAtomic(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "match.rsr")
	r, err := replay.NewRecorder(tallyConfig(2, 1, 10), core.Game[tally, move](tallyGame{}), &tally{})
	if err != nil {
		t.Fatal(err)
	}
	for f := range 50 {
		_ = r.Add(tallyInputs(f, 2))
	}
	if err := os.WriteFile(name, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := replay.WriteFile(name, r.Bytes()); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	rp, err := replay.Open[tally, move](data, tallyHash)
	if err != nil {
		t.Fatal(err)
	}
	if rp.Header().Frames != 50 {
		t.Errorf("read %d frames, want 50", rp.Header().Frames)
	}
	if fi, err := os.Stat(name); err != nil {
		t.Error(err)
	} else if fi.Mode().Perm() != 0o644 {
		t.Errorf("file mode %v, want 0644", fi.Mode())
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
