package rtt_test

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/rollstep/rollstep/internal/rtt"
)

const ms = time.Millisecond

func TestSample(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		now, echo, echoDelay time.Duration
		want                 time.Duration
		ok                   bool
	}{
		{"plain", 1000 * ms, 900 * ms, 20 * ms, 80 * ms, true},
		{"at the limit", 20 * time.Second, 10 * time.Second, 0, 10 * time.Second, true},
		{"peer clock fast", 1000 * ms, 990 * ms, 11 * ms, -1 * ms, true},
		{"longer than Max", 20 * time.Second, 9 * time.Second, 0, 0, false},
		{"echo from our future", 1000 * ms, 1001 * ms, 0, 0, false},
		{"negative hold", 1000 * ms, 900 * ms, -5 * time.Second, 0, false},
		{"wrapping hold", 1000 * ms, 900 * ms, math.MinInt64, 0, false},
		{"wrapping echo", 1000 * ms, math.MinInt64, 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := rtt.Sample(tc.now, tc.echo, tc.echoDelay)
			assert.Equal(t, tc.ok, ok)
			if ok {
				assert.Equal(t, tc.want, got)
			}
		})
	}
}

// A forged packet's round trip never wraps or exceeds Max.
func FuzzSample(f *testing.F) {
	f.Add(int64(1000*ms), int64(900*ms), int64(20*ms))
	f.Add(int64(0), int64(math.MinInt64), int64(0))
	f.Add(int64(math.MaxInt64), int64(0), int64(math.MinInt64))
	f.Fuzz(func(t *testing.T, now, echo, delay int64) {
		r, ok := rtt.Sample(time.Duration(now), time.Duration(echo), time.Duration(delay))
		if ok && (r > rtt.Max || r > time.Duration(now)-time.Duration(echo)) {
			t.Fatalf("Sample(%d, %d, %d) = %v, true", now, echo, delay, r)
		}
	})
}
