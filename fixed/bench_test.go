package fixed

import (
	"math"
	"strconv"
	"testing"
)

// Each benchmark runs the fixed-point function beside its float64
// counterpart (and, for Mul, a plain int64 multiply-and-shift) in the same
// run. One op is a pass over a ring of benchN inputs, so that the loop
// overhead of b.Loop does not swamp a 1 ns function; the ns/call metric is
// the cost of one call. Results are summed into a sink.

const benchN = 1024 // a power of two: inputs are indexed with i&(benchN-1)

var (
	benchF   [benchN]F
	benchG   [benchN]F // nonzero divisors
	benchFl  [benchN]float64
	benchGl  [benchN]float64
	benchAng [benchN]Angle
	benchV   [benchN]Vec2
	benchStr [benchN]string

	sinkF  F
	sinkA  Angle
	sinkV  Vec2
	sinkI  int64
	sinkFl float64
)

func init() {
	r := newRand(99)
	for i := range benchN {
		benchF[i] = F(r.Int64N(int64(FromInt(2000)))) - FromInt(1000)
		benchG[i] = F(r.Int64N(int64(FromInt(100)))) + One
		benchFl[i], benchGl[i] = benchF[i].Float64(), benchG[i].Float64()
		benchAng[i] = Angle(r.Uint32())
		benchV[i] = Vec2{benchF[i], benchG[i]}
		benchStr[i] = benchF[i].String()
	}
}

// perCall reports the time per function call: ns/op over benchN.
func perCall(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchN, "ns/call")
}

func BenchmarkMul(b *testing.B) {
	b.Run("fixed", func(b *testing.B) {
		b.ReportAllocs()
		var s F
		for b.Loop() {
			for i := range benchN {
				s += benchF[i&(benchN-1)].Mul(benchG[i&(benchN-1)])
			}
		}
		perCall(b)
		sinkF = s
	})
	b.Run("int64", func(b *testing.B) {
		// The baseline: a bare multiply-and-shift, neither rounded nor
		// overflow-safe.
		b.ReportAllocs()
		var s int64
		for b.Loop() {
			for i := range benchN {
				s += int64(benchF[i&(benchN-1)]) * int64(benchG[i&(benchN-1)]) >> fracBits
			}
		}
		perCall(b)
		sinkI = s
	})
	b.Run("float64", func(b *testing.B) {
		b.ReportAllocs()
		var s float64
		for b.Loop() {
			for i := range benchN {
				s += benchFl[i&(benchN-1)] * benchGl[i&(benchN-1)]
			}
		}
		perCall(b)
		sinkFl = s
	})
}

// BenchmarkMulChain measures latency rather than throughput: each product
// feeds the next, as in a physics integrator.
func BenchmarkMulChain(b *testing.B) {
	k := FromRatio(9, 10)
	b.Run("fixed", func(b *testing.B) {
		b.ReportAllocs()
		s := One
		for b.Loop() {
			for i := range benchN {
				s = s.Mul(k) + benchG[i]
			}
		}
		perCall(b)
		sinkF = s
	})
	b.Run("int64", func(b *testing.B) {
		b.ReportAllocs()
		s := int64(One)
		for b.Loop() {
			for i := range benchN {
				s = s*int64(k)>>fracBits + int64(benchG[i])
			}
		}
		perCall(b)
		sinkI = s
	})
	b.Run("float64", func(b *testing.B) {
		b.ReportAllocs()
		s, kf := 1.0, k.Float64()
		for b.Loop() {
			for i := range benchN {
				s = s*kf + benchGl[i]
			}
		}
		perCall(b)
		sinkFl = s
	})
}

func BenchmarkDiv(b *testing.B) {
	b.Run("fixed", func(b *testing.B) {
		b.ReportAllocs()
		var s F
		for b.Loop() {
			for i := range benchN {
				s += benchF[i&(benchN-1)].Div(benchG[i&(benchN-1)])
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
				s += benchFl[i&(benchN-1)] / benchGl[i&(benchN-1)]
			}
		}
		perCall(b)
		sinkFl = s
	})
}

func BenchmarkSqrt(b *testing.B) {
	b.Run("fixed", func(b *testing.B) {
		b.ReportAllocs()
		var s F
		for b.Loop() {
			for i := range benchN {
				s += Sqrt(benchG[i&(benchN-1)])
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
				s += math.Sqrt(benchGl[i&(benchN-1)])
			}
		}
		perCall(b)
		sinkFl = s
	})
}

// BenchmarkSqrtChain measures latency: each root feeds the next input.
func BenchmarkSqrtChain(b *testing.B) {
	b.Run("fixed", func(b *testing.B) {
		b.ReportAllocs()
		var s F
		for b.Loop() {
			for i := range benchN {
				s = Sqrt(benchG[i]+s&1) + s&7
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
				s = math.Sqrt(benchGl[i]+s*0x1p-40) * 0.5
			}
		}
		perCall(b)
		sinkFl = s
	})
}

func BenchmarkSin(b *testing.B) {
	b.Run("fixed", func(b *testing.B) {
		b.ReportAllocs()
		var s F
		for b.Loop() {
			for i := range benchN {
				s += Sin(benchAng[i&(benchN-1)])
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
				s += math.Sin(benchFl[i&(benchN-1)])
			}
		}
		perCall(b)
		sinkFl = s
	})
}

