package engine

import (
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/rtt"
)

// Receive takes a decoded message from peer `from`, received at now. It
// copies what it keeps and never retains m. A malformed message returns a
// *MessageError and is ignored as a whole; duplicates and stale messages
// are fine. An input that contradicts one the peer sent before raises an
// EquivocationEvent (in the next Ready) and the first input stands.
// Corrections are recorded here and applied by the next Advance.
func (e *Engine[S, I]) Receive(now time.Duration, from core.PeerID, m *Message[Slot[I]]) error {
	if from < 0 || int(from) >= len(e.peers) {
		return ErrUnknownPeer
	}
	q := &e.peers[from]
	if q.gone {
		return ErrPeerGone
	}
	if m == nil {
		return e.msgErr(from, "message", "is nil")
	}
	if err := e.check(from, m); err != nil {
		e.stats.BadMessages++
		return err
	}

	q.heard = true

	// Round trip and pace (a reordered older message echoes nothing new).
	if !m.NoStamp && (!q.hasStamp || m.Stamp > q.lastStamp) {
		q.lastStamp, q.stampAt, q.hasStamp = m.Stamp, now, true
	}
	q.unsampled++
	if m.HasEcho {
		if r, ok := rtt.Sample(now, m.Echo, m.EchoDelay); ok {
			q.observeRTT(r, q.unsampled)
		}
		q.unsampled = 0
	}
	q.lastFrame = max(q.lastFrame, m.Frame)
	q.framesAhead = m.Frame - e.frame

	// Acknowledgements and disconnect votes. A peer that acknowledges
	// more of a local player's inputs than exist holds forged ones (which
	// their owner's real inputs then show as equivocation): only what
	// exists counts as acknowledged, and the message stands, since
	// rejecting every message of that peer until the local player caught
	// up would deadlock the match.
	for p := 0; p < e.players; p++ {
		h := m.Held[p]
		if e.local[p] {
			h = min(h, e.next[p])
		}
		q.held[p] = max(q.held[p], h)
	}
	if gone := m.Gone; gone != 0 {
		if e.returned != 0 {
			gone = e.freshGone(gone, m)
		}
		newGone := gone &^ q.theirGone
		q.theirGone |= gone
		for p := 0; p < e.players; p++ {
			if gone&(1<<p) != 0 {
				q.goneHeld[p] = max(q.goneHeld[p], m.Held[p])
			}
			if newGone&(1<<p) != 0 && !e.local[p] && e.adopts(q, p) {
				e.declareGone(core.PlayerHandle(p))
			}
		}
	}

	// Inputs.
	for i := range m.Inputs {
		e.receiveRun(from, &m.Inputs[i])
	}

	// Checksums.
	if !e.cfg.DisableChecksums {
		q.sumAck = max(q.sumAck, m.ChecksumAck)
		e.receiveSums(from, m.Checksums)
		for i := range m.Answers {
			a := &m.Answers[i]
			if a.Length == 0 {
				break // the list ends at the first empty entry
			}
			e.huntAnswer(from, a)
		}
		if len(m.Blocks.Hashes) > 0 {
			e.answerQuery(from, &m.Blocks)
		}
	}
	if e.goneMask != 0 { // checkAgreement has nothing to do otherwise
		e.checkAgreement()
	}
	return nil
}

