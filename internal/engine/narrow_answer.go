package engine

import (
	"slices"

	"github.com/rollstep/rollstep/core"
)

// The answerer's side of the desync search (see narrow.go).
//
// The peers may detect the desync at different frames (checksum reports
// arrive out of order), so the answerer may be asked about a frame it
// holds no detection copy of. It answers from, in order: a copy of its
// state after F already held for any search (its own detections' copies,
// and the copies below; one per frame, shared), else its retained
// snapshots (Config.SnapshotRetention), which roll over during a long
// search. So the first time it answers a query from the retained
// snapshots, it keeps a copy of that state (mirror.copy) for the rest of
// the peer's search.
//
// The answerer knows when that search ends because it replays it (mirror):
// it applies each of its answers to its own search state as the querier
// does. It has sent every answer the querier has, so the replay is always
// at least as far as the querier, and since every stopping rule only
// becomes true as answers are applied, whatever their order, the replay
// knows the search has ended no later than the querier (more than
// maxPaths fields named, no range unresolved, maxQueries queries
// answered: the querier can make no other). The querier may then still
// wait for some answers, and gets them from q.answers, which needs no
// state; a query it makes after the replay ended, for a range not
// answered yet, is never needed to end its search. So the copy is released
// then, when the peer is declared gone (at the next confirmed frame), or
// when the peer starts a search at another frame. A query that is neither
// answered already nor an unresolved range of the replay is stale, or
// needless after the replay ended, and is not answered: no released copy
// is needed again.
//
// An explicit "search done" signal from the querier would need its own
// repetition and acknowledgement to survive loss, and a lost one would
// hold the copy until the peer leaves; the replay needs nothing on the
// wire.
//
// Memory bound: besides its detection copies, an engine holds at most
// maxLent such copies (distinct frames) at once, whatever the number of
// peers and the length of the match. A query for yet another frame is
// answered from the retained snapshots, as without the copies, and its
// search may end with the peer's state expired. Each peer keeps at most
// maxQueries answers.

const (
	answerResends = 4 // messages that repeat an answer after each copy of its query
	maxLent       = 2 // copies held to answer peers' searches at once
)

// mirror is the answerer's replay of the peer's search. While on, the
// replay is in step with the peer's search of frame, and done reports
// that it has ended. copy is our state after frame, kept from the
// retained snapshots for the rest of the peer's search (read-only, shared
// by frame like q.snap), or nil.
type mirror struct {
	on, done bool
	search
	copy []byte
}

// answered is an answer to one of the peer's queries; send is the number
// of messages that will still carry it.
type answered struct {
	BlockAnswer
	send int
}

// heldSnap returns the copy of our state after frame f held for a desync
// search, or nil; lent reports that it is held only for a peer's search
// (a mirror.copy). The copies are read-only once made.
func (e *Engine[S, I]) heldSnap(f core.Frame) (b []byte, lent bool) {
	for i := range e.peers {
		if q := &e.peers[i]; q.snap != nil && q.snapFrame == f {
			return q.snap, false
		}
	}
	for i := range e.peers {
		if m := &e.peers[i].hunt.theirs; m.copy != nil && m.frame == f {
			return m.copy, true
		}
	}
	return nil, false
}

// lentCopies returns the number of distinct copies held to answer the
// peers' searches (one per frame, as they are shared), at most maxLent.
func (e *Engine[S, I]) lentCopies() int {
	n := 0
	for i := range e.peers {
		m := &e.peers[i].hunt.theirs
		if m.copy == nil {
			continue
		}
		shared := false
		for j := range i {
			if o := &e.peers[j].hunt.theirs; o.copy != nil && o.frame == m.frame {
				shared = true
				break
			}
		}
		if !shared {
			n++
		}
	}
	return n
}

// releaseGone drops the copies held to answer peers declared gone: they
// will never query again.
func (e *Engine[S, I]) releaseGone() {
	for i := range e.peers {
		if q := &e.peers[i]; q.gone && q.hunt.theirs.on {
			q.hunt.theirs.on, q.hunt.theirs.copy = false, nil
		}
	}
}

