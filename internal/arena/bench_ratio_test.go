package arena_test

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/internal/arena"
)

// BenchmarkSaveLoadVsCopy measures Save and Load against a plain copy of
// the same bytes between the same addresses, interleaving the three in
// short rounds so that load from other processes hits all of them alike.
// It reports each one's ns/op and the throughput ratios save/copy and
// load/copy (goal: at least 0.8). It stops at 64 KiB: at 1 MiB the plain
// copy's non-temporal stores evict the slot that Save then writes, so the
// interleaving itself skews the result; BenchmarkStateOps covers 1 MiB.
func BenchmarkSaveLoadVsCopy(b *testing.B) {
	b.Run("1KiB", func(b *testing.B) { benchRatio(b, func(s *state1K) []byte { return s[:] }) })
	b.Run("64KiB", func(b *testing.B) { benchRatio(b, func(s *state64K) []byte { return s[:] }) })
}

func benchRatio[S any](b *testing.B, bytesOf func(*S) []byte) {
	r, err := arena.NewRing[S](1)
	if err != nil {
		b.Fatal(err)
	}
	src := new(S)
	fillBytes(bytesOf(src), 4)
	r.Save(0, src)
	p, _ := r.Peek(0)
	slot, srcBytes := bytesOf(p), bytesOf(src)
	// A round is about 64 KiB of copying per contender.
	round := max(1, (64<<10)/len(srcBytes))
	var tCopy, tSave, tLoad time.Duration
	b.SetBytes(int64(len(srcBytes)))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		t0 := time.Now()
		for range round {
			copy(slot, srcBytes)
		}
		t1 := time.Now()
		for range round {
			r.Save(0, src) // the ring holds frame 0 for the Loads
		}
		t2 := time.Now()
		for range round {
			if err := r.Load(0, src); err != nil {
				b.Fatal(err)
			}
		}
		t3 := time.Now()
		tCopy += t1.Sub(t0)
		tSave += t2.Sub(t1)
		tLoad += t3.Sub(t2)
		n += round
	}
	b.ReportMetric(float64(tCopy.Nanoseconds())/float64(n), "copy-ns")
	b.ReportMetric(float64(tSave.Nanoseconds())/float64(n), "save-ns")
	b.ReportMetric(float64(tLoad.Nanoseconds())/float64(n), "load-ns")
	b.ReportMetric(float64(tCopy)/float64(tSave), "save/copy")
	b.ReportMetric(float64(tCopy)/float64(tLoad), "load/copy")
}