// receiveRun stores the new inputs of one run, reports equivocation and
// marks mispredictions.
//
// A run splits at next[p] into a prefix of frames already held, each
// compared with the held value (an EquivocationEvent for the first that
// differs), and a tail of new frames, stored until the run leaves a gap
// or reaches an agreed disconnect frame. Each part is one loop without a
// per-value branch between the two cases; slot i walks the ring slots of
// consecutive frames (frame-major: players apart, wrapping at the end).
func (e *Engine[S, I]) receiveRun(from core.PeerID, r *InputRun[Slot[I]]) {
	p := int(r.Player)
	old := e.next[p]
	vals := r.Values
	step, wrap := e.players, e.players*e.rlen

	// Prefix: values 0..held-1 are of frames below old. Only frames from
	// old-rlen on are still in the ring; older ones are not compared.
	held := min(int(old-r.Start), len(vals))
	if k := max(int(old-r.Start)-e.rlen, int(e.floor-r.Start), 0); k < held {
		i := e.idx(p, r.Start+core.Frame(k))
		for ; k < held; k++ {
			if e.vals[i] != vals[k] {
				e.stats.Equivocations++
				e.event(core.EquivocationEvent{Peer: from, Player: r.Player, Frame: r.Start + core.Frame(k)})
				break // one event per run: the first contradiction
			}
			if i += step; i >= wrap {
				i -= wrap
			}
		}
	}

	// Tail: values of frames old, old+1, ..., up to an agreed disconnect
	// frame. A run starting past old would leave a gap: nothing is stored.
	if held < 0 || held >= len(vals) {
		return
	}
	add := vals[held:]
	if e.agreed[p] {
		add = add[:min(len(add), max(int(e.goneAt[p]-old), 0))]
		if len(add) == 0 {
			return
		}
	}
	i := e.idx(p, old)
	for _, v := range add {
		e.vals[i] = v
		if i += step; i >= wrap {
			i -= wrap
		}
	}
	n := old + core.Frame(len(add))
	e.next[p] = n
	e.knownDirty = true
	e.peers[from].inputLead = n - 1 - e.frame
	if old < e.frame { // rescan looks only at frames already simulated
		e.rescan(p, old)
	}
	for k := range add {
		if add[k].Control.command == commandReturn {
			e.applyReturn(p, old+core.Frame(k), add[k].Control)
		}
	}
	if e.retAt[p] != never {
		e.settle(e.owner[p]) // the inputs up to the disconnect frame may be complete now
	}
}

