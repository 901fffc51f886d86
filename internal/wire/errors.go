package wire

import (
	"errors"
	"strconv"
)

// Errors of the codec. The decoders wrap theirs in a *DecodeError that gives
// the offset, the encoders theirs in an *EncodeError; match them with
// errors.Is.
var (
	// ErrTruncated means the datagram ended inside a field: it is too
	// short for a header and a tag, or it carries a valid tag but its body
	// ends inside a field. A strict prefix of a valid packet fails with
	// ErrTruncated when it is shorter than its header and tag, and with
	// ErrWrongToken otherwise (the tag, which ends the packet, no longer
	// matches); a prefix whose tag is recomputed fails with ErrTruncated.
	ErrTruncated = errors.New("wire: truncated packet")
	// ErrBadVersion means the packet, or a Hello's protocol field, is of a
	// version this package does not speak.
	ErrBadVersion = errors.New("wire: unsupported version")
	// ErrUnknownType means the header names a message type this version does
	// not define: type 0.
	ErrUnknownType = errors.New("wire: unknown message type")
	// ErrWrongType means a decoder was given a valid packet of another
	// message type; dispatch on ParseHeader's Type first.
	ErrWrongType = errors.New("wire: wrong message type")
	// ErrWrongToken means the packet's authentication tag does not match:
	// it is not from this match (another session token), or it is forged,
	// damaged, cut short, or from a sender silent for more than 32767
	// packets (see ReplayWindow.Expand).
	ErrWrongToken = errors.New("wire: wrong session token")
	// ErrTooLarge means the datagram is longer than MaxDatagram, or a count
	// in it (runs, values, checksums, block hashes, match parameter bytes)
	// exceeds its bound.
	ErrTooLarge = errors.New("wire: too large")
	// ErrMalformed means a field holds a value the format forbids: a
	// non-minimal varint, a frame out of range, a reserved bit or padding
	// byte that is not zero, an invalid input value, or trailing bytes.
	// Decoders accept exactly the bytes the encoders produce.
	ErrMalformed = errors.New("wire: malformed packet")
	// ErrInvalidMessage is returned by the encoders for a value that has no
	// encoding: a negative frame, a player outside 0..15, more runs than
	// MaxPlayers, an unknown enum value.
	ErrInvalidMessage = errors.New("wire: message cannot be encoded")
)

// DecodeError is returned by every decoder. It names the byte offset in the
// datagram where decoding failed and what was being read, and wraps one of
// the sentinel errors (ErrTruncated, ErrMalformed, ...), so errors.Is
// matches it.
//
// A packet rejected for its header (too large, too short for a header and
// tag, bad version, unknown type, flags the type does not define, wrong
// tag, wrong type) gets one of a few preallocated *DecodeError values, so
// a flood of garbage costs no allocation; their Offset is that of the
// header's first byte or, for ErrTooLarge, MaxDatagram. They are shared:
// never modify a *DecodeError.
type DecodeError struct {
	// Offset is the byte offset of the field that failed.
	Offset int
	// What names the field and the problem, such as "run 2 start: frame
	// out of range".
	What string
	// Err is the sentinel error this failure belongs to.
	Err error
}

// Error returns a message that includes the offset, the field and the kind.
func (e *DecodeError) Error() string {
	return e.Err.Error() + " at offset " + strconv.Itoa(e.Offset) + ": " + e.What
}

// Unwrap returns the sentinel error.
func (e *DecodeError) Unwrap() error { return e.Err }

// EncodeError is returned by the encoders for a message that has no
// encoding. It wraps ErrInvalidMessage.
type EncodeError struct {
	// Field names the offending field, such as "Inputs[1].Player".
	Field string
	// Reason says what is wrong with it.
	Reason string
}

// Error returns a message that names the field and the reason.
func (e *EncodeError) Error() string {
	return "wire: cannot encode " + e.Field + ": " + e.Reason
}

// Is reports whether target is ErrInvalidMessage.
func (e *EncodeError) Is(target error) bool { return target == ErrInvalidMessage }

// VersionError is returned by CheckProtocol when a peer speaks another
// protocol version. It matches ErrBadVersion.
type VersionError struct {
	// Local and Remote are the two protocol versions.
	Local, Remote uint16
}

// Error returns a message with both versions.
func (e *VersionError) Error() string {
	return "wire: peer speaks protocol " + strconv.Itoa(int(e.Remote)) +
		", this side speaks " + strconv.Itoa(int(e.Local))
}

// Is reports whether target is ErrBadVersion.
func (e *VersionError) Is(target error) bool { return target == ErrBadVersion }

// Preallocated header failures (see DecodeError). The reader returns them
// without allocating.
var (
	errDatagramTooLarge = &DecodeError{Offset: MaxDatagram, What: "datagram longer than MaxDatagram", Err: ErrTooLarge}
	errShortHeader      = &DecodeError{Offset: 0, What: "header and tag", Err: ErrTruncated}
	errVersion          = &DecodeError{Offset: 0, What: "version, want " + strconv.Itoa(Version), Err: ErrBadVersion}
	errType             = &DecodeError{Offset: 0, What: "type", Err: ErrUnknownType}
	errFlags            = &DecodeError{Offset: 0, What: "flags not defined for the type", Err: ErrMalformed}
	errTag              = &DecodeError{Offset: 0, What: "authentication tag", Err: ErrWrongToken}
	errWrongType        = &DecodeError{Offset: 0, What: "type of another message", Err: ErrWrongType}
	errExtZero          = &DecodeError{Offset: inputExtAt, What: "extension flags byte is zero", Err: ErrMalformed}
	errExtBits          = &DecodeError{Offset: inputExtAt, What: "undefined extension flag", Err: ErrMalformed}
)
