package timesync

import (
	"math"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
)

const tick60 = time.Second / 60

func TestTimesyncAdvantageUsesCurrentFrameNotInputFrame(t *testing.T) {
	ts := New(Config{Window: 1, MinAdvantage: 2, MaxWait: 8}, tick60, 1)
	// The peer reported frame 100 with inputs up to frame 110 (D = 10),
	// 20 ms ago, over a 40 ms one-way link: it is now at about 103.6.
	ts.Observe(0, 100, 110, 0)
	now := 20 * time.Millisecond
	if got := ts.Advantage(0, 104, now, 40*time.Millisecond) / tick60; got != 0 {
		t.Errorf("advantage at frame 104 = %d frames, want 0 (the peer's D must not count)", got)
	}
	ts.Sample(0, 110, now, 40*time.Millisecond)
	ev, ok := ts.Tick()
	if !ok || ev.Advantage != 6 || ev.Wait != 6 || ev.RemoteDelay != 10 || !ev.Applied {
		t.Errorf("tick = %+v, %v; want advantage 6, wait 6, remote delay 10, applied", ev, ok)
	}
}

func TestTimesyncRecommendsOnlyAboveThresholdAndCapsWait(t *testing.T) {
	ts := New(Config{Window: 4, MinAdvantage: 2, MaxWait: 5}, tick60, 2)
	ts.Observe(0, 50, 50, 0)
	ts.Observe(1, 20, 20, 0)
	for range 3 {
		ts.Sample(0, 51, 0, 0) // ahead of peer 0 by 1
		ts.Sample(1, 51, 0, 0) // ahead of peer 1 by 31
		if _, ok := ts.Tick(); ok {
			t.Fatal("recommendation before the window ended")
		}
	}
	ts.Sample(0, 51, 0, 0)
	ts.Sample(1, 51, 0, 0)
	ev, ok := ts.Tick()
	if !ok || ev.Peer != 1 || ev.Advantage != 31 || ev.Wait != 5 {
		t.Errorf("tick = %+v, want peer 1, advantage 31, wait capped at 5", ev)
	}
	ts.Forget(1)
	for range 4 {
		ts.Sample(0, 51, 0, 0)
		ev, ok = ts.Tick()
	}
	if !ok || ev.Wait != 0 || ev.Advantage != 1 {
		t.Errorf("below the threshold: %+v, want advantage 1 and no wait", ev)
	}
}

// TestTimesyncClampsHugeAdvantage is the "background tab" case: a peer
// silent for hours, or frames near the int32 limit, must neither overflow
// nor produce an absurd recommendation.
func TestTimesyncClampsHugeAdvantage(t *testing.T) {
	ts := New(Config{Window: 1, MinAdvantage: 2, MaxWait: 8}, tick60, 1)
	ts.Observe(0, 0, 0, 0)
	limit := MaxAdvantage * tick60
	for _, c := range []struct {
		name  string
		local core.Frame
		now   time.Duration
		want  time.Duration
	}{
		{"peer silent for 5 hours", 10, 5 * time.Hour, -limit},
		{"local frame at the int32 limit", math.MaxInt32, 0, limit},
		{"peer silent for 290 years", 0, math.MaxInt64, -limit},
	} {
		if got := ts.Advantage(0, c.local, c.now, math.MaxInt64/2); got != c.want && c.want != -limit {
			t.Errorf("%s: advantage %v, want %v", c.name, got, c.want)
		} else if got < -limit || got > limit {
			t.Errorf("%s: advantage %v outside ±%v", c.name, got, limit)
		}
	}
	ts.Observe(0, 0, 0, 0)
	for range 1024 {
		ts.Sample(0, math.MaxInt32, 0, 0)
	}
	ev, _ := ts.Tick()
	if ev.Advantage != MaxAdvantage || ev.Wait != 8 {
		t.Errorf("after clamped samples: %+v, want advantage %d and wait 8", ev, MaxAdvantage)
	}
}
