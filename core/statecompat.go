package core

import "github.com/rollstep/rollstep/state"

// This file is the engine's only contact with package state.

// snapRing is the ring of saved states.
type snapRing[S any] = state.Ring[S]

func newSnapRing[S any](n int) (*snapRing[S], error) { return state.NewRing[S](n) }

func checksumOf[S any](s *S) uint64 { return state.Checksum(s) }

func sizeOf[S any]() int { return state.Size[S]() }

func blockHashesOf[S any](s *S, bs int, dst []uint64) []uint64 {
	return state.BlockHashes(s, bs, dst)
}

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
