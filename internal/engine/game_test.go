package engine

import "github.com/rollstep/rollstep/core"

// testState is a 1 KiB arena-serializable state for the tests.
type testState struct {
	Frame int32
	Gone  uint32
	Pos   [core.MaxPlayers]int64
	Acc   uint64
	Nudge int64
	Hist  [109]uint64
}

// testInput is a 4-byte input.
type testInput uint32

// testGame is a deterministic game. It can nudge its own state at one frame
// (to provoke a desync) and records whether it ever saw a prediction.
type testGame struct {
	nudgeAt     core.Frame
	nudge       bool
	sawPredict  bool
	sawUnknown  bool
	steps       int
	effects     bool
	nondetAfter core.Frame // with nondet: Step reads nondetCounter from this frame
	nondet      bool
	heavy       int // Step also mixes the whole state this many times (about 100 ns each), like a real game
	// onStep, when set, sees every call of Step first (the inputs are
	// the engine's: copy them to keep them).
	onStep func(s *testState, inputs []core.Input[testInput])
}

// nondetCounter is the package-level counter a deliberately
// non-deterministic Step reads (sync-test scenario).
var nondetCounter int64

func (g *testGame) Step(s *testState, inputs []core.Input[testInput], fx core.Effects) {
	g.steps++
	if g.onStep != nil {
		g.onStep(s, inputs)
	}
	f := core.Frame(s.Frame)
	s.Frame++
	for p, in := range inputs {
		switch in.Status {
		case core.InputDisconnected:
			s.Gone |= 1 << p
			continue
		case core.InputPredicted:
			g.sawPredict = true
		case 0:
			g.sawUnknown = true
		}
		v := int64(in.Value)
		s.Pos[p] += v%7 - 3
		s.Acc = s.Acc*6364136223846793005 + uint64(in.Value) + uint64(p) + 1
		if g.effects && in.Value%4 == 0 {
			fx.Emit(core.Effect{Kind: 1, Args: [3]int64{int64(p), v, int64(f)}})
		}
	}
	// Any state is one this Step can take: FuzzResume and FuzzJoin start
	// engines from states a lying peer vouches for, whose frame may be
	// negative, to explore the engine's paths, not this game's limits
	// (for a frame >= 0 the slot is f mod len, as before).
	s.Hist[uint32(f)%uint32(len(s.Hist))] ^= s.Acc
	for range g.heavy {
		x := s.Acc
		for i := range s.Hist {
			x = x*0x9e3779b97f4a7c15 + s.Hist[i]
			s.Hist[i] ^= x >> 29
		}
	}
	if g.nudge && f == g.nudgeAt {
		s.Nudge++
	}
	if g.nondet && f >= g.nondetAfter {
		nondetCounter++
		s.Acc += uint64(nondetCounter)
	}
}

// refRun simulates frames 0..n-1 sequentially with input(p, f), the
// oracle for the engines.
func refRun(players int, n core.Frame, input func(p int, f core.Frame) testInput) testState {
	s, _ := refRunEffects(players, n, input)
	return s
}

// refRunEffects is refRun that also returns every effect emitted.
func refRunEffects(players int, n core.Frame, input func(p int, f core.Frame) testInput) (testState, map[core.FrameEffect]int) {
	var s testState
	g := &testGame{effects: true}
	fx := NewEffectList(64)
	played := map[core.FrameEffect]int{}
	in := make([]core.Input[testInput], players)
	for f := core.Frame(0); f < n; f++ {
		for p := range in {
			in[p] = core.Input[testInput]{Value: input(p, f), Status: core.InputConfirmed}
		}
		fx.reset()
		g.Step(&s, in, fx)
		for _, e := range fx.list {
			played[core.FrameEffect{Frame: f, Effect: e}]++
		}
	}
	return s, played
}

// genInput is a deterministic input stream: mostly steady (so predictions
// are often right), changing every few frames, zero for the first 8 frames
// (so runs with different D see the same inputs per frame).
func genInput(seed uint64, p int, f core.Frame) testInput {
	if f < 8 {
		return 0
	}
	x := seed ^ uint64(p)*0x9e3779b97f4a7c15 ^ uint64(f/4)*0xbf58476d1ce4e5b9
	x ^= x >> 31
	x *= 0x94d049bb133111eb
	x ^= x >> 29
	return testInput(x % 16)
}
