package arena_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"github.com/rollstep/rollstep/internal/arena"
	"github.com/rollstep/rollstep/state"
)

// okWorldRenamed has okWorld's layout but one field renamed, so its
// fingerprint differs.
type okWorldRenamed struct {
	Turn  int32
	_     [4]byte
	Units [8]okUnit
	Rng   state.Rand
	Grid  [100]uint8
	Flags [4]bool
}

func encodeWorld(seed uint64) []byte {
	var w okWorld
	fillWorld(&w, seed)
	return arena.Encode(nil, &w)
}

func TestEncodeHeader(t *testing.T) {
	b := arena.Encode(nil, goldenWorld())
	if got, want := len(b), arena.HeaderSize+arena.Size[okWorld](); got != want {
		t.Fatalf("len(Encode) = %d, want %d", got, want)
	}
	want := []byte("rsst")
	want = binary.LittleEndian.AppendUint32(want, arena.FormatVersion)
	want = binary.LittleEndian.AppendUint64(want, goldenFingerprint)
	want = binary.LittleEndian.AppendUint64(want, uint64(arena.Size[okWorld]()))
	if !bytes.Equal(b[:arena.HeaderSize], want) {
		t.Errorf("header = %x, want %x", b[:arena.HeaderSize], want)
	}
	// The body is the canonical bytes, which is what Checksum hashes.
	var w okWorld
	if err := arena.Decode(b, &w); err != nil {
		t.Fatal(err)
	}
	if arena.Checksum(&w) != goldenChecksum {
		t.Errorf("Checksum(Decode(Encode(golden))) = %#x, want %#x", arena.Checksum(&w), uint64(goldenChecksum))
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	g := splitmix64(77)
	buf := make([]byte, 0, arena.HeaderSize+arena.Size[okWorld]())
	for i := range 200 {
		var w, got okWorld
		fillWorld(&w, g.next())
		buf = arena.Encode(buf[:0], &w)
		if err := arena.Decode(buf, &got); err != nil {
			t.Fatalf("state %d: Decode: %v", i, err)
		}
		if got != w {
			t.Fatalf("state %d: Decode(Encode(w)) != w", i)
		}
		if again := arena.Encode(nil, &got); !bytes.Equal(again, buf) {
			t.Fatalf("state %d: encoding is not canonical", i)
		}
	}
}

func TestEncodeAppends(t *testing.T) {
	var w okWorld
	fillWorld(&w, 3)
	prefix := []byte("prefix")
	b := arena.Encode(prefix, &w)
	if !bytes.HasPrefix(b, []byte("prefix")) || len(b) != len(prefix)+arena.HeaderSize+arena.Size[okWorld]() {
		t.Error("Encode did not append to dst")
	}
}

func TestDecodeErrors(t *testing.T) {
	good := encodeWorld(5)
	size := arena.Size[okWorld]()
	mut := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	// Offset of Units[2].Live: 8 + 2*24 + 3.
	const liveOff = arena.HeaderSize + 8 + 2*24 + 3
	tests := []struct {
		name string
		b    []byte
		want string
		as   func(error) bool
	}{
		{"empty", nil, "state: snapshot truncated: need 24 bytes, have 0", isErr[*arena.TruncatedError]},
		{"short header", good[:23], "state: snapshot truncated: need 24 bytes, have 23", isErr[*arena.TruncatedError]},
		{"short body", good[:len(good)-1], fmt.Sprintf("state: snapshot truncated: need %d bytes, have %d", len(good), len(good)-1), isErr[*arena.TruncatedError]},
		{"magic", mut(func(b []byte) []byte { b[0] = 'x'; return b }), `state: not a state snapshot: magic "xsst", want "rsst"`, isErr[*arena.MagicError]},
		{"version", mut(func(b []byte) []byte { b[4] = 2; return b }), "state: snapshot format version 2, want 1", isErr[*arena.VersionError]},
		{"fingerprint", arena.Encode(nil, &okWorldRenamed{}), fmt.Sprintf("state: snapshot layout fingerprint %#016x does not match arena_test.okWorld (%#016x)", fingerprint[okWorldRenamed](t), uint64(goldenFingerprint)), isErr[*arena.FingerprintError]},
		{"length", mut(func(b []byte) []byte { b[16]++; return b }), fmt.Sprintf("state: snapshot length %d, want %d", size+1, size), isErr[*arena.LengthError]},
		{"trailing", append(bytes.Clone(good), 0, 0), "state: snapshot has 2 bytes after the state", isErr[*arena.TrailingError]},
		{"bool", mut(func(b []byte) []byte { b[liveOff] = 2; return b }), "state: snapshot field Units[2].Live (offset 59) is bool but holds 0x02", isErr[*arena.BoolError]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w okWorld
			fillWorld(&w, 99)
			before := w
			err := arena.Decode(tt.b, &w)
			if err == nil {
				t.Fatal("Decode succeeded")
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("error:\n got %s\nwant %s", got, tt.want)
			}
			if !errors.Is(err, arena.ErrInvalidSnapshot) {
				t.Error("error does not match ErrInvalidSnapshot")
			}
			if !tt.as(err) {
				t.Errorf("error has type %T", err)
			}
			if w != before {
				t.Error("Decode changed the destination on error")
			}
		})
	}
}

func isErr[E error](err error) bool {
	var e E
	return errors.As(err, &e)
}

func fingerprint[S any](t *testing.T) uint64 {
	l, err := arena.LayoutOf[S]()
	if err != nil {
		t.Fatal(err)
	}
	return l.Fingerprint()
}

// TestDecodeTruncatedPrefixes checks every proper prefix of a valid
// encoding.
func TestDecodeTruncatedPrefixes(t *testing.T) {
	good := encodeWorld(11)
	for n := range len(good) {
		var w okWorld
		err := arena.Decode(good[:n], &w)
		var te *arena.TruncatedError
		if !errors.As(err, &te) {
			t.Fatalf("Decode(prefix %d) = %v, want *TruncatedError", n, err)
		}
		if te.Have != n || te.Need <= n {
			t.Fatalf("Decode(prefix %d): %+v", n, te)
		}
		if w != (okWorld{}) {
			t.Fatalf("Decode(prefix %d) wrote the destination", n)
		}
	}
}

func TestDecodeInvalidType(t *testing.T) {
	var w intWorld
	if err := arena.Decode(encodeWorld(1), &w); !errors.Is(err, arena.ErrNotSerializable) {
		t.Errorf("Decode into intWorld = %v, want ErrNotSerializable", err)
	}
}

func TestEncodeInvalidTypePanics(t *testing.T) {
	defer func() {
		r := recover()
		if err, ok := r.(error); !ok || !errors.Is(err, arena.ErrNotSerializable) {
			t.Errorf("recovered %v, want a *ValidationError", r)
		}
	}()
	arena.Encode(nil, &intWorld{})
}

func TestEncodeDecodeAllocs(t *testing.T) {
	var w okWorld
	fillWorld(&w, 1)
	buf := make([]byte, 0, arena.HeaderSize+arena.Size[okWorld]())
	if n := testing.AllocsPerRun(100, func() { buf = arena.Encode(buf[:0], &w) }); n != 0 {
		t.Errorf("Encode allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() {
		if err := arena.Decode(buf, &w); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Decode allocates %v times", n)
	}
}

func TestFloatStatesEncode(t *testing.T) {
	w := floatWorld{Tick: 3, V: 1.25}
	var got floatWorld
	if err := arena.Decode(arena.Encode(nil, &w), &got); err != nil || got != w {
		t.Errorf("round trip of a float state = %v, %v", got, err)
	}
}
