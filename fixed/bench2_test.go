package fixed

import (
	"math"
	"testing"
)

// More pairs of fixed and float64 benchmarks, for the cheaper functions.

func BenchmarkFloor(b *testing.B) {
	b.Run("fixed", func(b *testing.B) {
		b.ReportAllocs()
		var s F
		for b.Loop() {
			for i := range benchN {
				s += benchF[i].Floor()
			}
		}
		perCall(b)
		sinkF = s
	})
	b.Run("float64", func(b *testing.B) {
		b.ReportAllocs()
		var s float64
		for b.Loop() {
			for i := range benchN {
				s += math.Floor(benchFl[i])
			}
		}
		perCall(b)
		sinkFl = s
	})
}

func BenchmarkRound(b *testing.B) {
	b.Run("fixed", func(b *testing.B) {
		b.ReportAllocs()
		var s F
		for b.Loop() {
			for i := range benchN {
				s += benchF[i].Round()
			}
		}
		perCall(b)
		sinkF = s
	})
	b.Run("float64", func(b *testing.B) {
		b.ReportAllocs()
		var s float64
		for b.Loop() {
			for i := range benchN {
				s += math.Round(benchFl[i])
			}
		}
		perCall(b)
		sinkFl = s
	})
}

func BenchmarkMod(b *testing.B) {
	b.Run("fixed", func(b *testing.B) {
		b.ReportAllocs()
		var s F
		for b.Loop() {
			for i := range benchN {
				s += benchF[i].Mod(benchG[i])
			}
		}
		perCall(b)
		sinkF = s
	})
	b.Run("float64", func(b *testing.B) {
		b.ReportAllocs()
		var s float64
		for b.Loop() {
			for i := range benchN {
				s += math.Mod(benchFl[i], benchGl[i])
			}
		}
		perCall(b)
		sinkFl = s
	})
}

func BenchmarkVec2Dot(b *testing.B) {
	b.Run("fixed", func(b *testing.B) {
		b.ReportAllocs()
		var s F
		for b.Loop() {
			for i := range benchN {
				s += benchV[i].Dot(benchV[(i+1)&(benchN-1)])
			}
		}
		perCall(b)
		sinkF = s
	})
	b.Run("float64", func(b *testing.B) {
		b.ReportAllocs()
		var s float64
		for b.Loop() {
			for i := range benchN {
				j := (i + 1) & (benchN - 1)
				s += benchFl[i]*benchFl[j] + benchGl[i]*benchGl[j]
			}
		}
		perCall(b)
		sinkFl = s
	})
}

func BenchmarkVec2Distance(b *testing.B) {
	b.Run("fixed", func(b *testing.B) {
		b.ReportAllocs()
		var s F
		for b.Loop() {
			for i := range benchN {
				s += benchV[i].Distance(benchV[(i+1)&(benchN-1)])
			}
		}
		perCall(b)
		sinkF = s
	})
	b.Run("float64", func(b *testing.B) {
		b.ReportAllocs()
		var s float64
		for b.Loop() {
			for i := range benchN {
				j := (i + 1) & (benchN - 1)
				s += math.Hypot(benchFl[j]-benchFl[i], benchGl[j]-benchGl[i])
			}
		}
		perCall(b)
		sinkFl = s
	})
}
