package engine

import (
	"strconv"
	"strings"

	"github.com/rollstep/rollstep/internal/arena"
	"github.com/zeebo/xxh3"
)

// This file is the engine's only contact with package state.

// snapRing is the ring of saved states.
type snapRing[S any] = arena.Ring[S]

func newSnapRing[S any](n int) (*snapRing[S], error) { return arena.NewRing[S](n) }

func checksumOf[S any](s *S) uint64 { return arena.Checksum(s) }

func sizeOf[S any]() int { return arena.Size[S]() }

// rawOf appends the canonical bytes of *s to dst.
func rawOf[S any](s *S, dst []byte) []byte { return arena.AppendRaw(dst, s) }

// hashOf is the hash of a block of canonical bytes, the one state.Checksum
// and state.BlockHashes use.
func hashOf(b []byte) uint64 { return xxh3.Hash(b) }

// fieldAtOf names the field of a world at byte off as the game knows it
// (see gamePath).
func fieldAtOf[W any](off int) (string, bool) {
	p, ok := arena.FieldAt[W](off)
	return gamePath(p), ok
}

// gamePath turns the path of a field of a world into the path the game
// knows: a field of its state without the world's "Game." prefix, and
// the control state's fields as "match.Paused" and so on.
func gamePath(p string) string {
	if rest, ok := strings.CutPrefix(p, "Game."); ok {
		return rest
	}
	if rest, ok := strings.CutPrefix(p, "Game"); ok && strings.HasPrefix(rest, "[") {
		return rest // an element of a state that is an array
	}
	if rest, ok := strings.CutPrefix(p, "Match."); ok {
		return "match." + rest
	}
	return p
}

// diffPathsOf names at most max fields that differ between a and b.
func diffPathsOf[W any](a, b *W, max int) []string {
	d, _ := arena.DiffLimit(a, b, max)
	paths := make([]string, len(d))
	for i, f := range d {
		paths[i] = gamePath(f.Path)
	}
	return paths
}

// validateTypes checks that S and I are arena-serializable, and so the
// world and slot the engine makes of them.
func validateTypes[S any, I comparable]() error {
	if err := arena.Validate[S](); err != nil {
		return err
	}
	if err := arena.Validate[I](); err != nil {
		return err
	}
	if err := arena.Validate[world[S]](); err != nil {
		return err
	}
	if err := arena.Validate[Slot[I]](); err != nil {
		return err
	}
	if n := arena.Size[I](); n > MaxInputSize-controlSize {
		return &ConfigError{Field: "input", Reason: "type of " + strconv.Itoa(n) + " bytes is over " +
			strconv.Itoa(MaxInputSize-controlSize) + ": MaxInputSize less the control word every input travels with"}
	}
	return nil
}
