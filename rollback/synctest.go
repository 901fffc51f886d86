package rollback

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
)

// SyncTestConfig configures a SyncTest. The zero value is usable: two
// players and a check distance of 2.
type SyncTestConfig struct {
	// Players is the number of players, all local; 0 means 2.
	Players int
	// CheckDistance is how many frames every new frame rolls back and
	// re-simulates (k in core.Config.SyncTest); 0 means 2. It is at most
	// 64. A larger distance catches state hidden outside S that changes
	// slowly; 1 catches most non-determinism.
	CheckDistance int
	// MaxEffectsPerFrame bounds the effects one Step may emit; 0 means 16.
	MaxEffectsPerFrame int
}

// ErrSyncTest is matched by every *SyncTestError.
var ErrSyncTest = errors.New("rollback: sync test failed")

// SyncTestError reports that re-simulating Frame gave a different state
// than its first simulation: Step is not deterministic, or it keeps state
// outside S. Paths names the differing fields (at most 16), such as
// "Units[3].Pos.X". It matches ErrSyncTest.
type SyncTestError struct {
	Frame core.Frame // the first frame whose re-simulation differed
	First uint64     // checksum after the first simulation of Frame
	Again uint64     // checksum after the re-simulation
	Paths []string   // differing fields
}

// Error names the frame, the checksums and the fields.
func (e *SyncTestError) Error() string {
	fields := "no field differs in memory (state outside S?)"
	if len(e.Paths) > 0 {
		fields = "fields " + strings.Join(e.Paths, ", ")
	}
	return fmt.Sprintf("rollback: sync test failed at frame %d: checksum %#016x then %#016x; %s",
		e.Frame, e.First, e.Again, fields)
}

// Is reports whether target is ErrSyncTest.
func (e *SyncTestError) Is(target error) bool { return target == ErrSyncTest }

// SyncTest runs a game with every player local and checks that Step is
// deterministic: after every new frame it loads the state saved
// CheckDistance frames earlier, re-simulates those frames with the same
// inputs and compares the checksums with the first simulation (core's sync
// test mode). Use it in development builds and in tests; the
// rollstep_synctest build tag turns the same check on inside every Session.
// A SyncTest is not safe for concurrent use.
type SyncTest[S any, I comparable] struct {
	eng     *engine.Engine[S, I]
	players int
	err     error
	fx      []core.FrameEffect
	set     uint32 // bit p: AddLocalInput was called for player p this frame
	last    [core.MaxPlayers]I
}

// NewSyncTest returns a sync test at frame 0 whose state is a copy of
// initial. It returns a *rollstep.ConfigError for a bad cfg and the
// state.Validate error when S or I is not arena-serializable.
func NewSyncTest[S any, I comparable](cfg SyncTestConfig, game core.Game[S, I], initial S) (*SyncTest[S, I], error) {
	if cfg.Players == 0 {
		cfg.Players = 2
	}
	if cfg.CheckDistance == 0 {
		cfg.CheckDistance = 2
	}
	if cfg.CheckDistance < 0 || cfg.CheckDistance > 64 {
		return nil, &rollstep.ConfigError{Field: "CheckDistance", Reason: fmt.Sprintf("%d is outside 1..64", cfg.CheckDistance)}
	}
	if cfg.Players < 1 || cfg.Players > core.MaxPlayers {
		return nil, &rollstep.ConfigError{Field: "Players", Reason: fmt.Sprintf("%d is outside 1..%d", cfg.Players, core.MaxPlayers)}
	}
	cc := engine.Config{
		Players:            cfg.Players,
		Prediction:         cfg.CheckDistance,
		MaxPrediction:      cfg.CheckDistance,
		SyncTest:           cfg.CheckDistance,
		DisableChecksums:   true,
		MaxEffectsPerFrame: cfg.MaxEffectsPerFrame,
	}
	for p := range cfg.Players {
		cc.Local = append(cc.Local, core.PlayerHandle(p))
	}
	eng, err := engine.NewEngine[S, I](cc, game, &initial)
	if err != nil {
		return nil, err
	}
	return &SyncTest[S, I]{eng: eng, players: cfg.Players}, nil
}

// AddLocalInput sets player p's input for the current frame. A player
// without an input for a frame gets its previous input (the zero value
// at first). It returns rollstep.ErrNotLocal for a player outside the match.
func (st *SyncTest[S, I]) AddLocalInput(p core.PlayerHandle, v I) error {
	if p < 0 || int(p) >= st.players {
		return rollstep.ErrNotLocal
	}
	if err := st.eng.AddLocalInput(p, v); err != nil {
		return err
	}
	st.set |= 1 << p
	st.last[p] = v
	return nil
}

// AdvanceFrame simulates the current frame, then re-simulates the newest
// CheckDistance frames and compares. It returns a *SyncTestError for the
// first frame whose re-simulation differed; once it has, every later call
// returns the same error without simulating, since the state can no
// longer be trusted.
func (st *SyncTest[S, I]) AdvanceFrame() error {
	if st.err != nil {
		return st.err
	}
	for p := range st.players {
		if st.set&(1<<p) == 0 {
			_ = st.eng.AddLocalInput(core.PlayerHandle(p), st.last[p]) // cannot fail: p is local, D = 0
		}
	}
	st.set = 0
	r := st.eng.Advance(0)
	st.fx = append(st.fx[:0], r.Effects...)
	for _, ev := range r.Events {
		if e, ok := ev.(core.SyncTestEvent); ok {
			st.err = &SyncTestError{Frame: e.Frame, First: e.First, Again: e.Again, Paths: e.Paths}
			return st.err
		}
	}
	return nil
}

// Run simulates frames frames, taking every player's input from input, and
// returns the first *SyncTestError.
func (st *SyncTest[S, I]) Run(frames int, input func(f core.Frame, p core.PlayerHandle) I) error {
	for range frames {
		f := st.eng.Frame()
		for p := range st.players {
			if err := st.AddLocalInput(core.PlayerHandle(p), input(f, core.PlayerHandle(p))); err != nil {
				return err
			}
		}
		if err := st.AdvanceFrame(); err != nil {
			return err
		}
	}
	return nil
}

// Frame returns the current frame: the next frame AdvanceFrame simulates.
func (st *SyncTest[S, I]) Frame() core.Frame { return st.eng.Frame() }

// State returns the state after frame Frame()-1. It is owned by the sync
// test: read it, never write it.
func (st *SyncTest[S, I]) State() *S { return st.eng.State() }

// Effects returns the effects the last AdvanceFrame emitted (sync-test
// re-simulations never emit any). The slice is valid until the next call.
func (st *SyncTest[S, I]) Effects() []core.FrameEffect { return st.fx }

// Err returns the sync test's failure, or nil.
func (st *SyncTest[S, I]) Err() error { return st.err }
