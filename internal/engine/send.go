package engine

import (
	"math/bits"

	"github.com/rollstep/rollstep/core"
)

// buildMessages fills one message per connected peer: the inputs it has
// not acknowledged, our acknowledgements and votes, checksums it has not
// acknowledged, and the desync search's query and answers.
func (e *Engine[S, I]) buildMessages() {
	n := core.Frame(e.cfg.ChecksumInterval)
	keep := core.Frame(e.rlen - e.cfg.MaxPrediction - 4)
	for i := range e.peers {
		q := &e.peers[i]
		if q.gone {
			continue
		}
		m := &q.msg
		m.Frame = e.frame
		if cap(m.Inputs) != len(q.runs) { // only if the host broke the ownership rule
			m.Inputs = q.runs[:0]
		}
		runs := m.Inputs[:cap(m.Inputs)]
		k := 0
		for send := e.localMask | uint32(e.goneMask); send != 0; send &= send - 1 {
			p := bits.TrailingZeros32(send)
			end := e.next[p]
			start := max(q.held[p], end-keep, e.floor)
			if start >= end {
				continue
			}
			end = min(end, start+core.Frame(e.cfg.MaxRunLength))
			r := &runs[k]
			k++
			r.Player, r.Start = core.PlayerHandle(p), start
			if cap(r.Values) < int(end-start) { // as above
				o := (k - 1) * e.cfg.MaxRunLength
				r.Values = q.vbuf[o:o:(o + e.cfg.MaxRunLength)]
			}
			r.Values = r.Values[:end-start]
			step, wrap := e.players, e.players*e.rlen
			j := e.idx(p, start)
			for i := range r.Values {
				r.Values[i] = e.vals[j]
				if j += step; j >= wrap {
					j -= wrap
				}
			}
		}
		m.Inputs = m.Inputs[:k]
		for p := 0; p < e.players; p++ {
			m.Held[p] = e.next[p]
		}
		m.Gone = e.goneMask

		if !e.cfg.DisableChecksums {
			// Every sumResend-th message: the oldest reports the peer
			// has not acknowledged (to fill gaps left by loss), then the
			// newest (so a long round trip never throttles them). The
			// others carry only the reports of the last sumFresh frames
			// checked, so each new report rides in sumFresh consecutive
			// messages without waiting for the ack, and a report already
			// in flight is not repeated in every message until the ack
			// comes back a round trip later.
			sums := q.sbuf[:0]
			c := max(q.sumAck, e.checked-core.Frame(sumSlots-1)*n, 0)
			q.sumMsgs++
			if q.sumMsgs%sumResend != 0 {
				c = max(c, e.checked-sumFresh)
			}
			if n != 1 {
				c = (c + n - 1) / n * n
			}
			sums = e.appendSums(sums, c, e.checked, maxSumsPerMessage/2)
			newest := max(c+core.Frame(len(sums))*n, e.checked-core.Frame(maxSumsPerMessage/2)*n)
			if n != 1 {
				newest = (newest + n - 1) / n * n
			}
			sums = e.appendSums(sums, newest, e.checked, maxSumsPerMessage)
			q.sbuf = sums
			m.Checksums = sums
			m.ChecksumAck = q.recvNext
		}
		if m.Blocks.Hashes != nil {
			m.Blocks = BlockReport{}
		}
		if h := &q.hunt; h.active && h.npend > 0 {
			p := h.nextSend()
			m.Blocks = BlockReport{Frame: h.frame, Offset: p.off, Length: p.n, BlockSize: blockSizeFor(p.n), Hashes: p.hashes}
		}
		q.putAnswers(m)
		m.Stamp = e.now
		m.HasEcho = q.hasStamp
		if q.hasStamp {
			m.Echo, m.EchoDelay = q.lastStamp, e.now-q.stampAt
		}
		// Messages[k] is prefilled for peer k; entries move only once a
		// peer is gone.
		k = len(e.ready.Messages)
		e.ready.Messages = e.ready.Messages[:k+1]
		if o := &e.ready.Messages[k]; o.To != core.PeerID(i) || o.Message != m {
			*o = Outgoing[Slot[I]]{To: core.PeerID(i), Message: m}
		}
	}
}

// A new checksum report rides in the messages of the sumFresh frames
// after it is made; unacknowledged reports ride in every sumResend-th
// message until acknowledged.
const (
	sumFresh  = 2
	sumResend = 8
)

// appendSums appends our checksum reports of frames from..to-1 (from a
// multiple of the interval) until sums holds limit reports.
func (e *Engine[S, I]) appendSums(sums []ChecksumReport, from, to core.Frame, limit int) []ChecksumReport {
	n := e.cfg.ChecksumInterval
	for c := from; c < to && len(sums) < limit; c += core.Frame(n) {
		if s, ok := e.sums.get(c, n); ok {
			sums = append(sums, ChecksumReport{Frame: c, Sum: s.sum})
		}
	}
	return sums
}