// answerQuery answers the peer's query b (already validated) from our state
// after b.Frame, unless that frame is not confirmed here yet or the query
// is stale, and follows the peer's search (see mirror).
func (e *Engine[S, I]) answerQuery(id core.PeerID, b *BlockReport) {
	q := &e.peers[id]
	r := span{b.Offset, b.Length}
	if q.resend(b.Frame, r) {
		return
	}
	m := &q.hunt.theirs
	whole := r == span{0, sizeOf[world[S]]()}
	switch {
	case m.on && m.frame == b.Frame:
		if _, ok := m.find(r); m.done || !ok {
			return // stale, or needless: the replay has ended
		}
	case whole:
		// The peer's first query: follow its search, once answered.
	default:
		m.on, m.copy = false, nil // not in step: answer without following
	}
	src, lent := e.heldSnap(b.Frame)
	kept := false // src is e.rawTmp, from the retained snapshots
	switch {
	case src != nil:
	case b.Frame >= e.checked:
		return // not confirmed here yet: the query repeats
	case e.snaps != nil:
		if st, ok := e.snaps.Peek(int32(ckey(b.Frame, e.cfg.ChecksumInterval))); ok {
			e.rawTmp = rawOf(st, e.rawTmp[:0])
			src, kept = e.rawTmp, true
		}
	}
	a := BlockAnswer{Frame: b.Frame, Offset: b.Offset, Length: b.Length, Unavailable: src == nil}
	if src != nil {
		e.blockTmp = hashBlocks(src, r, e.blockTmp[:0])
		for i, h := range e.blockTmp {
			if h != b.Hashes[i] {
				a.Differ |= 1 << i
			}
		}
	}
	if whole && !(m.on && m.frame == b.Frame) {
		m.on, m.done, m.copy = true, false, nil
		beginSearch[world[S]](&m.search, b.Frame)
		q.answers = q.answers[:0] // those of a search the peer has left
	}
	q.remember(a)
	if !m.on {
		return
	}
	ok := src != nil // an Unavailable answer ends the peer's search
	if ok {
		apply[world[S]](&m.search, r, a.Differ)
		m.queries++
		ok = !(len(m.paths) > maxPaths || len(m.stack) == 0 || m.queries == maxQueries)
	}
	switch {
	case !ok:
		m.done, m.copy = true, nil
	case lent:
		m.copy = src // shared with the other peers searching the frame
	case kept && e.lentCopies() < maxLent:
		m.copy = slices.Clone(src)
	}
}

// resend reports whether we have answered the peer's query of range r of
// frame f, and if so repeats the answer in the next answerResends
// messages.
func (q *peer[I]) resend(f core.Frame, r span) bool {
	for k := range q.answers {
		if a := &q.answers[k]; a.Frame == f && a.Offset == r.off && a.Length == r.n {
			x := *a
			x.send = answerResends
			// The most recently asked last: messages carry those first.
			q.answers = append(slices.Delete(q.answers, k, k+1), x)
			return true
		}
	}
	return false
}

// remember keeps a new answer to repeat in the next answerResends
// messages. A peer's search makes at most maxQueries queries, so the
// oldest answer is dropped only for a peer not in step with its replay.
func (q *peer[I]) remember(a BlockAnswer) {
	if len(q.answers) == maxQueries {
		q.answers = slices.Delete(q.answers, 0, 1)
	}
	q.answers = append(q.answers, answered{a, answerResends})
}

// putAnswers fills m.Answers with the answers due, most recently asked
// first, and counts them sent.
func (q *peer[I]) putAnswers(m *Message[I]) {
	m.Answers = [MaxAnswers]BlockAnswer{}
	n := 0
	for k := len(q.answers) - 1; k >= 0 && n < MaxAnswers; k-- {
		if a := &q.answers[k]; a.send > 0 {
			a.send--
			m.Answers[n] = a.BlockAnswer
			n++
		}
	}
}
