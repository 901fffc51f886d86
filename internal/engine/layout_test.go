package engine

import (
	"testing"

	"github.com/rollstep/rollstep/internal/arena"
)

type (
	layoutIn8   struct{ A uint8 }
	layoutIn64  struct{ A int64 }
	layoutInMix struct {
		A int64
		B uint8
		_ [7]uint8
	}
	layoutSt12 struct {
		A int32
		B [8]uint8
	}
)

// TestSlotAndWorldLayout: the slot and world the engine makes of any
// arena-serializable input and state add no implicit padding on 32- or
// 64-bit targets, so they are arena-serializable too (NewEngine checks
// them), and a type that is not stays refused.
func TestSlotAndWorldLayout(t *testing.T) {
	check := func(name string, err error) {
		t.Helper()
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	check("Slot[uint8]", arena.Validate[Slot[uint8]]())
	check("Slot[in8]", arena.Validate[Slot[layoutIn8]]())
	check("Slot[in64]", arena.Validate[Slot[layoutIn64]]())
	check("Slot[inMix]", arena.Validate[Slot[layoutInMix]]())
	check("Slot[[3]uint16]", arena.Validate[Slot[[3]uint16]]())
	check("world[uint8]", arena.Validate[world[uint8]]())
	check("world[st12]", arena.Validate[world[layoutSt12]]())
	check("world[inMix]", arena.Validate[world[layoutInMix]]())
	if err := arena.Validate[Slot[int]](); err == nil {
		t.Error("Slot[int] validated; int's size differs between targets")
	}
	if got := arena.Size[Slot[uint8]](); got != 9 {
		t.Errorf("Slot[uint8] is %d bytes, want 9 (8 of control word)", got)
	}
	if got := arena.Size[world[uint8]](); got != 17 {
		t.Errorf("world[uint8] is %d bytes, want 17 (16 of match state)", got)
	}
}
