package engine

import (
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/rtt"
)

// peer is the engine's view of one remote peer. Fields that every
// message touches come first, so they share cache lines.
type peer[I comparable] struct {
	gone     bool   // declared disconnected by this engine
	hasStamp bool   // lastStamp is valid
	heard    bool   // a message of its current process arrived (see Heard)
	ownMask  uint32 // bit p set for every player in players

	// Round trip and pace.
	lastStamp   time.Duration // newest Stamp received
	stampAt     time.Duration // when it was received
	srtt        time.Duration
	rttvar      time.Duration
	rttSamples  int
	unsampled   int // messages received since the last round-trip sample
	framesAhead core.Frame
	lastFrame   core.Frame
	inputLead   core.Frame
	rollbacks   uint64 // rollbacks this peer's inputs caused
	resimFrames uint64 // frames they re-simulated

	// held[p] is the highest Held[p] the peer reported (acknowledgement).
	held [core.MaxPlayers]core.Frame

	// Checksums: sumAck is the peer's acknowledgement of ours; recv holds
	// the peer's reports not yet compared; recvNext is our acknowledgement.
	sumAck   core.Frame
	sumMsgs  int // messages built for the peer, for the resend cadence
	recvNext core.Frame
	desynced bool
	recv     sumRing
	// sumsBefore bounds the frames whose reports are compared: this
	// engine agreed a disconnect frame there while the peer was gone,
	// without its vote, so from there on the peer may have confirmed other
	// inputs (a split, not a desync).
	sumsBefore core.Frame

	// theirGone is the union of Gone masks the peer sent; goneHeld[p] its
	// highest Held[p] in a message that had bit p set, i.e. its vote.
	theirGone uint16
	goneHeld  [core.MaxPlayers]core.Frame
	players   []core.PlayerHandle

	// Desync search (narrow.go): snap is our state after snapFrame, in
	// canonical bytes, from our detection (nil before; read-only, and
	// shared with every other peer that desynced at the same frame; nil
	// again once the peer is gone); hunt is our search, and in hunt.theirs
	// our replay of the peer's search, which tells when a copy lent for
	// answering it can be released; answers are our answers to the
	// peer's queries of its current search, at most maxQueries, the most
	// recently asked last.
	snap      []byte
	snapFrame core.Frame
	hunt      hunt
	answers   []answered

	// rollbackDepth counts the rollbacks in rollbacks by depth, bucketed
	// like Stats.RollbackDepth (kept out of the fields every message
	// touches).
	rollbackDepth [17]uint64
	// stallTime is the time Advance stalled waiting for this peer's
	// inputs (see PeerStats.StallTime).
	stallTime time.Duration

	msg  Message[I]
	runs []InputRun[I]
	vbuf []I
	sbuf []ChecksumReport
}

func (q *peer[I]) init(c Config, players []core.PlayerHandle) {
	q.players, q.sumsBefore = players, never
	for _, p := range players {
		q.ownMask |= 1 << p
	}
	// Run k always uses vbuf[k*R : (k+1)*R] (R = MaxRunLength), so building
	// a message only reslices it and never stores a pointer.
	r := c.MaxRunLength
	q.runs = make([]InputRun[I], c.Players)
	q.vbuf = make([]I, c.Players*r)
	for k := range q.runs {
		q.runs[k].Values = q.vbuf[k*r : k*r : (k+1)*r]
	}
	q.msg.Inputs = q.runs[:0]
	q.sbuf = make([]ChecksumReport, 0, maxSumsPerMessage)
	q.recv = newSumRing()
}

// observeRTT folds one round-trip sample into the smoothed RTT and its
// mean deviation (RFC 6298 gains, integer arithmetic). The sample stands
// for the last k messages received from the peer (k >= 1): the wire sends
// the timing in only some packets (internal/wire's StampDue), and
// folding the sample in k times keeps the estimate moving at the same pace
// per message as when every message carries one, which the front ends'
// delay control is tuned for. With a sample in every message, k is 1.
func (q *peer[I]) observeRTT(r time.Duration, k int) {
	if r < 0 {
		return
	}
	if q.rttSamples == 0 {
		q.srtt, q.rttvar = r, r/2
	} else {
		if bound := rtt.Outlier(q.srtt); r > bound {
			r, k = bound, 1 // one sample far above the estimate counts once, bounded
		}
		for range min(max(k, 1), maxSampleWeight) {
			d := r - q.srtt
			if d < 0 {
				d = -d
			}
			q.rttvar += (d - q.rttvar) / 4
			q.srtt += (r - q.srtt) / 8
		}
	}
	q.rttSamples++
}

// maxSampleWeight bounds how many messages one round-trip sample stands
// for, so a sample after a long silence does not replace the estimate.
const maxSampleWeight = 16
