package arena_test

import (
	"errors"
	"io"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/rollstep/rollstep/internal/arena"
	"github.com/rollstep/rollstep/state"
)

type okUnit struct {
	ID   uint16
	Kind uint8
	Live bool
	HP   int32
	X, Y int64
}

type okWorld struct {
	Tick  int32
	_     [4]byte
	Units [8]okUnit
	Rng   state.Rand
	Grid  [100]uint8
	Flags [4]bool
}

type intUnit struct{ HP int }
type intWorld struct {
	Tick  int32
	Units [4]intUnit
}
type uintWorld struct{ N uint }
type uintptrWorld struct{ P uintptr }
type ptrWorld struct{ Next *okUnit }
type unsafePtrWorld struct{ P unsafe.Pointer }
type sliceWorld struct{ Units []int32 }
type mapWorld struct{ ByID map[int32]okUnit }
type stringWorld struct {
	Tick int32
	Name string
}
type ifaceWorld struct{ R io.Reader }
type chanWorld struct{ C chan int32 }
type funcWorld struct{ F func() }
type floatWorld struct {
	Tick int32
	V    float32
}
type complexWorld struct{ C complex64 }
type atomicWorld struct{ N atomic.Int32 }
type padUnit struct {
	Kind int32
	Pos  int64
}
type padWorld struct {
	Tick  int32
	_     [4]byte
	Units [2]padUnit
}
type smallPad struct {
	Kind uint8
	HP   int32
}
type firstPad struct {
	A struct{}
	B uint8
	C uint16
}
type trailPad struct {
	A int64
	B int32
}
type zeroTail struct {
	A int32
	E struct{}
}
type kindsFirst struct {
	A int32
	B int64
	C *int32
}
type floatThenInt struct {
	F float64
	I int
}
type embedded struct {
	okUnit
	Extra int
}

func TestValidate(t *testing.T) {
	const prefix = "state: arena_test."
	tests := []struct {
		name   string
		strict func() error
		loose  func() error
		want   string // strict message; "" means valid
		wantL  string // loose message; "" means valid
		path   string
	}{
		{"valid", arena.Validate[okWorld], floats[okWorld], "", "", ""},
		{"int", arena.Validate[intWorld], floats[intWorld],
			prefix + "intWorld is not arena-serializable: field Units[].HP is int: its size differs between 386 and amd64; use int32 or int64", "=", "Units[].HP"},
		{"uint", arena.Validate[uintWorld], floats[uintWorld],
			prefix + "uintWorld is not arena-serializable: field N is uint: its size differs between 386 and amd64; use uint32 or uint64", "=", "N"},
		{"uintptr", arena.Validate[uintptrWorld], floats[uintptrWorld],
			prefix + "uintptrWorld is not arena-serializable: field P is uintptr: its size differs between 386 and amd64, and an address means nothing on another machine; use uint32 or uint64", "=", "P"},
		{"pointer", arena.Validate[ptrWorld], floats[ptrWorld],
			prefix + "ptrWorld is not arena-serializable: field Next is a pointer (*arena_test.okUnit): an address means nothing after a load or on another machine; store an int32 index into an array held in the state instead", "=", "Next"},
		{"unsafe pointer", arena.Validate[unsafePtrWorld], floats[unsafePtrWorld],
			prefix + "unsafePtrWorld is not arena-serializable: field P is a pointer (unsafe.Pointer): an address means nothing after a load or on another machine; store an int32 index into an array held in the state instead", "=", "P"},
		{"slice", arena.Validate[sliceWorld], floats[sliceWorld],
			prefix + "sliceWorld is not arena-serializable: field Units is a slice ([]int32): its elements live outside the state; use a fixed-size array such as [N]int32 and a count field", "=", "Units"},
		{"map", arena.Validate[mapWorld], floats[mapWorld],
			prefix + "mapWorld is not arena-serializable: field ByID is a map (map[int32]arena_test.okUnit): its entries live outside the state and iterate in random order; use a fixed-size array of key/value pairs kept sorted by key", "=", "ByID"},
		{"string", arena.Validate[stringWorld], floats[stringWorld],
			prefix + "stringWorld is not arena-serializable: field Name is a string (string): its bytes live outside the state; use a fixed-size byte array such as [16]byte, or an int32 index into a table kept outside the state", "=", "Name"},
		{"interface", arena.Validate[ifaceWorld], floats[ifaceWorld],
			prefix + "ifaceWorld is not arena-serializable: field R is an interface (io.Reader): it holds a type word and a pointer; use a kind field and fixed-size fields for each variant", "=", "R"},
		{"chan", arena.Validate[chanWorld], floats[chanWorld],
			prefix + "chanWorld is not arena-serializable: field C is a channel (chan int32): a channel cannot be saved or hashed; keep channels outside the state", "=", "C"},
		{"func", arena.Validate[funcWorld], floats[funcWorld],
			prefix + "funcWorld is not arena-serializable: field F is a func (func()): code cannot be saved or hashed; keep functions outside the state and store a kind index instead", "=", "F"},
		{"float", arena.Validate[floatWorld], floats[floatWorld],
			prefix + "floatWorld is not arena-serializable: field V is float32: floating point results differ between targets (fused multiply-add, math library code paths); use fixed.F", "", "V"},
		{"complex", arena.Validate[complexWorld], floats[complexWorld],
			prefix + "complexWorld is not arena-serializable: field C is complex64: floating point results differ between targets (fused multiply-add, math library code paths); use fixed.F", "", "C"},
		{"atomic", arena.Validate[atomicWorld], floats[atomicWorld],
			prefix + "atomicWorld is not arena-serializable: field N is atomic.Int32: a state is stepped by one goroutine and copied as bytes, and sync/atomic types must not be copied; use a plain field such as int64, and guard the state outside it if you must", "=", "N"},
		{"padding differs", arena.Validate[padWorld], floats[padWorld],
			prefix + "padWorld is not arena-serializable: 4 bytes of padding before Units[].Pos on amd64 and 0 on 386; add `_ [4]byte` after Kind in arena_test.padUnit, or reorder the fields", "=", "Units[].Pos"},
		{"padding same", arena.Validate[smallPad], floats[smallPad],
			prefix + "smallPad is not arena-serializable: 3 bytes of padding before HP on amd64 and 386; add `_ [3]byte` after Kind in arena_test.smallPad, or reorder the fields", "=", "HP"},
		{"padding after zero-size first field", arena.Validate[firstPad], floats[firstPad],
			prefix + "firstPad is not arena-serializable: 1 byte of padding before C on amd64 and 386; add `_ [1]byte` after B in arena_test.firstPad, or reorder the fields", "=", "C"},
		{"trailing padding", arena.Validate[trailPad], floats[trailPad],
			prefix + "trailPad is not arena-serializable: 4 bytes of padding at the end of arena_test.trailPad (after B) on amd64 and 0 on 386; add `_ [4]byte` after B in arena_test.trailPad, or reorder the fields", "=", ""},
		{"zero-size last field", arena.Validate[zeroTail], floats[zeroTail],
			prefix + "zeroTail is not arena-serializable: 4 bytes of padding at the end of arena_test.zeroTail (after E) on amd64 and 386; remove the zero-size field E from arena_test.zeroTail or move it before a field with a size", "=", ""},
		{"kinds before padding", arena.Validate[kindsFirst], floats[kindsFirst],
			prefix + "kindsFirst is not arena-serializable: field C is a pointer (*int32): an address means nothing after a load or on another machine; store an int32 index into an array held in the state instead", "=", "C"},
		{"embedded", arena.Validate[embedded], floats[embedded],
			prefix + "embedded is not arena-serializable: field Extra is int: its size differs between 386 and amd64; use int32 or int64", "=", "Extra"},
		{"root", arena.Validate[int], floats[int],
			"state: int is not arena-serializable: type int is int: its size differs between 386 and amd64; use int32 or int64", "=", ""},
		{"float before int", arena.Validate[floatThenInt], floats[floatThenInt],
			prefix + "floatThenInt is not arena-serializable: field F is float64: floating point results differ between targets (fused multiply-add, math library code paths); use fixed.F",
			prefix + "floatThenInt is not arena-serializable: field I is int: its size differs between 386 and amd64; use int32 or int64", "F"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantL := tt.wantL
			if wantL == "=" {
				wantL = tt.want
			}
			checkValidation(t, "Validate", tt.strict(), tt.want, tt.path)
			checkValidation(t, "ValidateWith(AllowFloats)", tt.loose(), wantL, "")
			// The second call comes from the cache and must agree.
			checkValidation(t, "Validate again", tt.strict(), tt.want, tt.path)
		})
	}
}

