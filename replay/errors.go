package replay

import (
	"errors"
	"fmt"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/state"
)

// Sentinel errors. Each typed error below matches exactly one of them
// with errors.Is.
var (
	// ErrTruncated is matched by every *TruncatedError: the bytes end
	// before the replay does. Every proper prefix of a valid replay gets
	// this error from Open, Read and ReadHeader.
	ErrTruncated = errors.New("replay: truncated")
	// ErrCorrupt is matched by every *CorruptError: the bytes are not a
	// replay, or a replay whose content is inconsistent or damaged.
	ErrCorrupt = errors.New("replay: corrupt")
	// ErrVersion is matched by every *VersionError: the file is a replay
	// in a format version this package does not read.
	ErrVersion = errors.New("replay: unsupported format version")
	// ErrMismatch is matched by every *MismatchError: the replay was
	// recorded by another game build, with other types, or with another
	// match configuration than the caller expects.
	ErrMismatch = errors.New("replay: mismatch")
	// ErrDiverged is matched by every *DivergenceError: re-simulating the
	// replay did not reproduce a stored checksum or keyframe.
	ErrDiverged = errors.New("replay: diverged")
	// ErrInvalidConfig is returned, wrapped with the offending value, by
	// NewRecorder for a Config it cannot record with.
	ErrInvalidConfig = errors.New("replay: invalid config")
	// ErrInvalidInput is returned, wrapped with the offending value, by
	// Recorder.Add for a frame of inputs it cannot record: the wrong
	// number of players, or a status other than core.InputConfirmed,
	// core.InputFilled and core.InputDisconnected. The recorder is
	// unchanged.
	ErrInvalidInput = errors.New("replay: invalid input")
	// ErrLogGap is returned, wrapped with the frames, by Recorder.AddLog
	// when the log no longer holds the next frame to record (raise
	// core.Config.LogRetention or record more often).
	ErrLogGap = errors.New("replay: frames missing from the input log")
	// ErrTooLong is returned by Recorder.Add when the replay already holds
	// MaxFrames frames.
	ErrTooLong = errors.New("replay: too many frames")
	// ErrOutOfRange is returned, wrapped with the frame, by Player.Seek and
	// Replay.Inputs for a frame outside the replay.
	ErrOutOfRange = errors.New("replay: frame out of range")
)

// TruncatedError reports bytes that end before the replay does.
type TruncatedError struct {
	Need, Have int64 // bytes the replay needs and bytes present
}

// Error implements error.
func (e *TruncatedError) Error() string {
	return fmt.Sprintf("replay: truncated: need %d bytes, have %d", e.Need, e.Have)
}

// Is reports whether target is ErrTruncated.
func (e *TruncatedError) Is(target error) bool { return target == ErrTruncated }

// CorruptError reports bytes that are not a consistent replay: a wrong
// magic, a failed CRC, a field out of range, or an invalid snapshot or
// input (then Err is the state package's error).
type CorruptError struct {
	Offset int64  // where in the file the problem was found
	Reason string // what is wrong, such as "body crc 0x1234 != 0x5678"
	Err    error  // the underlying error, or nil
}

// Error implements error.
func (e *CorruptError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("replay: corrupt at offset %d: %s: %v", e.Offset, e.Reason, e.Err)
	}
	return fmt.Sprintf("replay: corrupt at offset %d: %s", e.Offset, e.Reason)
}

// Is reports whether target is ErrCorrupt.
func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

// Unwrap returns the underlying error, or nil.
func (e *CorruptError) Unwrap() error { return e.Err }

// VersionError reports a replay written in a format version this package
// does not read.
type VersionError struct {
	Got, Want uint32
}

// Error implements error.
func (e *VersionError) Error() string {
	return fmt.Sprintf("replay: format version %d, this build reads %d", e.Got, e.Want)
}

// Is reports whether target is ErrVersion.
func (e *VersionError) Is(target error) bool { return target == ErrVersion }

// MismatchError reports a replay that belongs to another game build, type
// or match configuration. Field names what differs: "Game" (the game
// version hash), "StateLayout", "StateSize", or a field of
// core.ConfigDigest such as "InputLayout" or "TickRate".
type MismatchError struct {
	Field     string
	Got, Want string // the replay's value and the expected one
	Err       error  // the underlying error (a *core.ConfigMismatchError), or nil
}

// Error implements error.
func (e *MismatchError) Error() string {
	return fmt.Sprintf("replay: recorded with %s %s, want %s", e.Field, e.Got, e.Want)
}

// Is reports whether target is ErrMismatch.
func (e *MismatchError) Is(target error) bool { return target == ErrMismatch }

// Unwrap returns the underlying error, or nil.
func (e *MismatchError) Unwrap() error { return e.Err }

// DivergenceError reports the first stored check that re-simulation did
// not reproduce. Frame f names the state after f steps (frames 0 to
// f-1), so the divergence happened in the steps since the previous check.
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
	// re-simulated state at DiffFrame (stored as A), at most DiffLimit of
	// them; More is true when there were more. Diffs is empty when no
	// keyframe follows the failed checksum.
	Diffs []state.FieldDiff
	More  bool
}

// DiffLimit is the largest number of fields a DivergenceError lists.
const DiffLimit = 16

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

// Is reports whether target is ErrDiverged.
func (e *DivergenceError) Is(target error) bool { return target == ErrDiverged }
