package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
)

// Engine cost per frame against a bare loop doing the same Steps and state
// copies, in the same run. Every op is one frame on every engine; the
// ns/peer-frame metric divides by the number of engines. The steady case
// delivers inputs before they are needed (D=1): the engine saves nothing;
// its "bare" twin steps only. The rollback8 case delivers every input 8
// frames late with inputs changing every frame: each frame loads one state,
// re-simulates 8 frames and saves 8 states, exactly like its bare twin.
func BenchmarkFrame(b *testing.B) {
	for _, n := range []int{2, 4} {
		for _, sc := range []struct {
			name     string
			d, lag   int
			change   core.Frame
			depth    int
			bareSave bool
		}{
			{"steady", 1, 0, 4, 0, false},
			{"rollback8", 0, 7, 1, 8, true},
		} {
			b.Run(fmt.Sprintf("%dp/%s/bare", n, sc.name), func(b *testing.B) {
				l := newBareLoop(n, sc.depth, sc.bareSave)
				for k := 0; k < 100; k++ {
					l.step()
				}
				b.ReportAllocs()
				iters := 0
				for b.Loop() {
					l.step()
					iters++
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(iters*n), "ns/peer-frame")
			})
			for _, sums := range []bool{false, true} {
				name := "engine"
				if sums {
					name = "engine+checksums"
				}
				b.Run(fmt.Sprintf("%dp/%s/%s", n, sc.name, name), func(b *testing.B) {
					bn := newBench(n, sc.d, 8, sc.lag, sc.change, func(c *Config) { c.DisableChecksums = !sums })
					for k := 0; k < 100; k++ {
						bn.step()
					}
					st0 := bn.engs[0].Stats()
					b.ReportAllocs()
					iters := 0
					for b.Loop() {
						bn.step()
						iters++
					}
					st := bn.engs[0].Stats()
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(iters*n), "ns/peer-frame")
					b.ReportMetric(float64(st.Rollbacks-st0.Rollbacks)/float64(iters), "rollbacks/op")
					b.ReportMetric(float64(st.ResimFrames-st0.ResimFrames)/float64(iters), "resim-frames/op")
				})
			}
		}
	}
}

// BenchmarkOverhead interleaves the engine and its bare twin in blocks of
// 64 frames and times each block, so both see the same machine load; it
// reports both costs per peer-frame, the engine's overhead and the ratio.
// One op is one block of each. The "heavy" cases use a Step that mixes the
// whole 1 KiB state (about 100 ns), closer to a real game than the
// near-empty default Step; "heavy4" and "heavy10" mix it 4 and 10 times
// (about 0.4 and 1 µs), to show how the engine's fixed cost per frame and
// per re-simulated frame shrinks against the game's own. The rollback cases include the harness copying
// each message for late delivery (a transport would encode it instead).
func BenchmarkOverhead(b *testing.B) {
	for _, n := range []int{2, 4} {
		for _, sc := range []struct {
			name     string
			d, lag   int
			change   core.Frame
			depth    int
			bareSave bool
			sums     bool
			heavy    int
		}{
			{"steady", 1, 0, 4, 0, false, false, 0},
			{"steady+checksums", 1, 0, 4, 0, false, true, 0},
			{"rollback8", 0, 7, 1, 8, true, false, 0},
			{"rollback8+checksums", 0, 7, 1, 8, true, true, 0},
			{"heavy-steady", 1, 0, 4, 0, false, false, 1},
			{"heavy-rollback8", 0, 7, 1, 8, true, false, 1},
			{"heavy4-rollback8", 0, 7, 1, 8, true, false, 4},
			{"heavy10-rollback8", 0, 7, 1, 8, true, false, 10},
		} {
			b.Run(fmt.Sprintf("%dp/%s", n, sc.name), func(b *testing.B) {
				bn := newBenchGame(n, sc.d, 8, sc.lag, sc.change, func(c *Config) { c.DisableChecksums = !sc.sums }, sc.heavy)
				l := newBareLoop(n, sc.depth, sc.bareSave)
				l.g.heavy = sc.heavy
				for k := 0; k < 200; k++ {
					bn.step()
					l.step()
				}
				const block = 64
				var engine, bare time.Duration
				blocks := 0
				for b.Loop() {
					t0 := time.Now()
					for k := 0; k < block; k++ {
						bn.step()
					}
					t1 := time.Now()
					for k := 0; k < block; k++ {
						l.step()
					}
					engine += t1.Sub(t0)
					bare += time.Since(t1)
					blocks++
				}
				frames := float64(blocks * block * n)
				en, ba := float64(engine.Nanoseconds())/frames, float64(bare.Nanoseconds())/frames
				b.ReportMetric(en, "engine-ns/peer-frame")
				b.ReportMetric(ba, "bare-ns/peer-frame")
				b.ReportMetric(en-ba, "overhead-ns/peer-frame")
				b.ReportMetric(100*(en-ba)/ba, "overhead-%")
			})
		}
	}
}
