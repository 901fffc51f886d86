package state_test

import (
	"testing"

	"github.com/rollstep/rollstep/fixed"
	"github.com/rollstep/rollstep/internal/arena"
	"github.com/rollstep/rollstep/state"
)

// lemire32 is the oracle for Uint32N: draw, accept when the low half of
// x·n is at least 2^32 mod n, return the high half.
func lemire32(r *state.Rand, n uint32) uint32 {
	for {
		m := uint64(r.Uint32()) * uint64(n)
		if uint32(m) >= uint32((1<<32)%uint64(n)) {
			return uint32(m >> 32)
		}
	}
}

func TestBoundedMatchesOracle(t *testing.T) {
	// 2^31+1 rejects almost half of all draws; 3 and 1000 rarely; 1 never.
	for _, n := range []uint32{1, 3, 1000, 1<<31 + 1, 1<<32 - 1} {
		r, o := state.NewRand(uint64(n)), state.NewRand(uint64(n))
		for i := range 2000 {
			got, want := r.Uint32N(n), lemire32(&o, n)
			if got != want || got >= n {
				t.Fatalf("Uint32N(%d) draw %d = %d, oracle %d", n, i, got, want)
			}
		}
	}
}

func TestBoundedIsUniform(t *testing.T) {
	// Chi-square over 6 faces, 60000 rolls: the 99.9% critical value for 5
	// degrees of freedom is 20.5. Seeded, so the outcome is fixed.
	r := state.NewRand(6)
	var count [6]int
	const rolls = 60000
	for range rolls {
		count[r.Int32N(6)]++
	}
	chi := 0.0
	for _, c := range count {
		d := float64(c) - rolls/6
		chi += d * d / (rolls / 6)
	}
	if chi > 20.5 {
		t.Errorf("chi-square %.1f for counts %v", chi, count)
	}
}

func TestRandRanges(t *testing.T) {
	r := state.NewRand(1)
	for range 10000 {
		if v := r.Int32N(5); v < 0 || v >= 5 {
			t.Fatalf("Int32N(5) = %d", v)
		}
		if f := r.Fixed(); f < 0 || f >= fixed.One {
			t.Fatalf("Fixed() = %v", f)
		}
	}
}

func TestRandZeroValueAndCopies(t *testing.T) {
	var z state.Rand
	a, b := z.Uint32(), z.Uint32()
	if a == b {
		t.Errorf("the zero Rand repeats %#x", a)
	}
	// A copy replays the same sequence: this is what a rollback relies on.
	r := state.NewRand(99)
	saved := r
	first := [3]uint64{r.Uint64(), r.Uint64(), r.Uint64()}
	again := [3]uint64{saved.Uint64(), saved.Uint64(), saved.Uint64()}
	if first != again {
		t.Errorf("a copied Rand diverged: %v vs %v", first, again)
	}
	if state.NewRand(1) == state.NewRand(2) {
		t.Error("different seeds give the same state")
	}
	if arena.Size[state.Rand]() != 8 {
		t.Errorf("Size[Rand] = %d, want 8", arena.Size[state.Rand]())
	}
}

func TestRandPanicsOnEmptyRange(t *testing.T) {
	for name, f := range map[string]func(r *state.Rand){
		"Uint32N(0)": func(r *state.Rand) { r.Uint32N(0) },
		"Int32N(0)":  func(r *state.Rand) { r.Int32N(0) },
		"Int32N(-1)": func(r *state.Rand) { r.Int32N(-1) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			r := state.NewRand(1)
			f(&r)
		}()
	}
}

func TestRandAllocs(t *testing.T) {
	r := state.NewRand(5)
	if n := testing.AllocsPerRun(100, func() { r.Uint32N(1000); r.Fixed(); r.Bool() }); n != 0 {
		t.Errorf("Rand allocates %v times", n)
	}
}

// TestRandIsSerializable checks that a Rand can live in a game's state.
func TestRandIsSerializable(t *testing.T) {
	if err := state.Validate[state.Rand](); err != nil {
		t.Fatal(err)
	}
	type world struct {
		Rng  state.Rand
		Tick int32
		_    [4]byte
	}
	if err := state.Validate[world](); err != nil {
		t.Fatal(err)
	}
}
