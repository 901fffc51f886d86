package rollback

import (
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/core/delay"
	"github.com/rollstep/rollstep/transport/endpoint"
)

// window counts the frames of one delay-policy measurement window (one
// second of frames) and remembers the engine counters at its start.
type window struct {
	frames, length int
	stall          time.Duration
	depth          [17]uint64
}

func (w *window) init(tickRate int) { w.length = tickRate }

// tick counts a frame and reports whether the window is complete.
func (w *window) tick() bool {
	w.frames++
	return w.frames >= w.length
}

// adjustDelay feeds the finished window to the delay policy and applies
// a changed D to every local player. The RTT is the largest smoothed RTT
// of a connected peer.
func (s *Session[S, I]) adjustDelay() {
	st := s.eng.Stats()
	m := delay.Measurement{FramePeriod: s.period, Frames: s.win.frames, Stall: st.StallTime - s.win.stall}
	for i := range s.npeers {
		ps, ok := s.ep.Peer(core.PeerID(i))
		if ok && ps.State == endpoint.StateConnected && ps.RTTSamples > 0 {
			m.AddPeer(ps.RTT, ps.Jitter)
		}
	}
	deep := s.dc.DeepDepth()
	for d := min(deep, len(st.RollbackDepth)-1); d < len(st.RollbackDepth); d++ {
		m.DeepRollbacks += int(st.RollbackDepth[d] - s.win.depth[d])
	}
	s.win.frames, s.win.stall, s.win.depth = 0, st.StallTime, st.RollbackDepth
	rec := s.dc.Update(m)
	if !rec.Changed || rec.Delay == s.delayD {
		return
	}
	s.delayD = rec.Delay
	for _, p := range s.cfg.Local {
		_ = s.eng.SetInputDelay(p, rec.Delay) // within MaxInputDelay by construction
	}
	s.event(DelayEvent{Frame: s.eng.Frame(), Delay: rec.Delay, Prediction: s.eng.Prediction(), RTT: m.RTT})
}
