package core

import "slices"

// The desync search narrows a checksum mismatch down to the differing
// fields without sending the state. Each engine searches its own
// detection (the querier) and answers its peers' searches (the answerer):
//
//  1. On a desync with peer p at frame F, the querier copies its retained
//     state after F (q.snap) and pushes the whole state as a range known
//     to differ.
//  2. It pops the next range in memory order. A range inside one leaf
//     field names that field. Any other range becomes the query: its
//     Length is cut into at most 64 blocks of ceil(Length/64) bytes, and
//     Message.Blocks carries their hashes in every message to p until the
//     answer arrives.
//  3. The answerer hashes the same blocks of its own state after F and
//     sets bit i of Message.Answer.Differ for each block that differs; it
//     repeats the answer in the next answerResends messages after each copy
//     of the query it receives. A query for a frame it has not confirmed
//     yet waits; one for a frame whose state it no longer holds gets an
//     Unavailable answer.
//  4. The querier pushes the differing blocks and goes on at step 2.
//     Blocks shrink 64-fold per round, so a range reaches one leaf field
//     or single bytes after about log64(size) rounds.
//
// It stops with a DesyncFieldsEvent when no range is left, when it has
// found more than maxPaths fields, after maxQueries queries, on an
// Unavailable answer, or when the peer is declared disconnected. Every
// named field holds a byte whose hash differs, so no name is guessed.
// Queries and answers are pure functions of the range and the two states,
// so loss, duplication and reordering only delay the search: a stale or
// duplicate answer does not match the pending query and is dropped, and a
// duplicate query gets the same answer.
//
// # The answerer's copies
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
// the querier's next query is a pure function of the answers it got,
// which the answerer computed, so running the same steps 2 and 4 on its
// own answers yields the query the peer sends next, and the point where
// its search stops. The copy is released then (the final answer stays in
// the answer cache, q.ans), when the peer is declared gone (at the next
// confirmed frame), or when the peer starts a search at another frame. A
// query that is neither the cached one nor the one the replay expects is
// stale, as the querier asks the next only once it has the previous
// answer, so it is not answered: the cache keeps serving the current one
// and no released copy is needed again.
//
// Memory bound: besides its detection copies, an engine holds at most
// maxLent such copies (distinct frames) at once, whatever the number of
// peers and the length of the match. A query for yet another frame is
// answered from the retained snapshots, as without the copies, and its
// search may end with the peer's state expired.

const (
	maxQueries    = 64 // queries per search
	answerResends = 4  // messages that repeat an answer after each query
	maxLent       = 2  // copies held to answer peers' searches at once
)

// span is a byte range [off, off+n) of the state.
type span struct{ off, n int }

// search is the progress of one desync search of the state after frame:
// the querier's own, or the answerer's replay of it. stack holds ranges
// known to differ, the next one (lowest in memory) on top, so paths come
// out in memory order; queries counts the queries made.
type search struct {
	frame   Frame
	stack   []span
	queries int
	paths   []string
	reason  string // why the search stopped early, or ""
}

// hunt is one engine's search for the fields that differ from one peer,
// and its replay of the peer's search of ours (theirs). While active,
// query is the pending range and hashes our hashes of its blocks (a fresh
// array per query, as messages share it).
type hunt struct {
	active bool
	search
	query  span
	hashes []uint64
	theirs mirror
}

// mirror is the answerer's replay of the peer's search. While on, the
// replay is in step with the peer's search of frame: done reports that
// the peer's search has ended, else want is the query the peer sends
// next; the query answered last is the one in q.ans. copy is our state
// after frame, kept from the retained snapshots for the rest of the
// peer's search (read-only, shared by frame like q.snap), or nil.
type mirror struct {
	on, done bool
	search
	want span
	copy []byte
}

// blockSizeFor returns the block size that cuts a range of length bytes
// into at most maxBlocks blocks: ceil(length/maxBlocks), at least 1.
func blockSizeFor(length int) int { return max(1, (length+maxBlocks-1)/maxBlocks) }

// blockCount returns the number of blocks of a range of length bytes.
func blockCount(length int) int {
	bs := blockSizeFor(length)
	return (length + bs - 1) / bs
}

// hashBlocks appends the hashes of the blocks of range r of b to dst.
func hashBlocks(b []byte, r span, dst []uint64) []uint64 {
	bs := blockSizeFor(r.n)
	end := r.off + r.n
	for lo := r.off; lo < end; lo += bs {
		dst = append(dst, hashOf(b[lo:min(lo+bs, end)]))
	}
	return dst
}

// begin resets s to a search of frame f of a state of size bytes, keeping
// the stack's array.
func (s *search) begin(f Frame, size int) {
	*s = search{frame: f, stack: append(s.stack[:0], span{0, size})}
}

