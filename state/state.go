package state

import "github.com/rollstep/rollstep/internal/arena"

// Validate reports whether S is arena-serializable (see the package
// documentation), as a *ValidationError naming the first field at fault
// and how to fix it, or nil. Results are cached per type. A session
// validates its state and input types itself; call Validate in a game's
// own test to get the message early.
func Validate[S any]() error { return arena.Validate[S]() }

// ValidationError explains why a type is not arena-serializable. Its
// fields are Type (the type validated), Path (the offending field, such as
// "Units[].Pos"; empty when the type itself is at fault), Reason (what is
// wrong) and Fix (how to repair the type). It matches ErrNotSerializable.
type ValidationError = arena.ValidationError

// ErrNotSerializable matches (with errors.Is) every *ValidationError.
var ErrNotSerializable = arena.ErrNotSerializable

// Checksum returns the 64-bit xxh3 hash of *s's memory: equal states have
// equal checksums on every target. It does not validate S (it runs every
// frame); Validate once at start-up.
func Checksum[S any](s *S) uint64 { return arena.Checksum(s) }

// Encode appends the canonical encoding of *s to dst and returns the
// extended slice: a 24-byte header (format, the layout's fingerprint, the
// length) and the state's bytes, identical on every target. It panics with
// the *ValidationError if S is not arena-serializable; Validate first.
func Encode[S any](dst []byte, s *S) []byte { return arena.Encode(dst, s) }

// Decode sets *s from b, which must hold exactly one encoding of a state of
// type S. It returns the *ValidationError if S is not arena-serializable,
// and an error matching ErrInvalidSnapshot when b is not such an encoding
// (truncated, another format or type, trailing bytes, a bool byte other
// than 0 or 1); *s is then unchanged. It never panics.
func Decode[S any](b []byte, s *S) error { return arena.Decode(b, s) }

// ErrInvalidSnapshot matches every error Decode returns for bytes that are
// not an encoding of the state's type.
var ErrInvalidSnapshot = arena.ErrInvalidSnapshot

// FieldDiff is one leaf field whose value differs between two states. Its
// fields are Path (such as "Units[17].Pos.X"), A and B (the field's values
// in the first and second state, as text: fixed.F in decimal, integers in
// decimal, bools as true or false, short byte arrays in hex) and Offset
// (the field's byte offset in the state).
type FieldDiff = arena.FieldDiff

// Diff returns every leaf field whose value differs between *a and *b, in
// field order; nil for equal states. It allocates only for what it
// reports. It panics with the *ValidationError if S is not
// arena-serializable.
func Diff[S any](a, b *S) []FieldDiff { return arena.Diff(a, b) }
