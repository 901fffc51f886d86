package engine

import "github.com/rollstep/rollstep/core"

// Desync detection compares checksums of confirmed frames only: a
// confirmed frame is never simulated again, so a mismatch is a real
// divergence, never an artefact of prediction or rollback.

const (
	sumSlots          = 128 // checksum reports kept per ring
	maxSumsPerMessage = 8   // checksum reports per message
	maxBlocks         = 64  // block hashes per BlockReport
	maxPaths          = 16  // field paths per event
)

// sumEntry is a checksum of the state after frame, valid when ok.
type sumEntry struct {
	frame    core.Frame
	sum      uint64
	ok       bool
	compared bool
}

// sumRing keeps checksums by frame/N modulo sumSlots.
type sumRing struct{ e []sumEntry }

func newSumRing() sumRing { return sumRing{e: make([]sumEntry, sumSlots)} }

func (r *sumRing) slot(f core.Frame, n int) *sumEntry { return &r.e[ckey(f, n)&(sumSlots-1)] }

// ckey numbers checksum frames: frame f (a multiple of n) is the
// ckey(f, n)-th. It avoids the division in the common case n == 1.
func ckey(f core.Frame, n int) int {
	if n == 1 {
		return int(f)
	}
	return int(f) / n
}

// isCheckFrame reports whether frame f is checksummed with interval n.
func isCheckFrame(f core.Frame, n int) bool { return n == 1 || int(f)%n == 0 }

func (r *sumRing) put(f core.Frame, n int, sum uint64) *sumEntry {
	s := r.slot(f, n)
	*s = sumEntry{frame: f, sum: sum, ok: true}
	return s
}

func (r *sumRing) get(f core.Frame, n int) (*sumEntry, bool) {
	s := r.slot(f, n)
	return s, s.ok && s.frame == f
}

// Checksum returns the checksum of the state after confirmed frame f, the
// one every peer compares to detect a desync (the game's state together
// with the match's pause and speed state). ok is false unless f is
// checksummed (a multiple of Config.ChecksumInterval, with checksums on),
// confirmed, and among the newest 128 checksummed frames.
func (e *Engine[S, I]) Checksum(f core.Frame) (sum uint64, ok bool) {
	if f < 0 || f >= e.checked || e.cfg.DisableChecksums {
		return 0, false
	}
	s, ok := e.sums.get(f, e.cfg.ChecksumInterval)
	if !ok {
		return 0, false
	}
	return s.sum, true
}

// sumLog is the engine's own checksums.
type sumLog = sumRing

func newSumLog() sumLog { return newSumRing() }

// stateAfter returns the state after frame c, which must be confirmed and
// below the current frame: the current state, or the saved start of c+1.
func (e *Engine[S, I]) stateAfter(c core.Frame) (*world[S], bool) {
	if c+1 == e.frame {
		return &e.cur, true
	}
	if e.ring == nil {
		return nil, false
	}
	return e.ring.Peek(int32(c + 1))
}

// confirmUpTo processes every frame that became confirmed since the last
// call: it logs its inputs and checksums it.
func (e *Engine[S, I]) confirmUpTo() { e.confirmTo(e.confirmedEnd()) }

// logFrame logs the inputs of confirmed frame c.
func (e *Engine[S, I]) logFrame(c core.Frame) {
	ins, slots := e.log.row(c, e.ran[c&e.rmask])
	for p := range ins {
		v := e.inputFor(p, c)
		ins[p] = v
		slots[p] = Slot[I]{Control: e.controlFor(p, c), Value: v.Value}
	}
}

// confirmTo is confirmUpTo for a caller that already has end =
// confirmedEnd().
func (e *Engine[S, I]) confirmTo(end core.Frame) {
	n := e.cfg.ChecksumInterval
	if e.goneMask != 0 { // only a gone peer can hold such copies
		e.releaseGone() // copies kept for the searches of peers now gone (narrow.go)
	}
	if e.log.keep == 0 && e.cfg.DisableChecksums {
		for c := e.checked; c < end; c++ {
			e.confirmControl(c)
		}
		e.checked = max(e.checked, end)
		if e.unsettled != 0 {
			e.settleAll()
		}
		return // nothing to log or checksum
	}
	for c := e.checked; c < end; c++ {
		e.confirmControl(c)
		if e.log.keep > 0 {
			e.logFrame(c)
		}
		if e.cfg.DisableChecksums || !isCheckFrame(c, n) {
			continue
		}
		st, ok := e.stateAfter(c)
		if !ok {
			e.stats.UncheckedFrames++
			continue
		}
		sum := checksumOf(st)
		e.stats.Checksums++
		e.sums.put(c, n, sum)
		if e.snaps != nil {
			e.snaps.Save(int32(ckey(c, n)), st)
		}
		for i := range e.peers {
			q := &e.peers[i]
			if r, ok := q.recv.get(c, n); ok && !r.compared && c < q.sumsBefore {
				r.compared = true
				e.compare(core.PeerID(i), c, sum, r.sum)
			}
		}
	}
	e.checked = max(e.checked, end)
	if e.unsettled != 0 {
		e.settleAll()
	}
}

// compare reports the first mismatch with each peer.
func (e *Engine[S, I]) compare(id core.PeerID, c core.Frame, local, remote uint64) {
	q := &e.peers[id]
	if local == remote || q.desynced {
		return
	}
	q.desynced = true
	n := e.cfg.ChecksumInterval
	ev := core.DesyncEvent[S]{Peer: id, Frame: c, Since: max(0, c-core.Frame(n)+1), Local: local, Remote: remote}
	var st *world[S]
	if e.snaps != nil {
		if s, ok := e.snaps.Peek(int32(ckey(c, n))); ok {
			st = s
			cp := new(S)
			*cp = st.Game
			ev.Snapshot = cp
		}
	}
	e.stats.Desyncs++
	e.event(ev)
	e.startHunt(id, c, st)
}

// receiveSums stores a peer's checksum reports and compares those whose
// local checksum is known.
//
// recvNext, which the peer sees as our ChecksumAck, waits for every report
// in order; but the peer resends only the reports its ring still holds,
// the newest sumSlots. A report of frame r therefore means that reports
// below r-(sumSlots-1)·n will never come again (every copy was lost):
// recvNext skips them, counted in Stats.SkippedReports, so that one lost
// report cannot stop the comparisons of all later frames.
func (e *Engine[S, I]) receiveSums(id core.PeerID, reports []ChecksumReport) {
	q := &e.peers[id]
	n := e.cfg.ChecksumInterval
	for _, r := range reports {
		if lo := r.Frame - core.Frame((sumSlots-1)*n); lo > q.recvNext {
			for c := q.recvNext; c < lo; c += core.Frame(n) {
				if _, ok := q.recv.get(c, n); !ok {
					e.stats.SkippedReports++
				}
			}
			q.recvNext = lo
		}
		if r.Frame < q.recvNext || r.Frame >= q.recvNext+core.Frame(sumSlots*n) {
			continue
		}
		if old, ok := q.recv.get(r.Frame, n); ok && old.compared {
			continue
		}
		ent := q.recv.put(r.Frame, n, r.Sum)
		if r.Frame < e.checked && r.Frame < q.sumsBefore {
			if mine, ok := e.sums.get(r.Frame, n); ok {
				ent.compared = true
				e.compare(id, r.Frame, mine.sum, r.Sum)
			}
		}
	}
	for {
		if _, ok := q.recv.get(q.recvNext, n); !ok {
			break
		}
		q.recvNext += core.Frame(n)
	}
}
