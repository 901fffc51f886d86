package arena_test

import (
	"errors"
	"math"
	"testing"

	"github.com/rollstep/rollstep/internal/arena"
	"github.com/rollstep/rollstep/state"
)

// splitmix64 is the test-side generator used to fill states. It is
// independent of state.Rand so that golden values pin the package, not the
// filler.
type splitmix64 uint64

func (s *splitmix64) next() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// fillWorld sets every field of w from seed.
func fillWorld(w *okWorld, seed uint64) {
	r := splitmix64(seed)
	w.Tick = int32(r.next())
	for i := range w.Units {
		u := &w.Units[i]
		u.ID = uint16(r.next())
		u.Kind = uint8(r.next())
		u.Live = r.next()&1 == 1
		u.HP = int32(r.next())
		u.X = int64(r.next())
		u.Y = int64(r.next())
	}
	w.Rng = state.NewRand(r.next())
	for i := range w.Grid {
		w.Grid[i] = uint8(r.next())
	}
	for i := range w.Flags {
		w.Flags[i] = r.next()&1 == 1
	}
}

func newRing[S any](t testing.TB, capacity int) *arena.Ring[S] {
	t.Helper()
	r, err := arena.NewRing[S](capacity)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRingSaveLoad(t *testing.T) {
	const capacity = 4
	r := newRing[okWorld](t, capacity)
	if r.Cap() != capacity {
		t.Fatalf("Cap() = %d, want %d", r.Cap(), capacity)
	}
	var saved [10]okWorld
	for f := range int32(10) {
		fillWorld(&saved[f], uint64(f)+1)
		s := saved[f]
		r.Save(f, &s)
		s.Tick++ // the ring holds a copy, not the caller's value
	}
	for f := range int32(10) {
		held := f >= 10-capacity
		if got := r.Has(f); got != held {
			t.Errorf("Has(%d) = %v, want %v", f, got, held)
		}
		var got okWorld
		err := r.Load(f, &got)
		if !held {
			if !errors.Is(err, arena.ErrFrameNotHeld) {
				t.Errorf("Load(%d) = %v, want ErrFrameNotHeld", f, err)
			}
			if got != (okWorld{}) {
				t.Errorf("Load(%d) changed the destination on error", f)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Load(%d): %v", f, err)
		}
		if got != saved[f] {
			t.Errorf("Load(%d) returned a different state", f)
		}
		p, ok := r.Peek(f)
		if !ok || *p != saved[f] {
			t.Errorf("Peek(%d) = %v, want the saved state", f, ok)
		}
		if arena.Checksum(p) != arena.Checksum(&saved[f]) {
			t.Errorf("Checksum(Peek(%d)) differs from the saved state's", f)
		}
	}
}

func TestRingFrameNotHeldError(t *testing.T) {
	r := newRing[int64](t, 3)
	var v int64 = 7
	r.Save(4, &v)
	err := r.Load(7, &v)
	var e *arena.FrameNotHeldError
	if !errors.As(err, &e) {
		t.Fatalf("Load(7) = %v, want *FrameNotHeldError", err)
	}
	if e.Frame != 7 || e.Held != 4 || !e.HeldOK {
		t.Errorf("error = %+v, want Frame 7 Held 4", e)
	}
	if got, want := err.Error(), "state: frame 7 not held (its slot holds frame 4)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	err = r.Load(5, &v)
	if got, want := err.Error(), "state: frame 5 not held (its slot is empty)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if _, ok := r.Peek(5); ok {
		t.Error("Peek(5) = true on an empty slot")
	}
}

func TestRingNegativeFramesAndReset(t *testing.T) {
	r := newRing[int64](t, 3)
	for f := int32(-5); f <= 1; f++ {
		v := int64(f) * 10
		r.Save(f, &v)
	}
	for f := int32(-5); f <= 1; f++ {
		var v int64
		err := r.Load(f, &v)
		if f < -1 {
			if err == nil {
				t.Errorf("Load(%d) succeeded after being overwritten", f)
			}
			continue
		}
		if err != nil || v != int64(f)*10 {
			t.Errorf("Load(%d) = %d, %v; want %d", f, v, err, f*10)
		}
	}
	r.Reset()
	for f := int32(-1); f <= 1; f++ {
		if r.Has(f) {
			t.Errorf("Has(%d) after Reset", f)
		}
	}
}

func TestRingExtremeFrames(t *testing.T) {
	r := newRing[int32](t, 7)
	for _, f := range []int32{-1 << 31, 1<<31 - 1, 0, -1} {
		v := f
		r.Save(f, &v)
		var got int32
		if err := r.Load(f, &got); err != nil || got != f {
			t.Errorf("Load(%d) = %d, %v", f, got, err)
		}
	}
}

func TestNewRingErrors(t *testing.T) {
	for _, c := range []int{0, -1} {
		if _, err := arena.NewRing[int64](c); !errors.Is(err, arena.ErrInvalidCapacity) {
			t.Errorf("NewRing(%d) = %v, want ErrInvalidCapacity", c, err)
		}
	}
	if _, err := arena.NewRing[[1 << 20]byte](math.MaxInt); !errors.Is(err, arena.ErrInvalidCapacity) {
		t.Errorf("NewRing(huge) = %v, want ErrInvalidCapacity", err)
	}
	if _, err := arena.NewRing[intWorld](4); !errors.Is(err, arena.ErrNotSerializable) {
		t.Errorf("NewRing[intWorld] = %v, want ErrNotSerializable", err)
	}
	if _, err := arena.NewRing[floatWorld](4); !errors.Is(err, arena.ErrNotSerializable) {
		t.Errorf("NewRing[floatWorld] = %v, want ErrNotSerializable", err)
	}
	if _, err := arena.NewRingWith[floatWorld](4, arena.ValidateOptions{AllowFloats: true}); err != nil {
		t.Errorf("NewRingWith[floatWorld](AllowFloats) = %v", err)
	}
}

// bigState is larger than two copy chunks and not a multiple of one.
type bigState struct {
	A [1<<20 + 333]byte
	_ [3]byte
	B [1 << 18]int32
}

func TestRingLargeStateIsChunkedCorrectly(t *testing.T) {
	r := newRing[bigState](t, 2)
	src := new(bigState)
	g := splitmix64(9)
	for i := range src.A {
		src.A[i] = byte(g.next())
	}
	for i := range src.B {
		src.B[i] = int32(g.next())
	}
	r.Save(1, src)
	dst := new(bigState)
	if err := r.Load(1, dst); err != nil {
		t.Fatal(err)
	}
	if *dst != *src {
		t.Error("a large state did not survive Save and Load")
	}
}

func TestRingPropertyLoadOfSaveIsIdentity(t *testing.T) {
	g := splitmix64(12345)
	r := newRing[okWorld](t, 5)
	var want [5]okWorld
	for i := range 500 {
		f := int32(g.next() % 64)
		var w okWorld
		fillWorld(&w, g.next())
		r.Save(f, &w)
		want[int(f)%5] = w
		if i%3 == 0 {
			var got okWorld
			if err := r.Load(f, &got); err != nil || got != w {
				t.Fatalf("step %d: Load(%d) after Save = %v", i, f, err)
			}
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	r := newRing[okWorld](t, 8)
	var w okWorld
	fillWorld(&w, 1)
	var f int32
	if n := testing.AllocsPerRun(100, func() { r.Save(f, &w); f++ }); n != 0 {
		t.Errorf("Save allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() {
		if err := r.Load(f-1, &w); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Load allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = r.Has(f); _, _ = r.Peek(f - 1) }); n != 0 {
		t.Errorf("Has/Peek allocate %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = arena.Checksum(&w) }); n != 0 {
		t.Errorf("Checksum allocates %v times", n)
	}
	dst := make([]uint64, 0, 16)
	if n := testing.AllocsPerRun(100, func() { dst = arena.BlockHashes(&w, 64, dst[:0]) }); n != 0 {
		t.Errorf("BlockHashes allocates %v times", n)
	}
	big := new(bigState)
	rb := newRing[bigState](t, 2)
	if n := testing.AllocsPerRun(10, func() { rb.Save(0, big); _ = rb.Load(0, big) }); n != 0 {
		t.Errorf("chunked Save/Load allocate %v times", n)
	}
}

func TestNewRingCapacityLimits(t *testing.T) {
	// Even a zero-size state needs bookkeeping per slot: a capacity the
	// address space cannot hold is an error, never a makeslice panic.
	if _, err := arena.NewRing[struct{}](math.MaxInt); !errors.Is(err, arena.ErrInvalidCapacity) {
		t.Errorf("NewRing[struct{}](MaxInt) = %v, want ErrInvalidCapacity", err)
	}
}
