package core

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
//  3. The answerer hashes the same blocks of its own state after F (its
//     copy from its own detection, else its retained snapshots) and sets
//     bit i of Message.Answer.Differ for each block that differs; it
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
// Unavailable answer, or when the peer is declared disconnected. Every named field holds a byte whose hash differs, so
// no name is guessed. Queries and answers are pure functions of the range
// and the two states, so loss, duplication and reordering only delay the
// search: a stale or duplicate answer does not match the pending query and
// is dropped, and a duplicate query gets the same answer.

const (
	maxQueries    = 64 // queries per search
	answerResends = 4  // messages that repeat an answer after each query
)

// span is a byte range [off, off+n) of the state.
type span struct{ off, n int }

// hunt is one engine's search for the fields that differ from one peer.
// While active, query is the pending range and hashes our hashes of its
// blocks (a fresh array per query, as messages share it); stack holds
// ranges known to differ, the next one (lowest in memory) on top, so paths
// come out in memory order.
type hunt struct {
	active  bool
	frame   Frame
	query   span
	hashes  []uint64
	stack   []span
	queries int
	paths   []string
	reason  string // why the search stopped early, or ""
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

// startHunt begins the search for the fields that differ from peer id at
// frame f, given our state after f, or reports at once that it expired.
func (e *Engine[S, I]) startHunt(id PeerID, f Frame, st *S) {
	q := &e.peers[id]
	if st == nil {
		e.event(DesyncFieldsEvent{Peer: id, Frame: f, Incomplete: true, Reason: "the local state of the frame has expired"})
		return
	}
	q.snap, q.snapFrame = rawOf(st, q.snap[:0]), f
	h := &q.hunt
	*h = hunt{active: true, frame: f, stack: append(h.stack[:0], span{0, len(q.snap)})}
	e.huntNext(id)
}

// huntNext pops ranges until one needs a query, or ends the search.
func (e *Engine[S, I]) huntNext(id PeerID) {
	q := &e.peers[id]
	h := &q.hunt
	for len(h.stack) > 0 && len(h.paths) <= maxPaths {
		r := h.stack[len(h.stack)-1]
		first, _ := fieldAtOf[S](r.off)
		if last, _ := fieldAtOf[S](r.off + r.n - 1); first == last {
			h.stack = h.stack[:len(h.stack)-1]
			if len(h.paths) == 0 || h.paths[len(h.paths)-1] != first {
				h.paths = append(h.paths, first)
			}
			continue
		}
		if h.queries == maxQueries {
			h.reason = "the search reached its bound of 64 queries"
			break
		}
		h.stack = h.stack[:len(h.stack)-1]
		h.queries++
		h.query = r
		// A new array: the previous one may still be in a Ready's message.
		h.hashes = hashBlocks(q.snap, r, make([]uint64, 0, blockCount(r.n)))
		return
	}
	e.huntDone(id)
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
	r := h.query
	bs := blockSizeFor(r.n)
	for i := blockCount(r.n) - 1; i >= 0; i-- {
		if a.Differ&(1<<i) != 0 {
			lo := r.off + i*bs
			h.stack = append(h.stack, span{lo, min(bs, r.off+r.n-lo)})
		}
	}
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
// after b.Frame, unless that frame is not confirmed here yet.
func (e *Engine[S, I]) answerQuery(id PeerID, b *BlockReport) {
	q := &e.peers[id]
	if a := &q.ans; a.Length != 0 && a.Frame == b.Frame && a.Offset == b.Offset && a.Length == b.Length {
		q.ansSend = answerResends
		return
	}
	var src []byte
	switch {
	case q.snap != nil && q.snapFrame == b.Frame:
		src = q.snap
	case b.Frame >= e.checked:
		return // not confirmed here yet: the query repeats
	case e.snaps != nil:
		if st, ok := e.snaps.Peek(int32(ckey(b.Frame, e.cfg.ChecksumInterval))); ok {
			e.rawTmp = rawOf(st, e.rawTmp[:0])
			src = e.rawTmp
		}
	}
	a := BlockAnswer{Frame: b.Frame, Offset: b.Offset, Length: b.Length, Unavailable: src == nil}
	if src != nil {
		r := span{b.Offset, b.Length}
		e.blockTmp = hashBlocks(src, r, e.blockTmp[:0])
		for i, h := range e.blockTmp {
			if h != b.Hashes[i] {
				a.Differ |= 1 << i
			}
		}
	}
	q.ans, q.ansSend = a, answerResends
}
