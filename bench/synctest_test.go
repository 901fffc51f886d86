package bench

import (
	"fmt"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/rollback"
)

// syncBlock is how many frames BenchmarkSyncTest times at once, so the
// clock's reading costs little against them.
const syncBlock = 8

// BenchmarkSyncTest is the cost of rollback.SyncTest's two schedules on
// the 1 KiB mix game (a ~100 ns Step), 2 players, at check distances 1, 2
// and 8, beside a plain loop calling Step with the same inputs in the
// same run, alternating blocks of syncBlock frames. x-step is a sync-test
// frame's time over a plain frame's (median blocks): what one frame costs
// in Steps. Dense re-simulates k frames after every frame; sparse, the k
// frames since the last check once every k frames.
func BenchmarkSyncTest(b *testing.B) {
	for _, sched := range []struct {
		name   string
		sparse bool
	}{{"dense", false}, {"sparse", true}} {
		for _, k := range []int{1, 2, 8} {
			b.Run(fmt.Sprintf("%s/k=%d", sched.name, k), func(b *testing.B) {
				st, err := rollback.NewSyncTest[mixState, uint32](
					rollback.SyncTestConfig{CheckDistance: k, Sparse: sched.sparse}, mix{}, mixState{})
				if err != nil {
					b.Fatal(err)
				}
				var plain mixState
				in := make([]uint32, 2)
				pin := make([]core.Input[uint32], 2)
				frame := core.Frame(0)
				block := func() (sync, bare time.Duration) {
					t0 := time.Now()
					for i := range core.Frame(syncBlock) {
						in[0], in[1] = mixInputs(0, frame+i), mixInputs(1, frame+i)
						if _, err := st.AdvanceFrame(in); err != nil {
							b.Fatal(err)
						}
					}
					t1 := time.Now()
					for i := range core.Frame(syncBlock) {
						pin[0].Value, pin[1].Value = mixInputs(0, frame+i), mixInputs(1, frame+i)
						mix{}.Step(&plain, pin, nil)
					}
					t2 := time.Now()
					frame += syncBlock
					return t1.Sub(t0) / syncBlock, t2.Sub(t1) / syncBlock
				}
				for range 16 {
					block()
				}
				var syncH, bareH hist
				b.ReportAllocs()
				for b.Loop() {
					s, p := block()
					syncH.add(s)
					bareH.add(p)
				}
				if *st.State() != plain {
					b.Fatal("the sync test's state differs from the plain loop's")
				}
				sy, ba := float64(syncH.quantile(0.5)), float64(bareH.quantile(0.5))
				b.ReportMetric(sy, "synctest-ns/frame")
				b.ReportMetric(ba, "step-ns/frame")
				b.ReportMetric(sy/max(ba, 1), "x-step")
			})
		}
	}
}
