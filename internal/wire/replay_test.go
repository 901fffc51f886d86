package wire

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestReplayWindow(t *testing.T) {
	type step struct {
		seq  uint64
		want error
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"first number is any", []step{{1 << 40, nil}, {1<<40 - 63, nil}}},
		{"zero is a number", []step{{0, nil}, {0, ErrReplayed}, {1, nil}}},
		{"duplicate", []step{{5, nil}, {6, nil}, {5, ErrReplayed}, {6, ErrReplayed}}},
		{"reordered within window", []step{{100, nil}, {37, nil}, {99, nil}, {37, ErrReplayed}, {38, nil}}},
		{"too old", []step{{100, nil}, {36, ErrTooOld}, {0, ErrTooOld}}},
		{"edge of window", []step{{163, nil}, {100, nil}, {99, ErrTooOld}}},
		{"slide by less than the window", []step{{10, nil}, {8, nil}, {40, nil}, {8, ErrReplayed}, {10, ErrReplayed}, {9, nil}}},
		{"slide across a multiple of 64", []step{{60, nil}, {62, nil}, {70, nil}, {62, ErrReplayed}, {61, nil}, {64, nil}, {64, ErrReplayed}}},
		{"far ahead clears the window", []step{{10, nil}, {1 << 50, nil}, {10, ErrTooOld}, {1<<50 - 1, nil}, {1<<50 - 1, ErrReplayed}}},
		{"exactly 64 ahead", []step{{0, nil}, {64, nil}, {0, ErrTooOld}, {1, nil}}},
		{"top of range", []step{{math.MaxUint64 - 1, nil}, {math.MaxUint64, nil}, {math.MaxUint64 - 1, ErrReplayed}, {math.MaxUint64, ErrReplayed}, {math.MaxUint64 - 63, nil}, {math.MaxUint64 - 64, ErrTooOld}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w ReplayWindow
			for i, s := range tt.steps {
				check := w.Check(s.seq)
				got := w.Accept(s.seq)
				if got != s.want || check != s.want {
					t.Fatalf("step %d: Accept(%d) = %v, Check = %v, want %v", i, s.seq, got, check, s.want)
				}
			}
		})
	}
	if !errors.Is(ErrTooOld, ErrReplayed) {
		t.Error("ErrTooOld does not match ErrReplayed")
	}
}

// TestReplayWindowModel checks the window against a map of every number
// accepted, under random reordering, duplication and jumps.
func TestReplayWindowModel(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	for range 50 {
		var w ReplayWindow
		seen := map[uint64]bool{}
		var newest uint64
		started := false
		next := r.Uint64N(1 << 20)
		for range 3000 {
			var s uint64
			switch k := r.IntN(10); {
			case k < 5:
				s = next
				next++
			case k < 8 && next > 100:
				s = next - 1 - r.Uint64N(100)
			case k < 9:
				next += r.Uint64N(200)
				s = next
			default:
				s = next - r.Uint64N(min(next, 3))
			}
			var want error
			switch {
			case started && s+ReplayWindowSize <= newest:
				want = ErrTooOld
			case seen[s]:
				want = ErrReplayed
			}
			if got := w.Accept(s); got != want {
				t.Fatalf("Accept(%d) with newest %d: got %v, want %v", s, newest, got, want)
			}
			if want == nil {
				seen[s] = true
				if !started || s > newest {
					newest, started = s, true
				}
			}
			if n, ok := w.Newest(); n != newest || ok != started {
				t.Fatalf("Newest() = %d, %v, want %d, %v", n, ok, newest, started)
			}
		}
	}
}

func TestReplayWindowExpand(t *testing.T) {
	tests := []struct {
		name   string
		newest uint64 // accepted first, unless empty
		empty  bool
		low    uint16
		want   uint64
	}{
		{"empty window", 0, true, 0xbeef, 0xbeef},
		{"same", 1 << 40, false, 0, 1 << 40},
		{"next", 1000, false, 1001, 1001},
		{"reordered", 1000, false, 990, 990},
		{"across a wrap forward", 0x1fffe, false, 3, 0x20003},
		{"across a wrap backward", 0x20003, false, 0xfffe, 0x1fffe},
		{"farthest ahead", 0x10000, false, 0x8000, 0x18000},           // newest + 32768
		{"farthest behind", 0x18000, false, 0x0001, 0x10001},          // newest - 32767
		{"one past farthest ahead", 0x10000, false, 0x8001, 0x8001},   // 32769 ahead is 32767 behind
		{"one past farthest behind", 0x18000, false, 0x0000, 0x20000}, // 32768 behind is 32768 ahead
		{"near zero, behind would be negative", 5, false, 0xffff, 0xffff},
		{"near zero, just behind", 5, false, 2, 2},
		{"near 2^64, ahead would overflow", math.MaxUint64 - 2, false, 3, math.MaxUint64 - 0xffff + 3},
		{"top of range", math.MaxUint64 - 1, false, 0xffff, math.MaxUint64},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var w ReplayWindow
			if !tc.empty {
				_ = w.Accept(tc.newest)
			}
			if got := w.Expand(tc.low); got != tc.want {
				t.Errorf("newest %#x, low %#04x: got %#x, want %#x", tc.newest, tc.low, got, tc.want)
			}
		})
	}
	var nilWindow *ReplayWindow
	if got := nilWindow.Expand(7); got != 7 {
		t.Errorf("nil window: got %d, want 7", got)
	}
	// Oracle: the candidate nearest to newest, ties upward, found by
	// trying newest-32767 .. newest+32768 one by one, clamped to the
	// uint64 range.
	r := rand.New(rand.NewPCG(11, 11))
	for range 20000 {
		newest := r.Uint64() >> r.IntN(64)
		if r.IntN(4) == 0 {
			newest = math.MaxUint64 - r.Uint64N(1<<17)
		}
		low := uint16(r.Uint32())
		var w ReplayWindow
		_ = w.Accept(newest)
		got := w.Expand(low)
		lo := newest - min(newest, 32767)
		hi := newest + min(math.MaxUint64-newest, 32768)
		if hi-lo < 65535 { // clamped at an end: extend the other way
			if lo == 0 {
				hi = 65535
			} else {
				lo = math.MaxUint64 - 65535
			}
		}
		var want uint64
		for s := lo; ; s++ {
			if uint16(s) == low {
				want = s
				break
			}
		}
		if got != want {
			t.Fatalf("newest %#x, low %#04x: got %#x, want %#x", newest, low, got, want)
		}
	}
}
