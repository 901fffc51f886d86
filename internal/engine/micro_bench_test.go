package engine

import (
	"testing"

	"github.com/rollstep/rollstep/core"
)

// Micro-benchmarks of the engine's per-frame pieces, to see where the
// steady-state overhead goes.
func BenchmarkPieces(b *testing.B) {
	bn := newBench(2, 1, 8, 0, 4, func(c *Config) { c.DisableChecksums = true })
	for k := 0; k < 300; k++ {
		bn.step()
	}
	e0, e1 := bn.engs[0], bn.engs[1]
	msg := cloneMessage(e1.ready.Messages[0].Message) // e1 -> e0, already received
	b.Run("receive-duplicate", func(b *testing.B) {
		for b.Loop() {
			_ = e0.Receive(bn.now, 0, msg)
		}
	})
	b.Run("check", func(b *testing.B) {
		for b.Loop() {
			_ = e0.check(0, msg)
		}
	})
	b.Run("build-messages", func(b *testing.B) {
		for b.Loop() {
			e0.ready.Messages = e0.ready.Messages[:0]
			e0.buildMessages()
		}
	})
	b.Run("step", func(b *testing.B) {
		f := e1.frame - 1
		for b.Loop() {
			e1.step(f)
		}
	})
	b.Run("bare-step", func(b *testing.B) {
		var s testState
		in := make([]core.Input[testInput], 2)
		g := &testGame{}
		fx := NewEffectList(0)
		for b.Loop() {
			g.Step(&s, in, fx)
		}
	})
}
