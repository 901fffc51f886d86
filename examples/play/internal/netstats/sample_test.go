package netstats

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/stretchr/testify/require"
)

// stats returns session stats with one peer and the given counters.
func stats(rollbacks uint64, depth [17]uint64, stall time.Duration, sent, received uint64, rtt time.Duration) rollstep.Stats {
	return rollstep.Stats{Delay: 2, Prediction: 6, Rollbacks: rollbacks, RollbackDepth: depth, Stall: stall,
		Peers: []rollstep.PeerStats{{RTT: rtt, FramesAhead: -1, BytesSent: sent, BytesReceived: received}}}
}

func TestSampleTurnsCountersIntoPerFrameValues(t *testing.T) {
	o := New(1)
	frame := time.Second / 60
	o.Sample(0, stats(5, [17]uint64{3: 5}, 40*time.Millisecond, 1000, 1000, 80*time.Millisecond), nil)
	// The first sample only sets the baseline: a session that rolled
	// back before the history started shows no burst.
	require.Equal(t, 0.0, o.Rollbacks.Last())
	require.Equal(t, 0.0, o.Stall.Last())

	o.Sample(frame, stats(7, [17]uint64{3: 6, 5: 1}, 50*time.Millisecond, 1060, 1030, 90*time.Millisecond), nil)
	require.Equal(t, 2.0, o.Rollbacks.Last(), "two rollbacks began this frame")
	require.Equal(t, 5.0, o.Depth.Last(), "the deepest of them re-simulated 5 frames")
	require.InDelta(t, 10.0, o.Stall.Last(), 1e-9, "10 ms of stall this frame")
	require.Equal(t, 90.0, o.Peers[0].RTT.Last())
	require.Equal(t, -1.0, o.Peers[0].Ahead.Last())
	require.Equal(t, 2.0, o.Delay.Last())
	require.Equal(t, 6.0, o.Prediction.Last())
	// 60 bytes in a 60th of a second is 3600 B/s; the average moves a
	// tenth of the way there from 0.
	require.InDelta(t, 360.0, o.Peers[0].Upload.Last(), 1e-3)
	require.InDelta(t, 180.0, o.Peers[0].Download.Last(), 1e-3)

	o.Sample(2*frame, stats(7, [17]uint64{3: 6, 5: 1}, 50*time.Millisecond, 1060, 1030, 90*time.Millisecond), nil)
	require.Equal(t, 0.0, o.Rollbacks.Last())
	require.Equal(t, 0.0, o.Depth.Last())
	require.Less(t, o.Peers[0].Upload.Last(), 360.0, "a quiet frame lowers the rate")
}

func TestSampleKeepsAWindow(t *testing.T) {
	o := New(2)
	for i := range 3 * Window {
		st := stats(0, [17]uint64{}, 0, 0, 0, time.Duration(i)*time.Millisecond)
		st.Peers = append(st.Peers, st.Peers[0])
		o.Sample(time.Duration(i)*time.Millisecond, st, nil)
	}
	require.Equal(t, Window, o.Peers[1].RTT.Len())
	require.Equal(t, float64(2*Window), o.Peers[1].RTT.At(0), "the oldest kept sample")
	require.Equal(t, float64(3*Window-1), o.Peers[1].RTT.Last())
	require.Equal(t, float64(3*Window-1), o.Peers[1].RTT.Max())
	require.Equal(t, float64(2*Window), o.Peers[1].RTT.Min())

	st := stats(0, [17]uint64{}, 0, 0, 0, 0)
	st.Peers = append(st.Peers, st.Peers[0])
	allocs := testing.AllocsPerRun(100, func() { o.Sample(time.Second, st, nil) })
	require.Zero(t, allocs, "sampling a frame without events allocates nothing")
}

func TestSampleLogsTheLifeCycle(t *testing.T) {
	o := New(1)
	st := stats(0, [17]uint64{}, 0, 0, 0, 0)
	o.Sample(time.Second, st, []core.Event{core.StartedEvent{}, &core.StallEvent{}, core.InterruptedEvent{Peer: 0}})
	o.Sample(2*time.Second, st, []core.Event{core.PeerLostEvent{Peer: 0, Left: true, Reason: core.LeaveQuit},
		core.DesyncFieldsEvent{Peer: 0, Frame: 9, Paths: []string{"Fighters[1].Health"}}})
	log := o.Log()
	require.Len(t, log, 4, "stalls are graphed, not listed")
	require.Contains(t, log[0], "match started")
	require.Contains(t, log[1], "peer 0 silent")
	require.Contains(t, log[2], "peer 0 left (quit)")
	require.Contains(t, log[3], "Fighters[1].Health")

	for i := range 2 * LogLines {
		o.Sample(3*time.Second, st, []core.Event{core.DelayEvent{Delay: i}})
	}
	log = o.Log()
	require.Len(t, log, LogLines, "only the newest lines are kept")
	require.Contains(t, log[LogLines-1], "D=15 ")
	require.Contains(t, log[0], "D=8 ")
}
