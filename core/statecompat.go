package core

import (
	"github.com/rollstep/rollstep/state"
	"github.com/zeebo/xxh3"
)

// This file is the engine's only contact with package state.

// snapRing is the ring of saved states.
type snapRing[S any] = state.Ring[S]

func newSnapRing[S any](n int) (*snapRing[S], error) { return state.NewRing[S](n) }

func checksumOf[S any](s *S) uint64 { return state.Checksum(s) }

func sizeOf[S any]() int { return state.Size[S]() }

// rawOf appends the canonical bytes of *s to dst.
func rawOf[S any](s *S, dst []byte) []byte { return state.AppendRaw(dst, s) }

// hashOf is the hash of a block of canonical bytes, the one state.Checksum
// and state.BlockHashes use.
func hashOf(b []byte) uint64 { return xxh3.Hash(b) }

func fieldAtOf[S any](off int) (string, bool) { return state.FieldAt[S](off) }

// diffPathsOf names at most max fields that differ between a and b.
func diffPathsOf[S any](a, b *S, max int) []string {
	d, _ := state.DiffLimit(a, b, max)
	paths := make([]string, len(d))
	for i, f := range d {
		paths[i] = f.Path
	}
	return paths
}

// validateTypes checks that S and I are arena-serializable.
func validateTypes[S any, I comparable]() error {
	if err := state.Validate[S](); err != nil {
		return err
	}
	return state.Validate[I]()
}
