package engine

import (
	"errors"
	"testing"

	"github.com/rollstep/rollstep/core"
)

func TestConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		name  string
		mod   func(c *Config)
		field string
	}{
		{"no-players", func(c *Config) { c.Players = 0 }, "Players"},
		{"too-many-players", func(c *Config) { c.Players = 17 }, "Players"},
		{"player-twice", func(c *Config) { c.Peers = [][]core.PlayerHandle{{0}} }, "Peers[0]"},
		{"player-missing", func(c *Config) { c.Players = 3 }, "Peers"},
		{"player-out-of-range", func(c *Config) { c.Local = []core.PlayerHandle{5} }, "Local"},
		{"empty-peer", func(c *Config) { c.Peers = append(c.Peers, nil) }, "Peers"},
		{"negative-delay", func(c *Config) { c.InputDelay = -1 }, "InputDelay"},
		{"delay-over-max", func(c *Config) { c.InputDelay = 40 }, "InputDelay"},
		{"prediction-over-max", func(c *Config) { c.Prediction = 9 }, "Prediction"},
		{"prediction-limit", func(c *Config) { c.MaxPrediction = 65; c.Prediction = 65 }, "MaxPrediction"},
		{"synctest-over-max", func(c *Config) { c.SyncTest = 9 }, "SyncTest"},
		{"effects", func(c *Config) { c.MaxEffectsPerFrame = 65 }, "MaxEffectsPerFrame"},
		{"negative-interval", func(c *Config) { c.ChecksumInterval = -1 }, "ChecksumInterval"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := DefaultConfig()
			tc.mod(&c)
			before := c.Local
			err := c.Validate()
			var ce *ConfigError
			if !errors.As(err, &ce) || !errors.Is(err, ErrInvalidConfig) || ce.Field != tc.field {
				t.Fatalf("Validate: %v, want a *ConfigError for %s", err, tc.field)
			}
			if _, err := NewEngine[testState, testInput](c, &testGame{}, &testState{}); !errors.Is(err, ErrInvalidConfig) {
				t.Fatalf("NewEngine: %v, want ErrInvalidConfig", err)
			}
			if &c.Local[0] != &before[0] {
				t.Fatal("Validate replaced the caller's slice")
			}
		})
	}
	t.Run("default-is-valid", func(t *testing.T) {
		if err := DefaultConfig().Validate(); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("lockstep-allocates-no-ring", func(t *testing.T) {
		c := DefaultConfig()
		c.Prediction, c.MaxPrediction = 0, 0
		e, err := NewEngine[testState, testInput](c, &testGame{}, &testState{})
		if err != nil || e.ring != nil {
			t.Fatalf("err %v ring %v", err, e.ring != nil)
		}
	})
	t.Run("bad-state-type", func(t *testing.T) {
		type bad struct{ P *int }
		_, err := NewEngine[bad, testInput](DefaultConfig(), core.GameFunc[bad, testInput](func(*bad, []core.Input[testInput], core.Effects) {}), &bad{})
		if err == nil {
			t.Fatal("a state with a pointer was accepted")
		}
	})
}

func TestCallerErrors(t *testing.T) {
	e, err := NewEngine[testState, testInput](DefaultConfig(), &testGame{}, &testState{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.AddLocalInput(1, 0); !errors.Is(err, ErrNotLocal) {
		t.Fatalf("AddLocalInput(remote): %v", err)
	}
	if err := e.AddLocalInput(-1, 0); !errors.Is(err, ErrNotLocal) {
		t.Fatalf("AddLocalInput(-1): %v", err)
	}
	if err := e.SetInputDelay(0, 33); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("SetInputDelay(33): %v", err)
	}
	if err := e.SetPrediction(9); !errors.Is(err, ErrOutOfRange) {
		t.Fatalf("SetPrediction(9): %v", err)
	}
	if err := e.DisconnectPeer(3); !errors.Is(err, ErrUnknownPeer) {
		t.Fatalf("DisconnectPeer(3): %v", err)
	}
	if _, err := e.ReadLog(0, nil); !errors.Is(err, ErrFrameNotLogged) {
		t.Fatalf("ReadLog: %v", err)
	}
	// D = 1: frame 0 carries the zero input, so frame 0 needs nothing.
	if e.NeedsInput(0) || e.NeedsInput(1) {
		t.Fatal("NeedsInput at frame 0")
	}
	// A caller reusing one buffer: the engine copied the value.
	buf := []testInput{3}
	_ = e.AddLocalInput(0, buf[0])
	buf[0] = 9
	if got := e.vals[e.idx(0, 1)].Value; got != 3 {
		t.Fatalf("scheduled %d, want the copy 3", got)
	}
	e.Advance(0) // frame 0
	e.Advance(0) // frame 1, with the input scheduled above
	if e.Frame() != 2 || !e.NeedsInput(0) {
		t.Fatalf("frame %d NeedsInput %v, want frame 2 needing input", e.Frame(), e.NeedsInput(0))
	}
}

// Messages stay bounded when a peer acknowledges nothing: at most
// MaxRunLength inputs per run and 8 checksum reports.
func TestMessagesBounded(t *testing.T) {
	c := DefaultConfig()
	c.InputDelay, c.MaxRunLength = 30, 16
	e, err := NewEngine[testState, testInput](c, &testGame{}, &testState{})
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 20; k++ {
		_ = e.AddLocalInput(0, testInput(k))
		r := e.Advance(0)
		m := r.Messages[0].Message
		if len(m.Inputs) != 1 || len(m.Inputs[0].Values) > 16 || m.Inputs[0].Start != 0 || len(m.Checksums) > maxSumsPerMessage {
			t.Fatalf("call %d: %d runs, first of %d inputs from %d, %d checksums", k, len(m.Inputs), len(m.Inputs[0].Values), m.Inputs[0].Start, len(m.Checksums))
		}
	}
}
