package arena_test

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/rollstep/rollstep/fixed"
	"github.com/rollstep/rollstep/internal/arena"
)

type diffUnit struct {
	Pos  fixed.Vec2
	Kind uint8
	Live bool
	Tag  [6]byte
}

type diffWorld struct {
	Tick  int32
	Delta int16
	Small int8
	_     [1]byte
	Units [3]diffUnit
	Big   [80]byte
	Score [2]uint64
	Speed float64
}

func TestDiffFormats(t *testing.T) {
	var a, b diffWorld
	a.Tick, b.Tick = 60, 61
	a.Delta, b.Delta = -3, 3
	a.Small, b.Small = -128, 127
	a.Units[1].Pos.X, b.Units[1].Pos.X = fixed.FromRatio(3, 2), fixed.FromInt(-2)
	a.Units[1].Pos.Y, b.Units[1].Pos.Y = fixed.FromRaw(1), fixed.FromRaw(2)
	b.Units[2].Live = true
	a.Units[2].Tag, b.Units[2].Tag = [6]byte{0xde, 0xad}, [6]byte{0xbe, 0xef, 1}
	b.Big[70] = 0xff
	a.Score[1], b.Score[1] = math.MaxUint64, 0
	a.Speed, b.Speed = 0.1, math.Inf(-1)
	got := arena.Diff(&a, &b)
	want := []arena.FieldDiff{
		{Path: "Tick", A: "60", B: "61", Offset: 0},
		{Path: "Delta", A: "-3", B: "3", Offset: 4},
		{Path: "Small", A: "-128", B: "127", Offset: 6},
		{Path: "Units[1].Pos.X", A: "1.5", B: "-2", Offset: 8 + 24},
		{Path: "Units[1].Pos.Y", A: fixed.FromRaw(1).String(), B: fixed.FromRaw(2).String(), Offset: 8 + 24 + 8},
		{Path: "Units[2].Live", A: "false", B: "true", Offset: 8 + 48 + 17},
		{Path: "Units[2].Tag", A: "0xdead00000000", B: "0xbeef01000000", Offset: 8 + 48 + 18},
		{Path: "Big[70]", A: "0", B: "255", Offset: 80 + 70},
		{Path: "Score[1]", A: "18446744073709551615", B: "0", Offset: 160 + 8},
		{Path: "Speed", A: "0.1", B: "-Inf", Offset: 176},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Diff:\n got %v\nwant %v", got, want)
	}
	if d := arena.Diff(&a, &a); d != nil {
		t.Errorf("Diff of equal states = %v, want nil", d)
	}
	if got[0].String() != "Tick: 60 != 61" {
		t.Errorf("FieldDiff.String() = %q", got[0].String())
	}
}

func TestDiffNaNBits(t *testing.T) {
	var a, b diffWorld
	a.Speed = math.Float64frombits(0x7ff8000000000001)
	b.Speed = math.Float64frombits(0x7ff8000000000002)
	got := arena.Diff(&a, &b)
	if len(got) != 1 || got[0].A != "NaN (0x010000000000f87f)" || got[0].B != "NaN (0x020000000000f87f)" {
		t.Errorf("Diff of two NaNs = %v", got)
	}
}

// leaves lists every leaf of okWorld in field order with a mutator that
// changes it, except the Rng state (unexported).
func leaves() (paths []string, mutate []func(*okWorld)) {
	add := func(p string, f func(*okWorld)) { paths = append(paths, p); mutate = append(mutate, f) }
	add("Tick", func(w *okWorld) { w.Tick ^= 1 << 30 })
	for i := range 8 {
		u := func(w *okWorld) *okUnit { return &w.Units[i] }
		add(fmt.Sprintf("Units[%d].ID", i), func(w *okWorld) { u(w).ID++ })
		add(fmt.Sprintf("Units[%d].Kind", i), func(w *okWorld) { u(w).Kind ^= 0x80 })
		add(fmt.Sprintf("Units[%d].Live", i), func(w *okWorld) { u(w).Live = !u(w).Live })
		add(fmt.Sprintf("Units[%d].HP", i), func(w *okWorld) { u(w).HP-- })
		add(fmt.Sprintf("Units[%d].X", i), func(w *okWorld) { u(w).X ^= 1 << 62 })
		add(fmt.Sprintf("Units[%d].Y", i), func(w *okWorld) { u(w).Y ^= 1 })
	}
	for i := range 100 {
		add(fmt.Sprintf("Grid[%d]", i), func(w *okWorld) { w.Grid[i] ^= 0x11 })
	}
	for i := range 4 {
		add(fmt.Sprintf("Flags[%d]", i), func(w *okWorld) { w.Flags[i] = !w.Flags[i] })
	}
	return paths, mutate
}

