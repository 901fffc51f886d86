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
