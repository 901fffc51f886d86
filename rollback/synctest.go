package rollback

import (
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
	// CheckDistance is how many frames a check rolls back and
	// re-simulates (k), after every new frame (or every k-th with
	// Sparse); 0 means 2. It is at most 64. A larger distance catches
	// state hidden outside S that changes slowly; 1 catches most
	// non-determinism. With the dense schedule (the default) it costs k
	// extra Steps a frame, each followed by a checksum of S, besides a
	// state save and load and a checksum of the first simulation: for a
	// 1 KiB state and a ~150 ns Step (BenchmarkSyncTest), a frame takes
	// about 2.3 times a frame without the sync test at k = 1, 3.3 at
	// k = 2 and 9 at k = 8 (3.4, 4.9 and 11.7 plain Steps).
	CheckDistance int
	// Sparse selects the sparse schedule: once every k frames, the k
	// frames since the last check are rolled back and re-simulated, so
	// every frame is still compared with its first simulation, once, for
	// about one extra Step a frame whatever k is (about 2.3 times a frame
	// without the sync test at k = 1, 2 or 8 in the case above). An error
	// comes with the check of the block holding the bad frame, up to k-1
	// frames after it. The dense schedule (the default) compares each
	// frame k times, from k different start states, up to k-1 frames
	// after its first simulation, so it catches state hidden outside S
	// that changes slowly more often; the sparse one re-simulates a frame
	// once, 0 to k-1 frames after its first simulation.
	Sparse bool
	// MaxEffectsPerFrame bounds the effects one Step may emit; 0 means 16.
	MaxEffectsPerFrame int
}

// SyncTestError reports that re-simulating Frame gave a different state
// than its first simulation: Step is not deterministic, or it keeps state
// outside S. Paths names the differing fields (at most 16), such as
// "Units[3].Pos.X". Find it with errors.As.
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

// SyncTest runs a game with every player local and checks that Step is
// deterministic: after every new frame it loads the state saved
// CheckDistance frames earlier, re-simulates those frames with the same
// inputs and compares the checksums with the first simulation (the
// engine's sync test mode, reported inside sessions as
// core.SyncTestEvent); with SyncTestConfig.Sparse, it does so after every
// CheckDistance-th frame. Use it in development builds and in tests; the
// rollstep_synctest build tag turns the same check on inside every Session.
// A SyncTest is not safe for concurrent use.
type SyncTest[S any, I comparable] struct {
	eng     *engine.Engine[S, I]
	players int
	err     error
	fx      []core.FrameEffect
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
		SyncTestSparse:     cfg.Sparse,
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

// AdvanceFrame simulates the current frame with inputs, one per player
// in handle order, then re-simulates the newest CheckDistance frames and
// compares (with Sparse, only at every CheckDistance-th frame). It
// returns the effects the frame emitted (re-simulations never emit any),
// valid until the next call, and a *SyncTestError for the
// first frame whose re-simulation differed; once it has, every later call
// returns the same error without simulating, since the state can no
// longer be trusted. An inputs slice of another length than Players is
// refused with an error matching rollstep.ErrOutOfRange.
func (st *SyncTest[S, I]) AdvanceFrame(inputs []I) ([]core.FrameEffect, error) {
	if st.err != nil {
		return nil, st.err
	}
	if len(inputs) != st.players {
		return nil, fmt.Errorf("%w: %d inputs for %d players", rollstep.ErrOutOfRange, len(inputs), st.players)
	}
	for p, v := range inputs {
		_ = st.eng.AddLocalInput(core.PlayerHandle(p), v) // cannot fail: p is local, D = 0
	}
	r := st.eng.Advance(0)
	st.fx = append(st.fx[:0], r.Effects...)
	for _, ev := range r.Events {
		if e, ok := ev.(core.SyncTestEvent); ok {
			st.err = &SyncTestError{Frame: e.Frame, First: e.First, Again: e.Again, Paths: e.Paths}
			return st.fx, st.err
		}
	}
	return st.fx, nil
}

// State returns the state after the newest frame simulated. It is owned
// by the sync test: read it, never write it.
func (st *SyncTest[S, I]) State() *S { return st.eng.State() }