// nextQuery pops ranges until one needs a query and returns it, counted;
// ok is false when the search is over (s.reason says why if it stopped
// early). Ranges inside one leaf field of S become paths.
func nextQuery[S any](s *search) (r span, ok bool) {
	for len(s.stack) > 0 && len(s.paths) <= maxPaths {
		r := s.stack[len(s.stack)-1]
		first, _ := fieldAtOf[S](r.off)
		if last, _ := fieldAtOf[S](r.off + r.n - 1); first == last {
			s.stack = s.stack[:len(s.stack)-1]
			if len(s.paths) == 0 || s.paths[len(s.paths)-1] != first {
				s.paths = append(s.paths, first)
			}
			continue
		}
		if s.queries == maxQueries {
			s.reason = "the search reached its bound of 64 queries"
			return span{}, false
		}
		s.stack = s.stack[:len(s.stack)-1]
		s.queries++
		return r, true
	}
	return span{}, false
}

// push applies the answer differ to query r: each differing block becomes
// a range, the lowest on top.
func (s *search) push(r span, differ uint64) {
	bs := blockSizeFor(r.n)
	for i := blockCount(r.n) - 1; i >= 0; i-- {
		if differ&(1<<i) != 0 {
			lo := r.off + i*bs
			s.stack = append(s.stack, span{lo, min(bs, r.off+r.n-lo)})
		}
	}
}

// startHunt begins the search for the fields that differ from peer id at
// frame f, given our state after f, or reports at once that it expired.
func (e *Engine[S, I]) startHunt(id PeerID, f Frame, st *S) {
	q := &e.peers[id]
	if st == nil {
		e.event(DesyncFieldsEvent{Peer: id, Frame: f, Incomplete: true, Reason: "the local state of the frame has expired"})
		return
	}
	q.snap, q.snapFrame = e.snapAfter(f, st), f
	h := &q.hunt
	h.active, h.query, h.hashes = true, span{}, nil
	h.begin(f, len(q.snap))
	e.huntNext(id)
}

// snapAfter returns the canonical bytes of st, our state after confirmed
// frame f. A confirmed frame is never simulated again, so every peer that
// desyncs at f shares one copy: the memory held stays one state per
// desynced frame, however many peers desync at it.
func (e *Engine[S, I]) snapAfter(f Frame, st *S) []byte {
	if b, _ := e.heldSnap(f); b != nil {
		return b
	}
	return rawOf(st, nil)
}

// heldSnap returns the copy of our state after frame f held for a desync
// search, or nil; lent reports that it is held only for a peer's search
// (a mirror.copy). The copies are read-only once made.
func (e *Engine[S, I]) heldSnap(f Frame) (b []byte, lent bool) {
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

// huntNext pops ranges until one needs a query, or ends the search.
func (e *Engine[S, I]) huntNext(id PeerID) {
	q := &e.peers[id]
	h := &q.hunt
	r, ok := nextQuery[S](&h.search)
	if !ok {
		e.huntDone(id)
		return
	}
	h.query = r
	// A new array: the previous one may still be in a Ready's message.
	h.hashes = hashBlocks(q.snap, r, make([]uint64, 0, blockCount(r.n)))
}

// huntAnswer applies the peer's answer to our pending query.
func (e *Engine[S, I]) huntAnswer(id PeerID, a *BlockAnswer) {
	h := &e.peers[id].hunt
	if !h.active || a.Frame != h.frame || a.Offset != h.query.off || a.Length != h.query.n {
		return // stale, duplicate or not ours
	}
	if a.Unavailable {
		h.reason = "the peer's state of the frame has expired"
		h.stack = h.stack[:0]
		e.huntDone(id)
		return
	}
	h.push(h.query, a.Differ)
	e.huntNext(id)
}

// huntDone raises the DesyncFieldsEvent and ends the search. Our copy of
// the state stays, to answer the peer's own search.
func (e *Engine[S, I]) huntDone(id PeerID) {
	h := &e.peers[id].hunt
	h.active = false
	paths := h.paths
	switch {
	case len(paths) > maxPaths:
		paths = paths[:maxPaths]
		h.reason = "more than 16 fields differ"
	case h.reason == "" && len(paths) == 0:
		h.reason = "no block hash differs"
	}
	e.event(DesyncFieldsEvent{Peer: id, Frame: h.frame, Paths: paths, Incomplete: h.reason != "", Reason: h.reason})
	h.paths = nil // the event owns them
}

// answerQuery answers the peer's query b (already validated) from our state
// after b.Frame, unless that frame is not confirmed here yet or the query
// is stale, and follows the peer's search (see mirror).
func (e *Engine[S, I]) answerQuery(id PeerID, b *BlockReport) {
	q := &e.peers[id]
	if a := &q.ans; a.Length != 0 && a.Frame == b.Frame && a.Offset == b.Offset && a.Length == b.Length {
		q.ansSend = answerResends
		return
	}
	m := &q.hunt.theirs
	r := span{b.Offset, b.Length}
	switch {
	case m.on && m.frame == b.Frame:
		if m.done || r != m.want {
			return // stale: the peer has the answer and asks another
		}
	case r == span{0, sizeOf[S]()}:
		// The peer's first query: follow its search.
		m.on, m.done, m.copy = true, false, nil
		m.begin(b.Frame, r.n)
		m.want, _ = nextQuery[S](&m.search)
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
	q.ans, q.ansSend = a, answerResends
	if !m.on {
		return
	}
	ok := src != nil // an Unavailable answer ends the peer's search
	if ok {
		m.push(r, a.Differ)
		m.want, ok = nextQuery[S](&m.search)
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
