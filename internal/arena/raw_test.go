package arena_test

import (
	"errors"
	"testing"

	"github.com/rollstep/rollstep/internal/arena"
)

type rawInput struct {
	Buttons uint16
	Held    bool
	_       uint8
	X, Y    int16
}

func TestRawRoundTrip(t *testing.T) {
	in := rawInput{Buttons: 0x1234, Held: true, X: -2, Y: 300}
	b := arena.AppendRaw([]byte{0xEE}, &in)
	if got, want := len(b), 1+arena.Size[rawInput](); got != want {
		t.Fatalf("AppendRaw wrote %d bytes, want %d", got, want)
	}
	want := []byte{0xEE, 0x34, 0x12, 1, 0, 0xFE, 0xFF, 0x2C, 0x01}
	if string(b) != string(want) {
		t.Fatalf("AppendRaw = % x, want % x (little-endian, field order)", b, want)
	}
	var out rawInput
	if err := arena.DecodeRaw(b[1:], &out); err != nil {
		t.Fatal(err)
	}
	if out != in {
		t.Errorf("DecodeRaw = %+v, want %+v", out, in)
	}
}

func TestDecodeRawErrors(t *testing.T) {
	good := arena.AppendRaw(nil, &rawInput{X: 1})
	badBool := append([]byte(nil), good...)
	badBool[2] = 7
	for _, tc := range []struct {
		name string
		b    []byte
		want error
	}{
		{"truncated", good[:len(good)-1], &arena.TruncatedError{}},
		{"trailing", append(append([]byte(nil), good...), 0), &arena.TrailingError{}},
		{"bad bool", badBool, &arena.BoolError{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := rawInput{Y: 99}
			err := arena.DecodeRaw(tc.b, &out)
			if !errors.Is(err, arena.ErrInvalidSnapshot) {
				t.Fatalf("DecodeRaw = %v, want an ErrInvalidSnapshot", err)
			}
			if gotT, wantT := typeName(err), typeName(tc.want); gotT != wantT {
				t.Errorf("error type %s, want %s", gotT, wantT)
			}
			if out.Y != 99 {
				t.Errorf("DecodeRaw changed the value on error: %+v", out)
			}
		})
	}
	for n := range len(good) {
		var out rawInput
		if err := arena.DecodeRaw(good[:n], &out); !errors.Is(err, arena.ErrInvalidSnapshot) {
			t.Errorf("prefix of %d bytes: %v, want ErrInvalidSnapshot", n, err)
		}
	}
}

func TestDecodeRawRejectsInvalidType(t *testing.T) {
	var s struct{ P *int }
	if err := arena.DecodeRaw([]byte{}, &s); !errors.Is(err, arena.ErrNotSerializable) {
		t.Errorf("DecodeRaw of a pointer type = %v, want ErrNotSerializable", err)
	}
}

func TestRawAllocs(t *testing.T) {
	in := rawInput{X: 5}
	buf := make([]byte, 0, 64)
	var out rawInput
	if n := testing.AllocsPerRun(100, func() {
		b := arena.AppendRaw(buf[:0], &in)
		_ = arena.DecodeRaw(b, &out)
	}); n != 0 {
		t.Errorf("AppendRaw+DecodeRaw allocate %v times, want 0", n)
	}
}

func typeName(err error) string {
	switch err.(type) {
	case *arena.TruncatedError:
		return "TruncatedError"
	case *arena.TrailingError:
		return "TrailingError"
	case *arena.BoolError:
		return "BoolError"
	}
	return "other"
}

// TestRawMatchesFunctions checks that a Raw encodes and decodes as
// AppendRaw and DecodeRaw do, errors included, and refuses a type that
// is not serializable when it is made.
func TestRawMatchesFunctions(t *testing.T) {
	r, err := arena.RawOf[rawInput]()
	if err != nil {
		t.Fatal(err)
	}
	in := rawInput{Buttons: 7, Held: true, X: -9, Y: 1}
	b := r.Append([]byte{1}, &in)
	if want := arena.AppendRaw([]byte{1}, &in); string(b) != string(want) {
		t.Fatalf("Append = % x, AppendRaw = % x", b, want)
	}
	var out rawInput
	if err := r.Decode(b[1:], &out); err != nil || out != in {
		t.Fatalf("Decode = %+v, %v; want %+v", out, err, in)
	}
	bad := append([]byte(nil), b[1:]...)
	bad[2] = 2 // the bool
	for _, p := range [][]byte{bad, b[1:4], b} {
		e1, e2 := r.Decode(p, &out), arena.DecodeRaw(p, &out)
		if e1 == nil || e2 == nil || e1.Error() != e2.Error() {
			t.Errorf("% x: Decode %v, DecodeRaw %v", p, e1, e2)
		}
	}
	if _, err := arena.RawOf[struct{ P *int }](); !errors.Is(err, arena.ErrNotSerializable) {
		t.Errorf("RawOf a pointer type = %v, want ErrNotSerializable", err)
	}
}
