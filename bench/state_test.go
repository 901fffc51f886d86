package bench

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/internal/arena"
	"github.com/rollstep/rollstep/state"
)

type (
	blob1K  struct{ B [1 << 10]byte }
	blob64K struct{ B [64 << 10]byte }
	blob1M  struct{ B [1 << 20]byte }
)

// BenchmarkState times the ring of saved states (Save and Load) and state.Checksum
// beside a plain Go assignment of the same state (*dst = *src), at 1 KiB,
// 64 KiB and 1 MiB, in the same run, and reports each as a ratio to the
// copy: save/copy, load/copy, checksum/copy. One op is one short block of
// each (64 KiB of state per block, at least one rep), and each metric is
// the median block, so a block that the scheduler preempted (on a shared
// machine, several in a run) does not move it. At 1 MiB the ring copies in
// 512 KiB chunks to avoid the memmove's non-temporal stores, which start
// at 1 MiB on amd64 and halve copy-then-hash speed.
func BenchmarkState(b *testing.B) {
	b.Run("size=1KiB", benchState[blob1K])
	b.Run("size=64KiB", benchState[blob64K])
	b.Run("size=1MiB", benchState[blob1M])
}

// sink keeps checksums observable so the compiler cannot drop them.
var sink uint64

func benchState[S any](b *testing.B) {
	src, dst := new(S), new(S)
	reps := max(1, (64<<10)/arena.Size[S]())
	ring, err := arena.NewRing[S](10)
	if err != nil {
		b.Fatal(err)
	}
	for f := range int32(10) {
		ring.Save(f, src)
	}
	var save, load, sum, cp hist
	b.ReportAllocs()
	for b.Loop() {
		t0 := time.Now()
		for i := range reps {
			ring.Save(int32(i%10), src)
		}
		t1 := time.Now()
		for i := range reps {
			_ = ring.Load(int32(i%10), dst)
		}
		t2 := time.Now()
		for range reps {
			sink += state.Checksum(src)
		}
		t3 := time.Now()
		for range reps {
			*dst = *src
		}
		t4 := time.Now()
		save.add(t1.Sub(t0))
		load.add(t2.Sub(t1))
		sum.add(t3.Sub(t2))
		cp.add(t4.Sub(t3))
	}
	med := func(h *hist) float64 { return float64(h.quantile(0.5)) / float64(reps) }
	c := max(med(&cp), 1e-3)
	b.ReportMetric(med(&save), "save-ns")
	b.ReportMetric(med(&load), "load-ns")
	b.ReportMetric(med(&sum), "checksum-ns")
	b.ReportMetric(med(&cp), "copy-ns")
	b.ReportMetric(med(&save)/c, "save/copy")
	b.ReportMetric(med(&load)/c, "load/copy")
	b.ReportMetric(med(&sum)/c, "checksum/copy")
}