func TestDiffFindsExactlyTheMutatedFields(t *testing.T) {
	paths, mutate := leaves()
	g := splitmix64(2026)
	for round := range 300 {
		var a okWorld
		fillWorld(&a, g.next())
		b := a
		var want []string
		for i := range paths {
			if g.next()%16 == 0 {
				mutate[i](&b)
				want = append(want, paths[i])
			}
		}
		var got []string
		for _, d := range arena.Diff(&a, &b) {
			got = append(got, d.Path)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: Diff paths\n got %v\nwant %v", round, got, want)
		}
		// DiffBytes over the encodings agrees with Diff.
		l, _ := arena.LayoutOf[okWorld]()
		db, err := arena.DiffBytes(l, arena.Encode(nil, &a), arena.Encode(nil, &b))
		if err != nil || !reflect.DeepEqual(db, arena.Diff(&a, &b)) {
			t.Fatalf("round %d: DiffBytes = %v, %v; want Diff's result", round, db, err)
		}
	}
}

// TestFieldAtMatchesDiff flips each byte of a state in turn: Diff must report
// exactly one field, the one FieldAt names for that offset.
func TestFieldAtMatchesDiff(t *testing.T) {
	var a okWorld
	fillWorld(&a, 4)
	l, err := arena.LayoutOf[okWorld]()
	if err != nil {
		t.Fatal(err)
	}
	b := arena.Encode(nil, &a)
	for off := range arena.Size[okWorld]() {
		c := slicesClone(b)
		c[arena.HeaderSize+off] ^= 0x40
		d, err := arena.DiffBytes(l, b, c)
		if err != nil {
			t.Fatal(err)
		}
		path, ok := arena.FieldAt[okWorld](off)
		if !ok || len(d) != 1 || d[0].Path != path || d[0].Offset > off {
			t.Fatalf("offset %d: FieldAt = %q, %v; Diff = %v", off, path, ok, d)
		}
	}
}

func slicesClone(b []byte) []byte { return append([]byte(nil), b...) }

func TestFieldAt(t *testing.T) {
	tests := []struct {
		off  int
		want string
		ok   bool
	}{
		{0, "Tick", true},
		{3, "Tick", true},
		{4, "_", true},
		{8, "Units[0].ID", true},
		{8 + 24*7 + 23, "Units[7].Y", true},
		{8 + 24*8, "Rng.lo", true},
		{8 + 24*8 + 4, "Rng.hi", true},
		{8 + 24*8 + 8 + 99, "Grid[99]", true},
		{8 + 24*8 + 8 + 100 + 3, "Flags[3]", true},
		{8 + 24*8 + 8 + 100 + 4, "", false},
		{-1, "", false},
	}
	for _, tt := range tests {
		got, ok := arena.FieldAt[okWorld](tt.off)
		if got != tt.want || ok != tt.ok {
			t.Errorf("FieldAt(%d) = %q, %v; want %q, %v", tt.off, got, ok, tt.want, tt.ok)
		}
	}
	// Short byte arrays are one leaf; a leaf state has the empty path.
	if got, _ := arena.FieldAt[diffWorld](8 + 48 + 20); got != "Units[2].Tag" {
		t.Errorf("FieldAt(inside Tag) = %q", got)
	}
	if got, ok := arena.FieldAt[int64](5); got != "" || !ok {
		t.Errorf("FieldAt[int64](5) = %q, %v", got, ok)
	}
}

func TestDiffLimit(t *testing.T) {
	var a, b okWorld
	for i := range b.Grid {
		b.Grid[i] = 1
	}
	d, more := arena.DiffLimit(&a, &b, 10)
	if len(d) != 10 || !more || d[9].Path != "Grid[9]" {
		t.Errorf("DiffLimit(10) = %d fields, more %v", len(d), more)
	}
	d, more = arena.DiffLimit(&a, &b, 100)
	if len(d) != 100 || more {
		t.Errorf("DiffLimit(100) = %d fields, more %v", len(d), more)
	}
	if d := arena.Diff(&a, &b); len(d) != 100 {
		t.Errorf("Diff = %d fields, want 100", len(d))
	}
}

