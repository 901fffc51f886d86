package rollback

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
)

// pair is a small game state for the tests: two counters and a history.
type pair struct {
	Frame int32
	Pad   int32
	Pos   [8]int64
	Acc   uint64
	Hist  [8]uint64
}

// leak is package state a deliberately non-deterministic Step reads.
var leak int64

// pairGame is deterministic unless leakAt >= 0, from which frame on Step
// also adds a counter kept outside the state.
type pairGame struct{ leakAt int32 }

func (g pairGame) Step(s *pair, in []core.Input[uint16], fx core.Effects) {
	f := s.Frame
	s.Frame++
	for p, i := range in {
		if i.Status == core.InputDisconnected {
			continue
		}
		s.Pos[p] += int64(i.Value%5) - 2
		s.Acc = s.Acc*6364136223846793005 + uint64(i.Value) + uint64(p) + 1
		if i.Value%8 == 1 {
			fx.Emit(core.Effect{Kind: 1, Args: [3]int64{int64(p), int64(f)}})
		}
	}
	if g.leakAt >= 0 && f >= g.leakAt {
		leak++
		s.Pos[1] += leak
	}
	s.Hist[f%8] ^= s.Acc
}

// runSyncTest advances st frames frames, taking every player's input
// from input, and returns the first error.
func runSyncTest(st *SyncTest[pair, uint16], frames int, input func(f core.Frame, p core.PlayerHandle) uint16) error {
	in := make([]uint16, 2)
	for f := range core.Frame(frames) {
		for p := range in {
			in[p] = input(f, core.PlayerHandle(p))
		}
		if _, err := st.AdvanceFrame(in); err != nil {
			return err
		}
	}
	return nil
}

func TestSyncTestCatchesNonDeterministicStep(t *testing.T) {
	st, err := NewSyncTest[pair, uint16](SyncTestConfig{CheckDistance: 3}, pairGame{leakAt: 40}, pair{})
	if err != nil {
		t.Fatalf("NewSyncTest: %v", err)
	}
	err = runSyncTest(st, 100, func(f core.Frame, p core.PlayerHandle) uint16 { return uint16(f)*3 + uint16(p) })
	var se *SyncTestError
	if !errors.As(err, &se) {
		t.Fatalf("AdvanceFrame = %v, want a *SyncTestError", err)
	}
	if se.Frame != 40 {
		t.Errorf("Frame = %d, want 40 (the first frame that reads outside state)", se.Frame)
	}
	if len(se.Paths) != 1 || se.Paths[0] != "Pos[1]" {
		t.Errorf("Paths = %q, want [Pos[1]]", se.Paths)
	}
	if !strings.Contains(err.Error(), "frame 40") || !strings.Contains(err.Error(), "Pos[1]") {
		t.Errorf("Error() = %q, want it to name frame 40 and Pos[1]", err)
	}
	if f := st.State().Frame; f != 41 {
		t.Errorf("state after %d frames, want 41: the failing frame was simulated", f)
	}
	if _, again := st.AdvanceFrame([]uint16{1, 2}); again != err {
		t.Errorf("AdvanceFrame after failure = %v, want the same error", again)
	}
}

func TestSyncTestPassesDeterministicStep(t *testing.T) {
	for _, k := range []int{1, 2, 8} {
		st, err := NewSyncTest[pair, uint16](SyncTestConfig{Players: 3, CheckDistance: k}, pairGame{leakAt: -1}, pair{})
		if err != nil {
			t.Fatalf("NewSyncTest(k=%d): %v", k, err)
		}
		effects := 0
		in := make([]uint16, 3)
		for f := range 300 {
			for p := range in {
				if f%(p+2) == 0 { // players change inputs at different rates
					in[p] = uint16(f*7 + p)
				}
			}
			fx, err := st.AdvanceFrame(in)
			if err != nil {
				t.Fatalf("k=%d frame %d: %v", k, f, err)
			}
			effects += len(fx)
		}
		if st.State().Frame != 300 {
			t.Errorf("k=%d: state frame %d, want 300", k, st.State().Frame)
		}
		if effects == 0 {
			t.Errorf("k=%d: no effects delivered", k)
		}
	}
}

func TestSyncTestMatchesPlainLoop(t *testing.T) {
	st, _ := NewSyncTest[pair, uint16](SyncTestConfig{CheckDistance: 4}, pairGame{leakAt: -1}, pair{})
	input := func(f core.Frame, p core.PlayerHandle) uint16 { return uint16(f*5) ^ uint16(p) }
	if err := runSyncTest(st, 200, input); err != nil {
		t.Fatal(err)
	}
	var s pair
	fx := engine.NewEffectList(0)
	in := make([]core.Input[uint16], 2)
	for f := range core.Frame(200) {
		for p := range in {
			in[p] = core.Input[uint16]{Value: input(f, core.PlayerHandle(p)), Status: core.InputConfirmed}
		}
		pairGame{leakAt: -1}.Step(&s, in, fx)
	}
	if *st.State() != s {
		t.Errorf("state after the sync test differs from a plain loop")
	}
}

