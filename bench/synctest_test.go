package bench

import (
	"fmt"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/rollback"
)

// syncBlock is how many frames BenchmarkSyncTest times at once, so the
// clock's reading costs little against them. It is a multiple of every k
// measured, so each block holds the same number of sparse checks.
const syncBlock = 8

// syncDriver runs a game through one configuration of BenchmarkSyncTest:
// advance simulates frame f from mixInputs and state is the state after
// the newest frame.
type syncDriver struct {
	advance func(f core.Frame)
	state   func() *mixState
}

// syncTestDriver is rollback.SyncTest with check distance k.
func syncTestDriver(b *testing.B, k int, sparse bool) syncDriver {
	st, err := rollback.NewSyncTest[mixState, uint32](
		rollback.SyncTestConfig{CheckDistance: k, Sparse: sparse}, mix{}, mixState{})
	if err != nil {
		b.Fatal(err)
	}
	in := make([]uint32, 2)
	return syncDriver{
		advance: func(f core.Frame) {
			in[0], in[1] = mixInputs(0, f), mixInputs(1, f)
			if _, err := st.AdvanceFrame(in); err != nil {
				b.Fatal(err)
			}
		},
		state: st.State,
	}
}

// noSyncDriver is the engine rollback.SyncTest wraps, configured as it
// does for check distance k but with no sync test: the baseline.
func noSyncDriver(b *testing.B, k int) syncDriver {
	var s mixState
	e, err := engine.NewEngine[mixState, uint32](engine.Config{
		Players: 2, Local: []core.PlayerHandle{0, 1},
		Prediction: k, MaxPrediction: k, DisableChecksums: true,
	}, mix{}, &s)
	if err != nil {
		b.Fatal(err)
	}
	return syncDriver{
		advance: func(f core.Frame) {
			_ = e.AddLocalInput(0, mixInputs(0, f))
			_ = e.AddLocalInput(1, mixInputs(1, f))
			if !e.Advance(0).Stepped {
				b.Fatalf("frame %d not stepped", f)
			}
		},
		state: e.State,
	}
}

// BenchmarkSyncTest is the cost of rollback.SyncTest's two schedules on
// the 1 KiB mix game (a ~100 ns Step), 2 players, at check distances 1, 2
// and 8. Each op is a block of syncBlock frames of three loops in turn,
// so all three see the same machine: the configuration measured (none:
// no sync test; dense; sparse), the same engine with no sync test, and a
// plain loop calling Step. x-none is a frame's time over the no-sync-test
// engine's (median blocks): the sync test's cost, the gate's metric.
// x-step is over the plain loop's: what one frame costs in Steps. Dense
// re-simulates the newest k frames after every frame; sparse, the k frames
// since the last check once every k frames.
func BenchmarkSyncTest(b *testing.B) {
	for _, sched := range []string{"none", "dense", "sparse"} {
		for _, k := range []int{1, 2, 8} {
			b.Run(fmt.Sprintf("%s/k=%d", sched, k), func(b *testing.B) {
				var measured syncDriver
				if sched == "none" {
					measured = noSyncDriver(b, k)
				} else {
					measured = syncTestDriver(b, k, sched == "sparse")
				}
				none := noSyncDriver(b, k)
				var plain mixState
				pin := make([]core.Input[uint32], 2)
				frame := core.Frame(0)
				timeBlock := func(advance func(f core.Frame)) time.Duration {
					t0 := time.Now()
					for f := frame; f < frame+syncBlock; f++ {
						advance(f)
					}
					return time.Since(t0) / syncBlock
				}
				step := func(f core.Frame) {
					pin[0].Value, pin[1].Value = mixInputs(0, f), mixInputs(1, f)
					mix{}.Step(&plain, pin, nil)
				}
				var measuredH, noneH, stepH hist
				block := func() {
					measuredH.add(timeBlock(measured.advance))
					noneH.add(timeBlock(none.advance))
					stepH.add(timeBlock(step))
					frame += syncBlock
				}
				for range 16 {
					block()
				}
				measuredH, noneH, stepH = hist{}, hist{}, hist{}
				b.ReportAllocs()
				for b.Loop() {
					block()
				}
				if *measured.state() != plain || *none.state() != plain {
					b.Fatal("the engines' states differ from the plain loop's")
				}
				me := float64(measuredH.quantile(0.5))
				no := float64(noneH.quantile(0.5))
				st := float64(stepH.quantile(0.5))
				b.ReportMetric(me, "ns/frame")
				b.ReportMetric(no, "none-ns/frame")
				b.ReportMetric(st, "step-ns/frame")
				b.ReportMetric(me/max(no, 1), "x-none")
				b.ReportMetric(me/max(st, 1), "x-step")
			})
		}
	}
}
