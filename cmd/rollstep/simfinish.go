package main

import (
	"fmt"
	"math"
	"time"

	"github.com/rollstep/rollstep/transport/sim"
)

// finish closes the sessions of a played match and builds its report: end
// is the virtual time the match took, target the frames (turns) played.
func finish(o *simOptions, m simMode, netw *sim.Network, peers []*simPeer, end time.Duration, target int32) *simRun {
	r := &simRun{report: simReport{
		Mode:                string(m),
		Seconds:             end.Seconds(),
		FinalFrame:          target,
		FinalChecksumsEqual: true,
		Desyncs:             []desync{},
	}}
	for _, p := range peers {
		st := p.sess.Stats()
		rep := p.report
		rep.StallSeconds = round3(stallTotal(p.sess).Seconds())
		if target > 1 && p.end > p.start {
			rep.TurnMsMean = round3(float64((p.end-p.start)/time.Microsecond) / 1000 / float64(target-1))
		}
		rep.Frames = int32(st.Engine.Frame)
		rep.Rollbacks = int64(st.Engine.Rollbacks)
		rep.ResimulatedFrames = int64(st.Engine.ResimFrames)
		out := netw.Outbound(p.ep.ID()).Sent
		rep.Datagrams = out.Packets
		if end > 0 {
			rep.UploadBytesPerSec = round3(float64(out.Bytes) / end.Seconds())
		}
		rep.FinalChecksum = "missing"
		if p.finalSum.ok {
			rep.FinalChecksum = fmt.Sprintf("%016x", p.finalSum.sum)
		}
		if !p.finalSum.ok || p.finalSum.sum != peers[0].finalSum.sum {
			r.report.FinalChecksumsEqual = false
		}
		r.report.Peers = append(r.report.Peers, rep)
		r.report.Desyncs = append(r.report.Desyncs, p.desyncs...)
		r.trace = append(r.trace, p.trace)
		_ = p.sess.Close()
	}
	return r
}

// round3 rounds x to three decimals, so reports read well and stay stable.
func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
