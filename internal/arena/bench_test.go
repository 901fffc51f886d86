package arena_test

import (
	"testing"

	"github.com/rollstep/rollstep/internal/arena"
)

type (
	state1K  [1 << 10]byte
	state64K [64 << 10]byte
	state1M  [1 << 20]byte
)

// BenchmarkStateOps measures Save, Load and Checksum beside a plain copy of
// the same bytes between the same two addresses (the caller's state and the
// ring's slot), in one run, so their ratio can be read off directly and no
// contender gains from alignment or 4 KiB aliasing. The goals: Save and Load
// at least 0.8× the copy throughput, Checksum at least 20 GB/s at 64 KiB.
func BenchmarkStateOps(b *testing.B) {
	b.Run("1KiB", func(b *testing.B) { benchOps(b, func(s *state1K) []byte { return s[:] }) })
	b.Run("64KiB", func(b *testing.B) { benchOps(b, func(s *state64K) []byte { return s[:] }) })
	b.Run("1MiB", func(b *testing.B) { benchOps(b, func(s *state1M) []byte { return s[:] }) })
}

func benchOps[S any](b *testing.B, bytesOf func(*S) []byte) {
	size := int64(arena.Size[S]())
	r, err := arena.NewRing[S](1)
	if err != nil {
		b.Fatal(err)
	}
	// Fill the source: reading untouched zero pages would flatter every
	// contender. The ring has one slot, so Save and Load copy between the
	// same two addresses as the plain copy.
	src := new(S)
	fillBytes(bytesOf(src), 2)
	r.Save(0, src)
	p, _ := r.Peek(0)
	slot, srcBytes := bytesOf(p), bytesOf(src)
	b.Run("copy", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			copy(slot, srcBytes)
		}
	})
	b.Run("Save", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		var f int32
		for b.Loop() {
			r.Save(f, src) // frames in order, as a session saves them
			f++
		}
	})
	b.Run("Load", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		r.Save(0, src)
		for b.Loop() {
			if err := r.Load(0, src); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Checksum", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			arena.Checksum(src)
		}
	})
}

// fillBytes fills p from seed.
func fillBytes(p []byte, seed uint64) {
	g := splitmix64(seed)
	for i := range p {
		p[i] = byte(g.next())
	}
}

func BenchmarkBlockHashes64KiB(b *testing.B) {
	s := new(state64K)
	fillBytes(s[:], 3)
	dst := make([]uint64, 0, 16)
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		dst = arena.BlockHashes(s, 0, dst[:0])
	}
}

func BenchmarkEncodeDecode(b *testing.B) {
	var w okWorld
	fillWorld(&w, 1)
	buf := make([]byte, 0, arena.HeaderSize+arena.Size[okWorld]())
	b.Run("Encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = arena.Encode(buf[:0], &w)
		}
	})
	b.Run("Decode", func(b *testing.B) {
		b.ReportAllocs()
		buf = arena.Encode(buf[:0], &w)
		for b.Loop() {
			if err := arena.Decode(buf, &w); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkDiffOneField(b *testing.B) {
	var x, y okWorld
	fillWorld(&x, 1)
	y = x
	y.Grid[50]++
	b.ReportAllocs()
	for b.Loop() {
		arena.Diff(&x, &y)
	}
}
