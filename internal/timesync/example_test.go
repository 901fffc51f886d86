package timesync_test

import (
	"fmt"
	"time"

	"github.com/rollstep/rollstep/internal/timesync"
)

// A peer whose messages say it is 5 frames behind us, once the one-way
// delay is counted, is waited for: after one window the recommendation is
// to wait 5 frames.
func ExampleSync_Tick() {
	period := time.Second / 60
	ts := timesync.New(timesync.Config{Window: 1, MinAdvantage: 2, MaxWait: 8}, period, 1)
	ts.Observe(0, 100, 101, 0)     // the peer was at frame 100 when it sent, its inputs known to 101
	ts.Sample(0, 108, 3*period, 0) // we are at frame 108, 3 periods later, on a link of no delay
	ev, ok := ts.Tick()
	fmt.Println(ok, ev.Advantage, ev.Wait, ev.RemoteDelay, ev.Applied)
	// Output:
	// true 5 5 1 true
}
