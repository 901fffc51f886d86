package arena_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/rollstep/rollstep/internal/arena"
)

// TestMain runs the suite on little-endian targets. On a big-endian target
// (not part of CI, but runnable with GOARCH=s390x and qemu-s390x) it checks
// the documented behaviour instead: every type is refused with a clear
// error, Decode and NewRing fail, and Encode panics.
func TestMain(m *testing.M) {
	if binary.NativeEndian.Uint16([]byte{1, 0}) == 1 {
		os.Exit(m.Run())
	}
	if err := checkBigEndianRefusal(); err != nil {
		fmt.Println("FAIL:", err)
		os.Exit(1)
	}
	fmt.Println("big-endian target", runtime.GOARCH, "refused as documented; suite skipped")
	os.Exit(0)
}

func checkBigEndianRefusal() (err error) {
	want := fmt.Sprintf("state: arena_test.okWorld is not arena-serializable: this target (GOARCH=%s) is big-endian", runtime.GOARCH)
	if e := arena.Validate[okWorld](); e == nil || !strings.HasPrefix(e.Error(), want) {
		return fmt.Errorf("Validate = %v, want prefix %q", e, want)
	}
	if _, e := arena.NewRing[okWorld](4); !errors.Is(e, arena.ErrNotSerializable) {
		return fmt.Errorf("NewRing = %v", e)
	}
	var w okWorld
	if e := arena.Decode(make([]byte, 500), &w); !errors.Is(e, arena.ErrNotSerializable) {
		return fmt.Errorf("Decode = %v", e)
	}
	defer func() {
		if r := recover(); r == nil {
			err = errors.New("Encode did not panic")
		}
	}()
	arena.Encode(nil, &w)
	return nil
}