func BenchmarkCos(b *testing.B) {
	b.Run("fixed", func(b *testing.B) {
		b.ReportAllocs()
		var s F
		for b.Loop() {
			for i := range benchN {
				s += Cos(benchAng[i&(benchN-1)])
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
				s += math.Cos(benchFl[i&(benchN-1)])
			}
		}
		perCall(b)
		sinkFl = s
	})
}

// BenchmarkFromAngle measures the sine and cosine of one angle together.
func BenchmarkFromAngle(b *testing.B) {
	b.Run("fixed", func(b *testing.B) {
		b.ReportAllocs()
		var s F
		for b.Loop() {
			for i := range benchN {
				v := FromAngle(benchAng[i&(benchN-1)])
				s += v.X + v.Y
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
				x, y := math.Sincos(benchFl[i&(benchN-1)])
				s += x + y
			}
		}
		perCall(b)
		sinkFl = s
	})
}

func BenchmarkAtan2(b *testing.B) {
	b.Run("fixed", func(b *testing.B) {
		b.ReportAllocs()
		var s Angle
		for b.Loop() {
			for i := range benchN {
				s += Atan2(benchF[i&(benchN-1)], benchF[(i+1)&(benchN-1)])
			}
		}
		perCall(b)
		sinkA = s
	})
	b.Run("float64", func(b *testing.B) {
		b.ReportAllocs()
		var s float64
		for b.Loop() {
			for i := range benchN {
				s += math.Atan2(benchFl[i&(benchN-1)], benchFl[(i+1)&(benchN-1)])
			}
		}
		perCall(b)
		sinkFl = s
	})
}

func BenchmarkLerp(b *testing.B) {
	b.Run("fixed", func(b *testing.B) {
		b.ReportAllocs()
		var s F
		for b.Loop() {
			for i := range benchN {
				s += Lerp(benchF[i&(benchN-1)], benchG[i&(benchN-1)], Half)
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
				x := benchFl[i&(benchN-1)]
				s += x + (benchGl[i&(benchN-1)]-x)*0.5
			}
		}
		perCall(b)
		sinkFl = s
	})
}

func BenchmarkVec2Length(b *testing.B) {
	b.Run("fixed", func(b *testing.B) {
		b.ReportAllocs()
		var s F
		for b.Loop() {
			for i := range benchN {
				s += benchV[i&(benchN-1)].Length()
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
				x, y := benchFl[i&(benchN-1)], benchGl[i&(benchN-1)]
				s += math.Sqrt(x*x + y*y)
			}
		}
		perCall(b)
		sinkFl = s
	})
}

func BenchmarkVec2Normalize(b *testing.B) {
	b.Run("fixed", func(b *testing.B) {
		b.ReportAllocs()
		var s Vec2
		for b.Loop() {
			for i := range benchN {
				s = s.Add(benchV[i&(benchN-1)].Normalize())
			}
		}
		perCall(b)
		sinkV = s
	})
	b.Run("float64", func(b *testing.B) {
		b.ReportAllocs()
		var sx, sy float64
		for b.Loop() {
			for i := range benchN {
				x, y := benchFl[i&(benchN-1)], benchGl[i&(benchN-1)]
				l := math.Sqrt(x*x + y*y)
				sx, sy = sx+x/l, sy+y/l
			}
		}
		perCall(b)
		sinkFl = sx + sy
	})
}

func BenchmarkVec2Rotate(b *testing.B) {
	b.Run("fixed", func(b *testing.B) {
		b.ReportAllocs()
		var s Vec2
		for b.Loop() {
			for i := range benchN {
				s = s.Add(benchV[i&(benchN-1)].Rotate(benchAng[i&(benchN-1)]))
			}
		}
		perCall(b)
		sinkV = s
	})
	b.Run("float64", func(b *testing.B) {
		b.ReportAllocs()
		var sx, sy float64
		for b.Loop() {
			for i := range benchN {
				x, y := benchFl[i&(benchN-1)], benchGl[i&(benchN-1)]
				sn, cs := math.Sincos(benchFl[(i+7)&(benchN-1)])
				sx, sy = sx+x*cs-y*sn, sy+x*sn+y*cs
			}
		}
		perCall(b)
		sinkFl = sx + sy
	})
}

func BenchmarkParse(b *testing.B) {
	b.Run("fixed", func(b *testing.B) {
		b.ReportAllocs()
		var s F
		for b.Loop() {
			for i := range benchN {
				v, _ := Parse(benchStr[i])
				s += v
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
				v, _ := strconv.ParseFloat(benchStr[i], 64)
				s += v
			}
		}
		perCall(b)
		sinkFl = s
	})
}

// BenchmarkString measures the formatting of String without the final
// allocation of the string, beside strconv.AppendFloat.
func BenchmarkString(b *testing.B) {
	b.Run("fixed", func(b *testing.B) {
		b.ReportAllocs()
		var buf [32]byte
		for b.Loop() {
			for i := range benchN {
				out := benchF[i].appendDecimal(buf[:0])
				sinkI += int64(len(out))
			}
		}
		perCall(b)
	})
	b.Run("float64", func(b *testing.B) {
		b.ReportAllocs()
		var buf [32]byte
		for b.Loop() {
			for i := range benchN {
				sinkI += int64(len(strconv.AppendFloat(buf[:0], benchFl[i], 'g', -1, 64)))
			}
		}
		perCall(b)
	})
}