// check validates m without changing anything. The happy path makes no
// call and builds no error.
func (e *Engine[S, I]) check(from core.PeerID, m *Message[Slot[I]]) error {
	q := &e.peers[from]
	limit := e.frame + e.horizon
	// bad(f) is f < 0 || f > limit in one unsigned comparison.
	ulimit := uint32(limit)
	if uint32(m.Frame) > ulimit {
		return e.frameErr(from, "Frame", m.Frame)
	}
	if m.NoStamp && m.HasEcho {
		return e.msgErr(from, "HasEcho", "an echo without a stamp")
	}
	if m.Gone>>uint(e.players) != 0 {
		return e.msgErr(from, "Gone", "mask %#x names players past %d", int64(m.Gone), int64(e.players-1))
	}
	for _, h := range m.Held[:e.players] {
		if uint32(h) > ulimit {
			return e.frameErr(from, "Held", h)
		}
	}
	if len(m.Inputs) > e.players {
		return e.msgErr(from, "Inputs", "%d runs for %d players", int64(len(m.Inputs)), int64(e.players))
	}
	var seen uint32
	for i := range m.Inputs {
		r := &m.Inputs[i]
		p := r.Player
		switch {
		case p < 0 || int(p) >= e.players:
			return e.msgErr(from, "Inputs", "player %d is outside 0..%d", int64(p), int64(e.players-1))
		case seen&(1<<p) != 0:
			return e.msgErr(from, "Inputs", "two runs for player %d", int64(p))
		case e.local[p]:
			return e.msgErr(from, "Inputs", "run for local player %d", int64(p))
		case m.Gone&(1<<p) == 0 && q.ownMask&(1<<p) == 0:
			return e.msgErr(from, "Inputs", "run for player %d, which the peer neither owns nor declared disconnected", int64(p))
		case len(r.Values) > maxRunLimit:
			return e.msgErr(from, "Inputs", "run of %d inputs exceeds %d", int64(len(r.Values)), maxRunLimit)
		case uint32(r.Start) > ulimit:
			return e.frameErr(from, "Inputs", r.Start)
		case r.Start+core.Frame(len(r.Values)) > limit:
			return e.frameErr(from, "Inputs", r.Start+core.Frame(len(r.Values)))
		}
		seen |= 1 << p
	}
	n := core.Frame(e.cfg.ChecksumInterval)
	if len(m.Checksums) > maxSumsPerMessage*2 {
		return e.msgErr(from, "Checksums", "%d reports exceed %d", int64(len(m.Checksums)), maxSumsPerMessage*2)
	}
	for _, r := range m.Checksums {
		if r.Frame < 0 || r.Frame > limit {
			return e.frameErr(from, "Checksums", r.Frame)
		}
		if !isCheckFrame(r.Frame, int(n)) {
			return e.msgErr(from, "Checksums", "frame %d is not a multiple of the checksum interval %d", int64(r.Frame), int64(n))
		}
	}
	if m.ChecksumAck < 0 || m.ChecksumAck > limit {
		return e.frameErr(from, "ChecksumAck", m.ChecksumAck)
	}
	if len(m.Blocks.Hashes) > 0 {
		b := &m.Blocks
		if err := e.checkRange(from, "Blocks", b.Frame, b.Offset, b.Length); err != nil {
			return err
		}
		if b.BlockSize != blockSizeFor(b.Length) || len(b.Hashes) != blockCount(b.Length) {
			return e.msgErr(from, "Blocks", "block size %d and count %d do not fit a %d-byte range", int64(b.BlockSize), int64(len(b.Hashes)), int64(b.Length))
		}
	}
	for i := range m.Answers {
		a := &m.Answers[i]
		if a.Length == 0 {
			break // the list ends at the first empty entry
		}
		if err := e.checkRange(from, "Answers", a.Frame, a.Offset, a.Length); err != nil {
			return err
		}
		if k := blockCount(a.Length); (k < 64 && a.Differ>>k != 0) || (a.Unavailable && a.Differ != 0) {
			return e.msgErr(from, "Answers", "answer %d: mask %#x does not fit %d blocks", int64(i), int64(a.Differ), int64(k))
		}
	}
	return nil
}

// checkRange checks the frame and byte range of a desync query or answer.
func (e *Engine[S, I]) checkRange(from core.PeerID, field string, f core.Frame, off, n int) error {
	if f < 0 || f > e.frame+e.horizon {
		return e.frameErr(from, field, f)
	}
	if c := e.cfg.ChecksumInterval; !isCheckFrame(f, c) {
		return e.msgErr(from, field, "frame %d is not a multiple of the checksum interval %d", int64(f), int64(c))
	}
	if size := sizeOf[world[S]](); off < 0 || n < 1 || off > size-n {
		return e.msgErr(from, field, "range %d+%d is outside the %d-byte state", int64(off), int64(n), int64(size))
	}
	return nil
}

// msgErr returns the engine's MessageError, set to field of peer from and
// the reason why, a format whose integer verbs take args: it allocates
// nothing, so a peer that sends bad messages costs no garbage.
func (e *Engine[S, I]) msgErr(from core.PeerID, field, why string, args ...int64) error {
	return e.reject(from, field, nil, why, args...)
}

// frameErr reports a negative or far-future frame.
func (e *Engine[S, I]) frameErr(from core.PeerID, field string, f core.Frame) error {
	if f < 0 {
		return e.reject(from, field, ErrNegativeFrame, "frame %d is negative", int64(f))
	}
	return e.reject(from, field, ErrFarFuture, "frame %d is more than %d frames past %d", int64(f), int64(e.horizon), int64(e.frame))
}

func (e *Engine[S, I]) reject(from core.PeerID, field string, kind error, why string, args ...int64) error {
	r := &e.rejected
	*r = MessageError{Peer: from, Field: field, why: why, kind: kind}
	r.n = copy(r.args[:], args)
	return r
}