func floats[S any]() error { return arena.ValidateWith[S](arena.ValidateOptions{AllowFloats: true}) }

func checkValidation(t *testing.T, what string, err error, want, path string) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Errorf("%s = %v, want nil", what, err)
		}
		return
	}
	if err == nil {
		t.Errorf("%s = nil, want %q", what, want)
		return
	}
	if got := err.Error(); got != want {
		t.Errorf("%s:\n got %s\nwant %s", what, got, want)
	}
	if !errors.Is(err, arena.ErrNotSerializable) {
		t.Errorf("%s: errors.Is(err, ErrNotSerializable) = false", what)
	}
	var ve *arena.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("%s: error is %T, want *ValidationError", what, err)
	}
	if path != "" && ve.Path != path {
		t.Errorf("%s: Path = %q, want %q", what, ve.Path, path)
	}
	if ve.Reason == "" || ve.Fix == "" || ve.Type == nil {
		t.Errorf("%s: incomplete error %#v", what, ve)
	}
}

func TestSizeSameOnEveryTarget(t *testing.T) {
	// okWorld has no implicit padding, so its size is the sum of its fields
	// on every target; CI runs this test on a 32-bit target (386 or arm) too.
	const want = 4 + 4 + 8*24 + 8 + 100 + 4
	if got := arena.Size[okWorld](); got != want {
		t.Errorf("Size[okWorld]() = %d, want %d", got, want)
	}
	l, err := arena.LayoutOf[okWorld]()
	if err != nil {
		t.Fatal(err)
	}
	if l.Size() != want {
		t.Errorf("Layout.Size() = %d, want %d", l.Size(), want)
	}
}

// TestValidateConcurrent exercises the cache from several goroutines; run
// with -race (CI does).
func TestValidateConcurrent(t *testing.T) {
	fs := []func() error{
		arena.Validate[okWorld], arena.Validate[intWorld], arena.Validate[padWorld],
		arena.Validate[trailPad], arena.Validate[smallPad], floats[floatWorld],
	}
	done := make(chan error, 4*len(fs))
	for g := range 4 {
		go func() {
			for i := range fs {
				f := fs[(i+g)%len(fs)]
				first, second := f(), f()
				if (first == nil) != (second == nil) || (first != nil && first.Error() != second.Error()) {
					done <- errors.New("results differ between calls")
					continue
				}
				done <- nil
			}
		}()
	}
	for range 4 * len(fs) {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
