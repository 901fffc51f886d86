package arena

import (
	"errors"
	"fmt"
	"reflect"
)

// ValidationError explains why a type is not arena-serializable. Validate,
// ValidateWith, LayoutOf and NewRing return it; functions without an error
// result (Encode, Diff, FieldAt) panic with it.
//
// The message names the field, what is wrong with it and how to fix it, for
// example:
//
//	state: game.World is not arena-serializable: field Units[].HP is int: its size differs between 386 and amd64; use int32 or int64
type ValidationError struct {
	// Type is the type that was validated (S itself, not the field's type).
	Type reflect.Type
	// Path is the path of the offending field, such as "Units[].Pos"; array
	// elements are written "[]". It is empty when S itself is at fault.
	Path string
	// Reason says what is wrong, in a sentence that names the field.
	Reason string
	// Fix says how to repair the type.
	Fix string
}

// Error implements error.
func (e *ValidationError) Error() string {
	return fmt.Sprintf("state: %v is not arena-serializable: %s; %s", e.Type, e.Reason, e.Fix)
}

// Is reports whether target is ErrNotSerializable, so callers can match any
// validation failure with errors.Is.
func (e *ValidationError) Is(target error) bool { return target == ErrNotSerializable }

// ErrNotSerializable matches (with errors.Is) every *ValidationError: the
// type of a game state or input is not arena-serializable.
var ErrNotSerializable = errors.New("state: type is not arena-serializable")

// ErrFrameNotHeld is matched (with errors.Is) by the *FrameNotHeldError that
// Ring.Load returns when the ring holds no state saved for the frame: it was
// never saved, was overwritten by a later frame in the same slot, or the ring
// was Reset.
var ErrFrameNotHeld = errors.New("state: frame not held")

// FrameNotHeldError is returned by Ring.Load for a frame the ring does not
// hold. It matches ErrFrameNotHeld.
type FrameNotHeldError struct {
	// Frame is the frame that was asked for.
	Frame int32
	// Held is the frame the slot for Frame holds instead, valid if HeldOK.
	Held int32
	// HeldOK reports whether the slot holds any frame.
	HeldOK bool
}

// Error implements error.
func (e *FrameNotHeldError) Error() string {
	if e.HeldOK {
		return fmt.Sprintf("state: frame %d not held (its slot holds frame %d)", e.Frame, e.Held)
	}
	return fmt.Sprintf("state: frame %d not held (its slot is empty)", e.Frame)
}

// Is reports whether target is ErrFrameNotHeld.
func (e *FrameNotHeldError) Is(target error) bool { return target == ErrFrameNotHeld }

// ErrInvalidCapacity is returned (wrapped) by NewRing when the capacity is
// less than 1 or the ring would not fit in memory.
var ErrInvalidCapacity = errors.New("state: invalid ring capacity")
