package netstats

import (
	"fmt"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
)

// Window is how many samples each series holds: at one sample per frame
// of a 60 Hz match, the last four seconds.
const Window = 240

// LogLines is how many life-cycle events a History lists.
const LogLines = 8

// smoothing is the weight of a new rate sample in a byte rate's moving
// average (one frame's bytes are too bursty to graph raw).
const smoothing = 0.1

// Peer is the history of one remote peer.
type Peer struct {
	// RTT is the smoothed round trip in milliseconds, Ahead the peer's
	// frame minus ours, Upload and Download the bytes per second to and
	// from it (a moving average).
	RTT, Ahead, Upload, Download Series
	// sent and received are the byte counters at the previous sample.
	sent, received uint64
	up, down       float64
}

// History is the recent history of one session. Its Series are for
// reading; only Sample changes them. The zero value is not usable: make
// one with New.
type History struct {
	// Peers has one entry per remote peer, in core.PeerID order.
	Peers []Peer
	// Delay and Prediction are D and W; Rollbacks the rollbacks begun and
	// Depth the frames the deepest of them re-simulated, per sample; Stall
	// the milliseconds frames waited for inputs, per sample.
	Delay, Prediction, Rollbacks, Depth, Stall Series
	// TotalRollbacks and TotalStall are the session's totals at the newest
	// sample.
	TotalRollbacks uint64
	TotalStall     time.Duration

	samples int
	at      time.Duration
	byDepth [17]uint64

	log     [LogLines]string
	logNext int
	logged  int
}

// New returns the history of a session with the given number of remote
// peers.
func New(peers int) *History {
	h := &History{
		Peers: make([]Peer, peers), Delay: newSeries(Window), Prediction: newSeries(Window),
		Rollbacks: newSeries(Window), Depth: newSeries(Window), Stall: newSeries(Window),
	}
	for i := range h.Peers {
		h.Peers[i] = Peer{RTT: newSeries(Window), Ahead: newSeries(Window), Upload: newSeries(Window), Download: newSeries(Window)}
	}
	return h
}

// Sample records one frame's view of the session: its Stats at time now
// (the time given to the session's Update) and the events its Events
// returned since the previous Sample. The first sample sets the baseline
// of the counters, so rollbacks and stalls from before it do not show as
// a burst. It keeps no reference to st or events.
func (h *History) Sample(now time.Duration, st rollstep.Stats, events []core.Event) {
	dt := now - h.at
	first := h.samples == 0
	h.samples++
	h.at = now

	h.Delay.push(float64(st.Delay))
	h.Prediction.push(float64(st.Prediction))
	rolled, deepest, stall := st.Rollbacks-h.TotalRollbacks, 0, st.Stall-h.TotalStall
	for d := range st.RollbackDepth {
		if st.RollbackDepth[d] > h.byDepth[d] {
			deepest = d
		}
	}
	if first {
		rolled, deepest, stall = 0, 0, 0
	}
	h.Rollbacks.push(float64(rolled))
	h.Depth.push(float64(deepest))
	h.Stall.push(float64(stall) / float64(time.Millisecond))
	h.TotalRollbacks, h.byDepth, h.TotalStall = st.Rollbacks, st.RollbackDepth, st.Stall

	for i := range h.Peers {
		if i >= len(st.Peers) {
			continue
		}
		g, p := &h.Peers[i], st.Peers[i]
		g.RTT.push(float64(p.RTT) / float64(time.Millisecond))
		g.Ahead.push(float64(p.FramesAhead))
		if !first && dt > 0 {
			perSecond := float64(time.Second) / float64(dt)
			g.up += smoothing * (float64(p.BytesSent-g.sent)*perSecond - g.up)
			g.down += smoothing * (float64(p.BytesReceived-g.received)*perSecond - g.down)
		}
		g.sent, g.received = p.BytesSent, p.BytesReceived
		g.Upload.push(g.up)
		g.Download.push(g.down)
	}

	for _, ev := range events {
		if line, ok := describe(ev); ok {
			h.note(fmt.Sprintf("%6.2fs f%-5d %s", now.Seconds(), st.Frame, line))
		}
	}
}

// note appends a line to the event log, forgetting the oldest beyond
// LogLines.
func (h *History) note(line string) {
	h.log[h.logNext] = line
	h.logNext = (h.logNext + 1) % LogLines
	h.logged++
}

// Log returns the newest LogLines life-cycle events, oldest first.
func (h *History) Log() []string {
	n := min(h.logged, LogLines)
	out := make([]string, 0, n)
	for i := range n {
		out = append(out, h.log[(h.logNext-n+i+LogLines)%LogLines])
	}
	return out
}

// describe returns the log's line for a life-cycle event, or false
// for an event the log leaves out (stalls and rollbacks have graphs; delay
// changes show in the D and W graph but are listed too, since they are
// rare and explain the graph's steps).
func describe(ev core.Event) (string, bool) {
	switch e := ev.(type) {
	case core.StartedEvent:
		return "match started", true
	case core.ConnectedEvent:
		return fmt.Sprintf("peer %d connected", e.Peer), true
	case core.RefusedEvent:
		return fmt.Sprintf("peer %d refused: %v", e.Peer, e.Err), true
	case core.InterruptedEvent:
		return fmt.Sprintf("peer %d silent", e.Peer), true
	case core.ResumedEvent:
		return fmt.Sprintf("peer %d heard again", e.Peer), true
	case core.PeerLostEvent:
		if e.Left {
			return fmt.Sprintf("peer %d left (%s)", e.Peer, leaveReason(e.Reason)), true
		}
		return fmt.Sprintf("peer %d lost", e.Peer), true
	case core.SplitEvent:
		return fmt.Sprintf("split from peer %d", e.Peer), true
	case core.RejoinEvent:
		if e.Err != nil {
			return fmt.Sprintf("peer %d rejoin failed: %v", e.Peer, e.Err), true
		}
		return fmt.Sprintf("peer %d rejoined at frame %d", e.Peer, e.Return), true
	case core.DisconnectEvent:
		return fmt.Sprintf("player %d disconnected from frame %d", e.Player, e.Frame), true
	case core.DesyncFieldsEvent:
		return fmt.Sprintf("DESYNC with peer %d at frame %d: %v", e.Peer, e.Frame, e.Paths), true
	case core.DelayEvent:
		return fmt.Sprintf("D=%d W=%d (rtt %v)", e.Delay, e.Prediction, e.RTT.Round(time.Millisecond)), true
	case core.PauseEvent:
		if e.Paused {
			return fmt.Sprintf("paused by player %d", e.Player), true
		}
		return fmt.Sprintf("resumed by player %d", e.Player), true
	case core.SpeedEvent:
		return fmt.Sprintf("speed %d%% by player %d", e.Percent, e.Player), true
	case core.MatchEndedEvent:
		return fmt.Sprintf("match ended at frame %d", e.Frame), true
	}
	return "", false
}

// leaveReason names a leave reason for the log.
func leaveReason(r core.LeaveReason) string {
	switch r {
	case core.LeaveQuit:
		return "quit"
	case core.LeaveTimeout:
		return "timed out"
	case core.LeaveDesync:
		return "desync"
	case core.LeaveRefused:
		return "refused"
	case core.LeaveEnded:
		return "match over"
	case core.LeaveDropped:
		return "dropped"
	}
	return fmt.Sprintf("reason %d", r)
}
