// Package state makes a game's state cheap to save, load, hash and compare.
//
// A rollstep game keeps its whole simulation state in one Go value of a
// type S. If S is arena-serializable — a block of plain bytes whose meaning
// does not depend on the machine — then saving a frame is one memory copy,
// loading it back is another, a checksum is a hash of the memory, and two
// peers that disagree can be told which field differs. The session does
// all of that itself; this package says which types qualify and gives a
// game the same operations for its own tools and tests.
//
// # Arena-serializable types
//
// Validate[S] accepts a type when all of these hold:
//
//   - Every field is a bool, a sized integer (int8 … int64, uint8 …
//     uint64), fixed.F or another named integer type, an array of such
//     fields, or a struct of them. Rand qualifies.
//   - No pointers, slices, maps, strings, interfaces, channels, funcs or
//     unsafe.Pointer: they refer to memory outside the state, which a copy
//     does not carry and another machine does not have.
//   - No int, uint or uintptr: their size differs between 32- and 64-bit
//     targets.
//   - No float32, float64, complex64 or complex128: floating point steps
//     are not reproducible across targets (use package fixed).
//   - No types from sync or sync/atomic.
//   - No implicit padding on any target: the compiler's padding bytes
//     belong to no field and would make two equal states hash differently.
//     Spell it out as a blank field (`_ [4]byte`), which stays zero.
//
// The error names the first violation in field order with its path, and a
// fix:
//
//	state: game.World is not arena-serializable: field Units[].HP is int: its size differs between 386 and amd64; use int32 or int64
//
// A type with no implicit padding has the same size and offsets on every
// target, so its memory is its canonical encoding on every little-endian
// target (big-endian targets are refused). Checksum hashes that memory
// (xxh3-64), Encode writes it with a header that names the type's layout,
// Decode checks it, and Diff names the fields where two states differ:
// what a desync report shows.
//
// # Randomness
//
// Rand is the only randomness allowed in a simulation step. It is a PCG32
// generator (https://www.pcg-random.org/paper.html) stored in the state, so
// a rollback restores it with everything else; its bounded methods use
// Lemire's multiply-and-reject method (https://arxiv.org/abs/1805.10941),
// which has no modulo bias.
//
// Nothing in this package starts a goroutine, blocks or allocates on a
// per-frame path.
package state
