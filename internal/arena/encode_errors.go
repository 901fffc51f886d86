package arena

import (
	"errors"
	"fmt"
	"strings"
)

// ErrInvalidSnapshot is matched (with errors.Is) by every error Decode and
// DiffBytes return for bytes that are not a valid snapshot of the type.
var ErrInvalidSnapshot = errors.New("state: invalid snapshot")

// snapshotError gives every decode error the same Is method.
type snapshotError struct{}

// Is reports whether target is ErrInvalidSnapshot.
func (snapshotError) Is(target error) bool { return target == ErrInvalidSnapshot }

// TruncatedError reports a snapshot shorter than its header or than the
// length the header announces.
type TruncatedError struct {
	snapshotError
	Need, Have int // bytes needed and present
}

// Error implements error.
func (e *TruncatedError) Error() string {
	return fmt.Sprintf("state: snapshot truncated: need %d bytes, have %d", e.Need, e.Have)
}

// MagicError reports bytes that do not start like a snapshot.
type MagicError struct {
	snapshotError
	Got [4]byte
}

// Error implements error.
func (e *MagicError) Error() string {
	return fmt.Sprintf("state: not a state snapshot: magic %q, want %q", e.Got[:], magic[:])
}

// VersionError reports a snapshot written in another format version.
type VersionError struct {
	snapshotError
	Got, Want uint32
}

// Error implements error.
func (e *VersionError) Error() string {
	return fmt.Sprintf("state: snapshot format version %d, want %d", e.Got, e.Want)
}

// FingerprintError reports a snapshot of a type whose layout differs from
// the one being decoded: another type, or another version of the game.
type FingerprintError struct {
	snapshotError
	Got, Want uint64
	Type      string // the type being decoded into
}

// Error implements error.
func (e *FingerprintError) Error() string {
	return fmt.Sprintf("state: snapshot layout fingerprint %#016x does not match %s (%#016x)", e.Got, e.Type, e.Want)
}

// LengthError reports a header whose length field differs from the size of
// the type.
type LengthError struct {
	snapshotError
	Got  uint64 // the length in the header
	Want int    // the size of the type
}

// Error implements error.
func (e *LengthError) Error() string {
	return fmt.Sprintf("state: snapshot length %d, want %d", e.Got, e.Want)
}

// TrailingError reports bytes after the state.
type TrailingError struct {
	snapshotError
	Extra int
}

// Error implements error.
func (e *TrailingError) Error() string {
	return fmt.Sprintf("state: snapshot has %d bytes after the state", e.Extra)
}

// BoolError reports a bool field whose byte is neither 0 nor 1.
type BoolError struct {
	snapshotError
	Path   string // the field, such as "Units[3].Live"
	Offset int    // its offset in the state
	Value  byte
}

// Error implements error.
func (e *BoolError) Error() string {
	return fmt.Sprintf("state: snapshot field %s (offset %d) is bool but holds %#02x", e.Path, e.Offset, e.Value)
}

// SnapshotError says which of the two snapshots given to DiffBytes was
// invalid. It unwraps to the decode error and matches ErrInvalidSnapshot.
type SnapshotError struct {
	Which string // "a" or "b"
	Err   error
}

// Error implements error.
func (e *SnapshotError) Error() string {
	return "state: snapshot " + e.Which + ": " + strings.TrimPrefix(e.Err.Error(), "state: ")
}

// Unwrap returns the decode error.
func (e *SnapshotError) Unwrap() error { return e.Err }
