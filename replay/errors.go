package replay

import (
	"errors"
	"fmt"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/state"
)

// Sentinel errors. Every error Open and ReadHeader return for bytes they
// do not accept matches exactly one of them with errors.Is (ReadHeader
// also returns the reader's own errors, and Open a *state.ValidationError
// when S or I is not arena-serializable).
var (
	// ErrTruncated is matched when the bytes end before the replay does.
	// Every proper prefix of a valid replay gets this error from Open and
	// ReadHeader; the message gives the bytes needed and present.
	ErrTruncated = errors.New("replay: truncated")
	// ErrCorrupt is matched when the bytes are not a replay, or a replay
	// whose content is inconsistent or damaged (a wrong magic, a failed
	// CRC, a field out of range, an invalid snapshot or input); the
	// message gives the offset and the reason, and the error unwraps to
	// the state package's error for an invalid snapshot or input.
	ErrCorrupt = errors.New("replay: corrupt")
	// ErrMismatch is matched when the replay is valid but not one this
	// build can play: recorded by another game build, with other state or
	// input types, or in another format version. The message names what
	// differs ("Game", "StateLayout", "StateSize", "InputSize",
	// "InputLayout") with both values, or the format versions.
	ErrMismatch = errors.New("replay: mismatch")
)

// fileError is the error of bytes Open or ReadHeader does not accept: it
// matches kind (ErrTruncated, ErrCorrupt or ErrMismatch) and unwraps to
// err.
type fileError struct {
	kind error
	msg  string
	err  error
}

func (e *fileError) Error() string        { return e.msg }
func (e *fileError) Is(target error) bool { return target == e.kind }
func (e *fileError) Unwrap() error        { return e.err }

// truncated reports bytes that end before the replay does: it needs need
// bytes and have are present.
func truncated(need, have int64) error {
	return &fileError{kind: ErrTruncated, msg: fmt.Sprintf("replay: truncated: need %d bytes, have %d", need, have)}
}

// corrupt reports bytes that are not a consistent replay, found at offset
// off of the file, with the underlying error err or nil.
func corrupt(off int64, reason string, err error) error {
	msg := fmt.Sprintf("replay: corrupt at offset %d: %s", off, reason)
	if err != nil {
		msg += ": " + err.Error()
	}
	return &fileError{kind: ErrCorrupt, msg: msg, err: err}
}

// mismatch reports a replay recorded with field got where this build has
// want.
func mismatch(field, got, want string) error {
	return &fileError{kind: ErrMismatch, msg: fmt.Sprintf("replay: recorded with %s %s, want %s", field, got, want)}
}

// versionMismatch reports a replay in format version got.
func versionMismatch(got uint32) error {
	return &fileError{kind: ErrMismatch, msg: fmt.Sprintf("replay: format version %d, this build reads %d", got, formatVersion)}
}

// errTooLong is returned by Recorder.Add and AddLog when the replay would
// hold more than maxFrames frames.
var errTooLong = errors.New("replay: too many frames")

// DivergenceError reports the first stored check that re-simulation did
// not reproduce (VerifyData returns it; find it with errors.As). Frame f
// names the state after f steps (frames 0 to f-1), so the divergence
// happened in the steps since the previous check.
type DivergenceError struct {
	// Frame is the first frame whose stored checksum or keyframe differs.
	Frame core.Frame
	// Keyframe is true when the check was a keyframe; false for a checksum.
	Keyframe bool
	// Want is the stored checksum (for a keyframe: the checksum of the
	// stored state); Got is the re-simulated one.
	Want, Got uint64
	// DiffFrame is the frame of the keyframe the field diff was taken at:
	// Frame itself when it has a keyframe, else the next keyframe. It is
	// meaningful only when Diffs is not empty.
	DiffFrame core.Frame
	// Diffs are the fields that differ between the stored and the
	// re-simulated state at DiffFrame (stored as A), at most 16 of them
	// (diffLimit); More is true when there were more. Diffs is empty when
	// no keyframe follows the failed checksum.
	Diffs []state.FieldDiff
	More  bool
}

// diffLimit is the largest number of fields a DivergenceError lists.
const diffLimit = 16

// Error implements error.
func (e *DivergenceError) Error() string {
	what := "checksum"
	if e.Keyframe {
		what = "keyframe"
	}
	s := fmt.Sprintf("replay: diverged at frame %d: %s %#016x, re-simulated %#016x", e.Frame, what, e.Want, e.Got)
	if len(e.Diffs) > 0 {
		s += fmt.Sprintf("; at frame %d: %s", e.DiffFrame, e.Diffs[0])
		if n := len(e.Diffs) - 1; n > 0 || e.More {
			s += fmt.Sprintf(" and %d more fields", n)
			if e.More {
				s += "+"
			}
		}
	}
	return s
}
