package bench

import (
	"math/bits"
	"time"
)

// histSub is the number of sub-buckets per power of two: 64 gives a
// resolution of 1/64 (1.6 %) of the value.
const histSub = 64

// hist is a log-linear histogram of durations in nanoseconds, fixed in size
// so recording allocates nothing however many frames a benchmark runs.
// Values below histSub ns have a bucket each; above, a value v with
// bits.Len64(v) = e ≥ 7 falls in row e−6, column (v >> (e−7)) − 64, so
// every bucket spans less than 1/64 of its values. max is exact.
type hist struct {
	counts [58 * histSub]uint64
	n      uint64
	max    time.Duration
}

func histIndex(v uint64) int {
	if v < histSub {
		return int(v)
	}
	e := bits.Len64(v) // ≥ 7
	return (e-6)*histSub + int(v>>(e-7)) - histSub
}

// histUpper returns the largest value that falls in bucket i.
func histUpper(i int) uint64 {
	if i < histSub {
		return uint64(i)
	}
	row, col := i/histSub, i%histSub
	e := row + 6
	return (uint64(col+histSub+1) << (e - 7)) - 1
}

func (h *hist) add(d time.Duration) {
	if d < 0 {
		d = 0
	}
	h.counts[histIndex(uint64(d))]++
	h.n++
	if d > h.max {
		h.max = d
	}
}

// quantile returns an upper bound, within 1.6 %, of the q-quantile
// (0 < q ≤ 1) of the recorded values: the top of the bucket holding the
// ⌈q·n⌉-th smallest value, capped at the exact maximum.
func (h *hist) quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := uint64(q*float64(h.n) + 0.999999)
	if rank < 1 {
		rank = 1
	}
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			if u := time.Duration(histUpper(i)); u < h.max {
				return u
			}
			return h.max
		}
	}
	return h.max
}
