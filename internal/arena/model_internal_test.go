package arena

import (
	"reflect"
	"slices"
	"testing"
)

type mA struct {
	K int32
	P int64
}
type mB struct {
	A  uint8
	C  complex128
	F  float32
	Z  [0]int64
	X  [3]mA
	E  struct{}
	B  bool
	C6 complex64
}
type mC struct {
	H  int16
	In mB
	T  [2][3]uint16
	E  struct{}
}
type mD struct {
	X uint64
	Y uint8
}

// TestLayoutModelMatchesCompiler checks the computed layout for this target
// against the compiler's, for every struct reachable from some awkward
// types. CI runs it on 64-bit and 32-bit targets, which covers both models.
func TestLayoutModelMatchesCompiler(t *testing.T) {
	var check func(reflect.Type)
	check = func(rt reflect.Type) {
		switch rt.Kind() {
		case reflect.Array:
			check(rt.Elem())
			return
		case reflect.Struct:
		default:
			return
		}
		offs, size, align := structLayout(rt, hostWord)
		if size != int(rt.Size()) || align != rt.Align() {
			t.Errorf("%v: model size %d align %d, compiler %d %d", rt, size, align, rt.Size(), rt.Align())
		}
		for i := range rt.NumField() {
			if f := rt.Field(i); offs[i] != int(f.Offset) {
				t.Errorf("%v.%s: model offset %d, compiler %d", rt, f.Name, offs[i], f.Offset)
			}
			check(rt.Field(i).Type)
		}
	}
	for _, rt := range []reflect.Type{
		reflect.TypeFor[mA](), reflect.TypeFor[mB](), reflect.TypeFor[mC](), reflect.TypeFor[mD](),
		reflect.TypeFor[[4]mC](), reflect.TypeFor[mRand](),
	} {
		check(rt)
	}
}

func TestLayoutModels(t *testing.T) {
	tests := []struct {
		t              reflect.Type
		offs64, offs32 []int
		size64, size32 int
	}{
		{reflect.TypeFor[mA](), []int{0, 8}, []int{0, 4}, 16, 12},
		{reflect.TypeFor[mD](), []int{0, 8}, []int{0, 8}, 16, 12},
		{reflect.TypeFor[struct {
			A int32
			C complex128
		}](), []int{0, 8}, []int{0, 4}, 24, 20},
		{reflect.TypeFor[struct {
			A int8
			E struct{}
		}](), []int{0, 1}, []int{0, 1}, 2, 2},
	}
	for _, tt := range tests {
		o64, s64, _ := structLayout(tt.t, word64)
		o32, s32, _ := structLayout(tt.t, word32)
		if !slices.Equal(o64, tt.offs64) || s64 != tt.size64 || !slices.Equal(o32, tt.offs32) || s32 != tt.size32 {
			t.Errorf("%v: 64-bit %v %d, 32-bit %v %d; want %v %d, %v %d",
				tt.t, o64, s64, o32, s32, tt.offs64, tt.size64, tt.offs32, tt.size32)
		}
	}
}

type blanky struct {
	A uint8
	_ [3]byte
	B int32
}

// TestDiffReportsBlankBytes: blank fields are hashed with the state, so a
// difference in them (which only unsafe code can cause) must be reported.
func TestDiffReportsBlankBytes(t *testing.T) {
	var a, b blanky
	bytesOf(&b)[2] = 9
	if a == b {
		t.Log("== ignores blank fields, as the spec says")
	}
	if Checksum(&a) == Checksum(&b) {
		t.Error("Checksum ignores blank bytes")
	}
	d := Diff(&a, &b)
	if len(d) != 1 || d[0].Path != "_" || d[0].A != "0x000000" || d[0].B != "0x000900" {
		t.Errorf("Diff = %v", d)
	}
}

func TestCacheReturnsSameInfo(t *testing.T) {
	a := infoOf(reflect.TypeFor[blanky]())
	b := infoOf(reflect.TypeFor[blanky]())
	if a != b {
		t.Error("infoOf computed a cached type again")
	}
}

// TestRingCopiesBlankBytes: Save and Load are byte copies, blank fields
// included, so a saved state hashes exactly like the original.
func TestRingCopiesBlankBytes(t *testing.T) {
	r, err := NewRing[blanky](2)
	if err != nil {
		t.Fatal(err)
	}
	var s blanky
	bytesOf(&s)[1] = 0x5a
	r.Save(1, &s)
	var back blanky
	if err := r.Load(1, &back); err != nil {
		t.Fatal(err)
	}
	if Checksum(&back) != Checksum(&s) || bytesOf(&back)[1] != 0x5a {
		t.Error("Save/Load dropped blank bytes")
	}
}

// TestSlotMatchesModulo checks fastmod against the % operator.
func TestSlotMatchesModulo(t *testing.T) {
	g := uint64(0x9e3779b97f4a7c15)
	next := func() uint64 { g ^= g << 13; g ^= g >> 7; g ^= g << 17; return g }
	caps := []uint64{1, 2, 3, 7, 10, 64, 1000, 1<<31 - 1, 1<<32 - 1}
	for range 50 {
		caps = append(caps, 1+next()%100000, 1+next()%(1<<32-1))
	}
	for _, c := range caps {
		// The slot computation only reads n and m, so a ring without
		// slots tests huge capacities cheaply.
		r := &Ring[struct{}]{n: c, m: ^uint64(0)/c + 1}
		frames := []int32{0, 1, -1, 1<<31 - 1, -1 << 31}
		for range 2000 {
			frames = append(frames, int32(next()))
		}
		for _, f := range frames {
			want := int((uint64(int64(f) + 1<<31)) % c)
			if got := r.mod(f); got != want {
				t.Fatalf("capacity %d: slot(%d) = %d, want %d", c, f, got, want)
			}
		}
	}
}

// TestSaveSlotHint checks that Save's sequential hint puts every frame in
// the slot the modulo gives, over runs of consecutive frames, jumps back
// (rollbacks), repeats and the int32 boundary.
func TestSaveSlotHint(t *testing.T) {
	for _, c := range []int{1, 2, 3, 7, 10} {
		r, err := NewRing[int32](c)
		if err != nil {
			t.Fatal(err)
		}
		var frames []int32
		for f := int32(0); f < 25; f++ {
			frames = append(frames, f)
		}
		frames = append(frames, 20, 21, 22, 22, 23, 5, 6, -3, -2, -1, 0, 1)
		for f := int32(1<<31 - 4); f != -1<<31+4; f++ {
			frames = append(frames, f)
		}
		for _, f := range frames {
			v := f
			r.Save(f, &v)
			p, ok := r.Peek(f)
			want := int((uint64(int64(f) + 1<<31)) % uint64(c))
			if !ok || p != &r.slots[want] || *p != f {
				t.Fatalf("capacity %d: frame %d not in slot %d", c, f, want)
			}
			for _, g := range []int32{f - int32(c) - 1, f - int32(c), f - 1, f, f + 1, f + 2, 1<<31 - 1, -1 << 31, 0} {
				if got, want := r.slot(g), r.mod(g); got != want {
					t.Fatalf("capacity %d after saving %d: slot(%d) = %d, mod = %d", c, f, g, got, want)
				}
			}
		}
	}
}

// mRand has the shape of state.Rand (two uint32 words), which a game
// state embeds.
type mRand struct {
	lo, hi uint32
}

var _ = mRand{lo: 1, hi: 2}