func TestDiffBytesErrors(t *testing.T) {
	l, _ := arena.LayoutOf[okWorld]()
	good := encodeWorld(1)
	_, err := arena.DiffBytes(l, good, good[:30])
	want := fmt.Sprintf("state: snapshot b: snapshot truncated: need %d bytes, have 30", len(good))
	if err == nil || err.Error() != want {
		t.Errorf("DiffBytes(good, short) = %v, want %s", err, want)
	}
	if !errors.Is(err, arena.ErrInvalidSnapshot) || !isErr[*arena.TruncatedError](err) {
		t.Errorf("DiffBytes error %v does not match ErrInvalidSnapshot and *TruncatedError", err)
	}
	_, err = arena.DiffBytes(l, arena.Encode(nil, &okWorldRenamed{}), good)
	if !isErr[*arena.FingerprintError](err) {
		t.Errorf("DiffBytes(renamed, good) = %v, want *FingerprintError", err)
	}
}

func TestDiffInvalidBoolShown(t *testing.T) {
	l, _ := arena.LayoutOf[okWorld]()
	a := encodeWorld(1)
	b := slicesClone(a)
	a[arena.HeaderSize+8+3] = 7 // Units[0].Live
	d, err := arena.DiffBytes(l, a, b)
	if err != nil || len(d) != 1 || d[0].A != "invalid bool 0x07" {
		t.Errorf("DiffBytes = %v, %v", d, err)
	}
}

type allKinds struct {
	B   bool
	I8  int8
	U8  uint8
	_   [1]byte
	I16 int16
	U16 uint16
	I32 int32
	U32 uint32
	F32 float32
	C64 complex64
	_   [4]byte
	I64 int64
	U64 uint64
	F   fixed.F
	F64 float64
	C   complex128
	Hex [3]byte
	I8s [2]int8
	_   [3]byte
}

func TestDiffEveryKind(t *testing.T) {
	if err := arena.ValidateWith[allKinds](arena.ValidateOptions{AllowFloats: true}); err != nil {
		t.Fatal(err)
	}
	a := allKinds{}
	b := allKinds{
		B: true, I8: -8, U8: 200, I16: -16, U16: 65535, I32: -32, U32: 4000000000,
		F32: 1.5, C64: complex(1, -2), I64: -1 << 63, U64: 1 << 63, F: fixed.FromRatio(-1, 4),
		F64: math.Copysign(0, -1), C: complex(0.5, 3), Hex: [3]byte{1, 0xab, 0xff}, I8s: [2]int8{0, -1},
	}
	var got []string
	for _, d := range arena.Diff(&a, &b) {
		got = append(got, d.String())
	}
	want := []string{
		"B: false != true", "I8: 0 != -8", "U8: 0 != 200", "I16: 0 != -16", "U16: 0 != 65535",
		"I32: 0 != -32", "U32: 0 != 4000000000", "F32: 0 != 1.5", "C64: (0+0i) != (1-2i)",
		"I64: 0 != -9223372036854775808", "U64: 0 != 9223372036854775808", "F: 0 != -0.25",
		"F64: 0 != -0", "C: (0+0i) != (0.5+3i)", "Hex: 0x000000 != 0x01abff", "I8s[1]: 0 != -1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Diff:\n got %q\nwant %q", got, want)
	}
	// -0.0 is a Go constant 0 with positive sign, so F64 did not differ;
	// a real negative zero prints with its sign.
	b = a
	b.F64 = math.Copysign(0, -1)
	if d := arena.Diff(&a, &b); len(d) != 1 || d[0].B != "-0" {
		t.Errorf("Diff of -0 = %v", d)
	}
}

func TestBlockHashesDefaultSize(t *testing.T) {
	s := new([3*arena.DefaultBlockSize + 1]byte)
	s[2*arena.DefaultBlockSize] = 1
	h := arena.BlockHashes(s, 0, nil)
	if len(h) != 4 {
		t.Fatalf("len = %d, want 4", len(h))
	}
	if h[0] != h[1] || h[1] == h[2] {
		t.Errorf("block hashes %x do not single out block 2", h)
	}
	if got, _ := arena.FieldAt[[3*arena.DefaultBlockSize + 1]byte](2 * arena.DefaultBlockSize); got != "[8192]" {
		t.Errorf("FieldAt = %q, want [8192]", got)
	}
}
