package main

import (
	"fmt"
	"math"
	"time"

	"github.com/rollstep/rollstep/transport/sim"
)

// finish closes the sessions of a played match and builds its report: end
// is the virtual time the match took, target the frames (turns) played.
// A peer that left or failed is already closed, and a killed one is never
// closed.
func finish(o *simOptions, m simMode, netw *sim.Network, peers []*simPeer, specs []*simSpectator, end time.Duration, target int32) *simRun {
	r := &simRun{report: simReport{
		Mode:       string(m),
		Seconds:    end.Seconds(),
		FinalFrame: target,
		Desyncs:    []desync{},
		eventful:   o.script.any(),
	}}
	for _, p := range peers {
		st := p.sess.Stats()
		rep := p.report
		rep.StallSeconds = round3(p.sess.Stats().Stall.Seconds())
		switch n := len(p.trace.steps); {
		case target > 1 && p.end > p.start:
			rep.TurnMsMean = round3(float64((p.end-p.start)/time.Microsecond) / 1000 / float64(target-1))
		case n > 1: // it stopped before the end: the mean of what it played
			rep.TurnMsMean = round3(float64((p.trace.steps[n-1]-p.trace.steps[0])/time.Microsecond) / 1000 / float64(n-1))
		}
		rep.Frames = int32(st.Frame)
		rep.Rollbacks = int64(st.Rollbacks)
		rep.ResimulatedFrames = int64(st.ResimFrames)
		out := netw.Outbound(p.ep.ID()).Sent
		rep.Datagrams = out.Packets
		if end > 0 {
			rep.UploadBytesPerSec = round3(float64(out.Bytes) / end.Seconds())
		}
		rep.FinalChecksum = "missing"
		if p.finalSum.ok {
			rep.FinalChecksum = fmt.Sprintf("%016x", p.finalSum.sum)
		}
		rep.Events, rep.End = p.life, p.ended
		rep.FirstUpdateMs = p.plan.startAt.Milliseconds()
		for _, e := range p.life {
			if e.Event != lifeConnected {
				r.report.eventful = true
			}
		}
		if p.ended == nil || p.ended.How != endFinished {
			r.report.eventful = true
		}
		r.report.Peers = append(r.report.Peers, rep)
		r.report.Desyncs = append(r.report.Desyncs, p.desyncs...)
		r.trace = append(r.trace, p.trace)
		if !p.gone {
			_ = p.sess.Close()
		}
	}
	r.report.ChecksumGroups = groupChecksums(r.report.Peers, target)
	// All equal: one checksum among the peers that finished, and at least
	// one finished. When every peer finished, as without a life-cycle
	// event, that is every peer having the same checksum.
	r.report.FinalChecksumsEqual = len(r.report.ChecksumGroups) == 1 && r.report.ChecksumGroups[0].Checksum != "missing"
	r.report.EndedApart = endedApart(r.report.Peers, r.report.ChecksumGroups)
	for _, sp := range specs {
		rep := sp.finish()
		if why := r.report.skippedSpectator(sp, target); why == "" && r.report.FinalChecksumsEqual {
			// A spectator that played the last frame played the match.
			r.report.FinalChecksumsEqual = rep.FinalChecksum == r.report.ChecksumGroups[0].Checksum
		}
		r.report.Spectators = append(r.report.Spectators, rep)
	}
	if !r.report.eventful {
		// The report of a match without a life-cycle event keeps the form
		// it had before there was a life-cycle script.
		r.report.ChecksumGroups = nil
		for k := range r.report.Peers {
			r.report.Peers[k].Events, r.report.Peers[k].End = nil, nil
		}
	}
	return r
}

// groupChecksums groups the peers that finished by final checksum, in
// order of their first peer. A peer that left, was killed or failed is not
// compared.
func groupChecksums(peers []peerReport, final int32) []checksumGroup {
	var groups []checksumGroup
	for _, p := range peers {
		if p.End == nil || p.End.How != endFinished || p.skippedFinal(final) != "" {
			continue
		}
		k := 0
		for k < len(groups) && groups[k].Checksum != p.FinalChecksum {
			k++
		}
		if k == len(groups) {
			groups = append(groups, checksumGroup{Checksum: p.FinalChecksum})
		}
		groups[k].Peers = append(groups[k].Peers, p.Peer)
	}
	return groups
}

// endedApart reports whether groups, two or more, are the sides of a
// split that no rejoin healed: every peer outside one group reported a
// split after its newest rejoin that ended well (its own, or one it saw
// of another peer). A peer that yields at once to a third side may not
// hear every other side again, so pairs are not required.
func endedApart(peers []peerReport, groups []checksumGroup) bool {
	if len(groups) < 2 {
		return false
	}
	apart := func(a int) bool {
		split := false
		for _, e := range peers[a].Events {
			switch {
			case e.Event == lifeSplit:
				split = true
			case e.Event == lifeRejoin && e.Error == "":
				split = false
			}
		}
		return split
	}
	unsplit := 0 // groups with a peer that reported no split since
	for _, g := range groups {
		for _, a := range g.Peers {
			if !apart(a) {
				unsplit++
				break
			}
		}
	}
	return unsplit <= 1
}

// skippedFinal says why the peer finished without a final checksum of
// the match, or returns "": it rejoined from a snapshot of frame final or
// later, so it either never simulated the last frame, final - 1, or
// simulated it on a side of a split that the rejoin threw away; or its
// side yielded after it had simulated that frame, and threw it away.
func (p *peerReport) skippedFinal(final int32) string {
	if p.End == nil || p.End.How != endFinished {
		return ""
	}
	for _, e := range p.Events {
		switch {
		case e.Rejoin != nil && e.Rejoin.Self && e.Rejoin.Handoff >= final:
			return "rejoined past the last frame"
		case e.Event == lifeYielded && e.Frame >= final:
			return "yielded after the last frame"
		}
	}
	return ""
}

// round3 rounds x to three decimals, so reports read well and stay stable.
func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
