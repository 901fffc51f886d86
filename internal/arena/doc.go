// Package arena makes a game's state cheap to save, load, hash and
// compare: it is the implementation behind package state, with the parts
// only the engine, the codec and the replay format use (layouts, the ring
// of saved states, block hashes, raw input encoding).
//
// A rollstep game keeps its whole simulation state in one Go value of a type
// S. If S is arena-serializable — a block of plain bytes whose meaning does
// not depend on the machine — then saving a frame is one memory copy,
// loading it back is another, a checksum is a hash of the memory, and two
// peers that disagree can be told which field differs. This package checks
// that S qualifies, and provides those operations.
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
//   - No int, uint or uintptr: their size differs between 386 and amd64.
//   - No float32, float64, complex64 or complex128, unless the caller opts
//     in with ValidateWith(ValidateOptions{AllowFloats: true}) (tools only;
//     a session never does): floating point steps are not reproducible
//     across targets.
//   - No types from sync or sync/atomic.
//   - No implicit padding on any target (see below).
//
// The error names the first violation in field order with its path, and a
// fix:
//
//	state: game.World is not arena-serializable: field Units[].HP is int: its size differs between 386 and amd64; use int32 or int64
//
// Results are cached per type. Functions that have no error result (Encode,
// AppendRaw, Diff, DiffLimit, FieldAt) panic with the same *ValidationError
// when given an invalid type; Checksum, BlockHashes, Size and Ring's methods do not check at all,
// because they run every frame. Validate once at start-up — NewRing does it.
//
// # Padding
//
// Validate computes the layout of S twice, for the 64-bit targets (amd64,
// arm64, wasm: 8-byte values are 8-aligned) and for the 32-bit targets (386,
// arm: they are 4-aligned), and rejects every byte of implicit padding in
// either layout:
//
//	state: game.World is not arena-serializable: 4 bytes of padding before Units[].Pos on amd64 and 0 on 386; add `_ [4]byte` after Kind in game.Unit, or reorder the fields
//
// Rejecting all padding, not only padding that differs, is deliberate.
// Padding bytes belong to no field: Go never writes them, but whole-value
// copies carry them along, so their contents depend on a value's history,
// and a checksum that hashes memory would see two equal states as
// different. Blank fields (`_ [4]byte`) are the fix: they are zeroed with
// the memory that holds them and no Go code can assign them, so they stay
// zero. They are hashed, encoded and, if unsafe code ever writes them,
// reported by Diff under the name "_". A type with no implicit padding on
// either target has the same size and offsets on both, so one rule gives
// both guarantees, and the memory image is the canonical encoding on every
// little-endian target.
//
// # The host loop
//
// A rollback session uses the package like this:
//
//  1. At start-up, NewRing[S](W+2) validates S and allocates every slot.
//  2. Before stepping frame f, Ring.Save(f, &s) copies the state.
//  3. When a remote input for an earlier frame g differs from the
//     prediction, Ring.Load(g, &s) restores it and the frames from g on are
//     simulated again. Load of a frame the ring no longer holds returns a
//     *FrameNotHeldError.
//  4. For every confirmed frame (every N frames), Checksum(&s) is sent to
//     the peers with the inputs.
//  5. When checksums differ, the peers compare BlockHashes to find the
//     regions that differ, name them with FieldAt, and, if they exchange
//     snapshots (Encode), list every differing field with DiffBytes; a sync
//     test compares two local states with Diff.
//
// Save and Load copy states of 1 MiB or more in chunks of at most 512 KiB:
// the amd64 memmove switches to non-temporal stores at 1 MiB, which makes a
// 1 MiB copy nearly twice as slow and leaves the copy out of the cache
// (BenchmarkChunkedCopy). Save, Load, Checksum and Decode do not allocate.
//
// # Checksums
//
// Checksum is xxh3-64 (https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md)
// of the canonical bytes, with no seed; BlockHashes hashes fixed-size blocks
// the same way. Golden tests pin both on amd64, 32-bit (386 or arm), arm64
// and wasm.
//
// # Snapshots
//
// Encode writes the canonical encoding: a 24-byte header (magic "rsst",
// FormatVersion, the layout fingerprint and the length) followed by the
// state's bytes. The fingerprint hashes every field's name, kind, size and
// offset, so a snapshot of another type or of another version of the game
// is refused. Decode checks the header, the length and every bool byte, and
// returns a typed error matching ErrInvalidSnapshot; it never panics.
// AppendRaw and DecodeRaw are the same without the header, for small values
// such as inputs whose type both sides have already agreed on.
//
// Big-endian targets are unsupported: Validate rejects every type there
// with a *ValidationError, so a session cannot start on one. Byte-swapping
// through the layout table would be possible, but would cost save, load
// and checksum their single-copy speed on platforms no game ships on.
//
// # Randomness
//
// Rand is the only randomness allowed in a simulation step. It is a PCG32
// generator (https://www.pcg-random.org/paper.html) stored in the state, so
// a rollback restores it with everything else; its bounded methods use
// Lemire's multiply-and-reject method (https://arxiv.org/abs/1805.10941),
// which has no modulo bias.
//
// # Concurrency
//
// Nothing in this package starts a goroutine or blocks. A Ring is not safe
// for concurrent use. The per-type validation cache is the one shared
// value: it is a copy-on-write map behind a sync/atomic pointer, so
// sessions in different goroutines may validate concurrently. That is the
// package's only use of sync/atomic, it takes no locks, and it is never
// reached from Save, Load or Checksum.
package arena
