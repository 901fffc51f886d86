package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rollstep/rollstep/core"
)

// crash is a -crash PEER:FRAME:DOWNTIME: peer's process dies when it
// reaches frame (turn) frame, without a word, and a new process of its
// seat starts down later and rejoins the match.
type crash struct {
	peer  int
	frame int32
	down  time.Duration
}

// parseCrash parses PEER:FRAME:DOWNTIME.
func parseCrash(s string) (crash, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return crash{}, fmt.Errorf("-crash %q: want PEER:FRAME:DOWNTIME, e.g. 1:600:1s", s)
	}
	peer, err := parsePeer("-crash", s, parts[0])
	if err != nil {
		return crash{}, err
	}
	frame, err := strconv.ParseInt(parts[1], 10, 32)
	if err != nil || frame < 0 {
		return crash{}, fmt.Errorf("-crash %q: frame %q is not a frame ≥ 0", s, parts[1])
	}
	down, err := time.ParseDuration(parts[2])
	if err != nil || down < 0 || down > maxLate {
		return crash{}, fmt.Errorf("-crash %q: downtime %q is not a duration in [0, %v], such as 1s", s, parts[2], maxLate)
	}
	return crash{peer, int32(frame), down}, nil
}

// rejoinInfo is what a life-cycle "rejoin" event reports: the
// core.RejoinEvent the peer saw.
type rejoinInfo struct {
	Snapshot    int32 `json:"snapshot,omitempty"` // the frame of the state sent (sender)
	Handoff     int32 `json:"handoff,omitempty"`  // the frame the new process started at
	Return      int32 `json:"return,omitempty"`   // the first frame its inputs count again
	Bytes       int64 `json:"bytes"`              // transfer datagrams' payload bytes, sent or received
	Chunks      int   `json:"chunks"`
	Retransmits int   `json:"retransmits"` // chunks sent again (sender) or received twice
	TookMs      int64 `json:"took_ms"`     // from the restart's handshake to this event
	Self        bool  `json:"self,omitempty"`
	Discarded   int32 `json:"discarded,omitempty"` // a yielded split: frames this peer had played apart
}

// rejoinEvent turns a core.RejoinEvent of peer i into its life-cycle
// event.
func rejoinEvent(i int, x core.RejoinEvent) lifeEvent {
	e := lifeEvent{Event: lifeRejoin, Error: errText(x.Err), Rejoin: &rejoinInfo{
		Snapshot: int32(x.Snapshot), Handoff: int32(x.Handoff), Return: int32(x.Return), Bytes: x.Bytes,
		Chunks: x.Chunks, Retransmits: x.Retransmits, TookMs: x.Took.Milliseconds(), Self: x.Peer < 0, Discarded: int32(x.Discarded)}}
	e.Remote = i
	if x.Peer >= 0 {
		e.Remote = globalPeer(i, x.Peer)
	}
	return e
}

// describeRejoin renders a rejoin event for the text report.
func (e *lifeEvent) describeRejoin(unit string) string {
	r := e.Rejoin
	who := fmt.Sprintf("peer %d", e.Remote)
	if r.Self {
		who = "this peer"
	}
	s := who + " rejoined"
	if e.Error != "" {
		s = who + " did not rejoin"
	}
	if r.Snapshot > 0 {
		s += fmt.Sprintf(": snapshot of %s %d", unit, r.Snapshot)
	}
	if r.Return > 0 {
		s += fmt.Sprintf(", inputs again from %s %d", unit, r.Return)
	}
	if r.Bytes > 0 {
		s += fmt.Sprintf(", %d bytes in %d chunks (%d resent)", r.Bytes, r.Chunks, r.Retransmits)
	}
	if r.Discarded > 0 {
		s += fmt.Sprintf(", healing a split: %d %ss played apart thrown away", r.Discarded, unit)
	}
	return s + fmt.Sprintf(", %d ms after the restart", r.TookMs)
}

// crashStep plays -crash for peer p at now and reports whether the peer
// is down (not to be updated now).
func (p *simPeer) crashStep(i int, now time.Duration) (bool, error) {
	switch {
	case p.plan.crashAt < 0:
		return false, nil
	case !p.crashed && p.sess.Frame() >= core.Frame(p.plan.crashAt):
		p.crashed, p.backAt = true, now+p.plan.crashDown
		_ = p.ep.Close() // the process dies: no Leave
		p.life = append(p.life, lifeEvent{Ms: now.Milliseconds(), Frame: int32(p.sess.Frame()), Event: lifeCrashed, Remote: i})
		return true, nil
	case p.crashed && !p.back && now < p.backAt:
		return true, nil
	case p.crashed && !p.back:
		p.back = true
		if err := p.restart(); err != nil {
			return false, err
		}
		p.fed = 0
		p.life = append(p.life, lifeEvent{Ms: now.Milliseconds(), Event: lifeRestarted, Remote: i})
	}
	return false, nil
}
