package arena_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/rollstep/rollstep/internal/arena"
)

// fuzzSeeds returns valid encodings and near misses for the seed corpus.
func fuzzSeeds() [][]byte {
	var seeds [][]byte
	for s := range uint64(4) {
		seeds = append(seeds, encodeWorld(s))
	}
	good := encodeWorld(9)
	seeds = append(seeds, nil, good[:arena.HeaderSize], good[:len(good)-1], append(slicesClone(good), 0))
	bad := slicesClone(good)
	bad[arena.HeaderSize+8+3] = 2 // an invalid bool
	return append(seeds, bad)
}

// FuzzDecode asserts that Decode never panics, that it either fails with a
// snapshot error and leaves the destination alone or succeeds on exactly
// HeaderSize+Size bytes, and that a success re-encodes to the same bytes.
func FuzzDecode(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var w okWorld
		fillWorld(&w, 1)
		before := w
		err := arena.Decode(b, &w)
		if err != nil {
			if !errors.Is(err, arena.ErrInvalidSnapshot) {
				t.Fatalf("Decode error %v does not match ErrInvalidSnapshot", err)
			}
			if w != before {
				t.Fatal("Decode changed the destination on error")
			}
			return
		}
		if len(b) != arena.HeaderSize+arena.Size[okWorld]() {
			t.Fatalf("Decode accepted %d bytes", len(b))
		}
		if again := arena.Encode(nil, &w); !bytes.Equal(again, b) {
			t.Fatal("Encode(Decode(b)) != b")
		}
	})
}

// FuzzDiffBytes asserts that DiffBytes never panics, that it reports no
// field exactly when two valid snapshots are equal, and that its paths are
// the ones FieldAt gives for their offsets.
func FuzzDiffBytes(f *testing.F) {
	seeds := fuzzSeeds()
	for i, s := range seeds {
		f.Add(s, seeds[(i+1)%len(seeds)])
	}
	l, err := arena.LayoutOf[okWorld]()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		d, err := arena.DiffBytes(l, a, b)
		if err != nil {
			if !errors.Is(err, arena.ErrInvalidSnapshot) {
				t.Fatalf("DiffBytes error %v does not match ErrInvalidSnapshot", err)
			}
			return
		}
		if (len(d) == 0) != bytes.Equal(a, b) {
			t.Fatalf("DiffBytes reported %d fields for snapshots equal=%v", len(d), bytes.Equal(a, b))
		}
		for _, fd := range d {
			if p, ok := l.FieldAt(fd.Offset); !ok || p != fd.Path {
				t.Fatalf("DiffBytes path %q at offset %d, FieldAt says %q", fd.Path, fd.Offset, p)
			}
		}
	})
}