func TestNewSyncTestRejectsBadConfig(t *testing.T) {
	for _, c := range []SyncTestConfig{{CheckDistance: 65}, {CheckDistance: -1}, {Players: 17}} {
		if _, err := NewSyncTest[pair, uint16](c, pairGame{}, pair{}); !errors.Is(err, rollstep.ErrInvalidConfig) {
			t.Errorf("NewSyncTest(%+v) = %v, want ErrInvalidConfig", c, err)
		}
	}
	if _, err := NewSyncTest[pair, uint16](SyncTestConfig{}, nil, pair{}); !errors.Is(err, rollstep.ErrInvalidConfig) {
		t.Errorf("nil game: %v, want ErrInvalidConfig", err)
	}
	st, _ := NewSyncTest[pair, uint16](SyncTestConfig{}, pairGame{leakAt: -1}, pair{})
	if _, err := st.AdvanceFrame([]uint16{1}); !errors.Is(err, rollstep.ErrOutOfRange) {
		t.Errorf("AdvanceFrame with 1 input for 2 players = %v, want ErrOutOfRange", err)
	}
}

// onceGame is pairGame with a Step that, at frame at only, adds a counter
// kept outside the state: the re-simulation of that one frame differs.
type onceGame struct{ at int32 }

func (g onceGame) Step(s *pair, in []core.Input[uint16], fx core.Effects) {
	f := s.Frame
	pairGame{leakAt: -1}.Step(s, in, fx)
	if f == g.at {
		leak++
		s.Acc += uint64(leak)
	}
}

func TestSparseSyncTestCatchesEveryFrame(t *testing.T) {
	const k = 4
	for at := int32(20); at < 20+k; at++ {
		st, err := NewSyncTest[pair, uint16](SyncTestConfig{CheckDistance: k, Sparse: true}, onceGame{at: at}, pair{})
		if err != nil {
			t.Fatal(err)
		}
		err = runSyncTest(st, 60, func(f core.Frame, p core.PlayerHandle) uint16 { return uint16(f) + uint16(p) })
		var se *SyncTestError
		if !errors.As(err, &se) || se.Frame != core.Frame(at) {
			t.Errorf("leak at frame %d: AdvanceFrame = %v, want a *SyncTestError at that frame", at, err)
		}
	}
	st, _ := NewSyncTest[pair, uint16](SyncTestConfig{CheckDistance: k, Sparse: true}, pairGame{leakAt: -1}, pair{})
	if err := runSyncTest(st, 100, func(f core.Frame, p core.PlayerHandle) uint16 { return uint16(f * 3) }); err != nil {
		t.Errorf("a deterministic Step failed the sparse sync test: %v", err)
	}
}

// The sparse schedule reports a Step that reads outside its state at the
// first frame that does, at the end of the block of k frames holding it.
func TestSparseSyncTestCatchesNonDeterministicStep(t *testing.T) {
	const at = 41
	for _, k := range []int{1, 2, 8} {
		t.Run(fmt.Sprintf("k=%d", k), func(t *testing.T) {
			st, err := NewSyncTest[pair, uint16](SyncTestConfig{CheckDistance: k, Sparse: true}, pairGame{leakAt: at}, pair{})
			require.NoError(t, err)
			err = runSyncTest(st, 100, func(f core.Frame, p core.PlayerHandle) uint16 { return uint16(f)*3 + uint16(p) })
			se, ok := errors.AsType[*SyncTestError](err)
			require.True(t, ok, "AdvanceFrame = %v, want a *SyncTestError", err)
			assert.Equal(t, core.Frame(at), se.Frame)
			assert.Equal(t, []string{"Pos[1]"}, se.Paths)
			assert.Equal(t, int32(at/k*k+k), st.State().Frame, "the error comes with the check of the block holding frame %d", at)
		})
	}
}

// SyncTest.AdvanceFrame allocates nothing in the steady state, with
// either schedule.
func TestSyncTestAdvanceFrameAllocatesNothing(t *testing.T) {
	for _, sparse := range []bool{false, true} {
		for _, k := range []int{1, 2, 8} {
			t.Run(fmt.Sprintf("sparse=%v/k=%d", sparse, k), func(t *testing.T) {
				st, err := NewSyncTest[pair, uint16](SyncTestConfig{CheckDistance: k, Sparse: sparse}, pairGame{leakAt: -1}, pair{})
				require.NoError(t, err)
				in := []uint16{1, 2}
				require.NoError(t, runSyncTest(st, 50, func(f core.Frame, p core.PlayerHandle) uint16 { return uint16(f) + uint16(p) }))
				allocs := testing.AllocsPerRun(200, func() {
					in[0], in[1] = in[0]+3, in[1]+5
					if _, err := st.AdvanceFrame(in); err != nil {
						t.Fatal(err)
					}
				})
				assert.Zero(t, allocs)
			})
		}
	}
}
