package engine

import (
	"slices"

	"github.com/rollstep/rollstep/core"
)

// The desync search narrows a checksum mismatch down to the differing
// fields without sending the state. Each engine searches its own
// detection (the querier) and answers its peers' searches (the answerer):
//
//  1. On a desync with peer p at frame F, the querier copies its retained
//     state after F (q.snap); the whole state is the first range known to
//     differ.
//  2. A range inside one leaf field names that field. Any other range is
//     unresolved, and becomes a query: its Length is cut into at most 64
//     blocks of ceil(Length/64) bytes. The querier keeps up to
//     maxInFlight queries pending, always the lowest unresolved ranges in
//     memory order that are not pending yet, and puts one of them in each
//     message to p (Message.Blocks), the one sent least recently, so each
//     rides in every few messages until its answer arrives.
//  3. The answerer hashes the same blocks of its own state after F and
//     sets bit i of the answer's Differ for each block that differs. It
//     answers every query it receives, keeps every answer of the peer's
//     search (q.answers), and repeats one in the next answerResends
//     messages after each copy of its query, up to MaxAnswers answers a
//     message (Message.Answers). A query for a frame it has not confirmed
//     yet waits; one for a frame whose state it no longer holds gets an
//     Unavailable answer.
//  4. The querier replaces the answered range by its differing blocks and
//     goes on at step 2. Blocks shrink 64-fold per round, so a range
//     reaches one leaf field or single bytes after about log64(size)
//     rounds, and the pending queries overlap those rounds' round trips.
//
// Answers arrive in any order, so fields may be named above a range that
// is still unresolved. They wait in search.ahead and join search.paths,
// which is in memory order, once every range below them is resolved: the
// named fields are always the first ones in memory, whatever the order of
// the answers and wherever the search stops.
//
// It stops with a DesyncFieldsEvent when no range is unresolved, when
// more than maxPaths fields are named in paths, when maxQueries queries
// were made and none is pending, on an Unavailable answer, or when the
// peer is declared disconnected. Every named field holds a byte whose
// hash differs, so no name is guessed. Queries and answers are pure
// functions of the range and the two states, so loss, duplication and
// reordering only delay the search: an answer that matches no pending
// query is dropped, and a duplicate query gets the same answer.
//
// Which queries are made, and so the result, does not depend on the
// order of the answers unless a bound stops the search: then a query may
// have gone to a range above one that an answer still on its way would
// have split, and the search ends with fewer fields named than one query
// at a time would have (never different ones). Once more than maxPaths
// fields are known, ranges above the (maxPaths+1)-th are not queried:
// they cannot change the result.
//
// The answerer's side, and how it knows when the querier's search has
// ended, is in narrow_answer.go.

const (
	maxQueries  = 64 // queries per search
	maxInFlight = 16 // queries pending at once
)

// span is a byte range [off, off+n) of the state.
type span struct{ off, n int }

// named is a field named at byte off of the state.
type named struct {
	off  int
	path string
}

// search is the progress of one desync search of the state after frame:
// the querier's own, or the answerer's replay of it. stack holds the
// unresolved ranges (known to differ, not inside one leaf field, not
// answered yet; the querier's pending queries among them), disjoint,
// sorted by offset with the lowest on top (last). paths are the fields
// named below every unresolved range, in memory order, each once; ahead
// are those named above the lowest one, sorted by offset, each once, at
// most maxPaths+1-len(paths) of them (the lowest). queries counts the
// queries made (the querier) or answered (the replay).
type search struct {
	frame   core.Frame
	stack   []span
	queries int
	paths   []string
	ahead   []named
	reason  string // why the search stopped early, or ""
}

// hunt is one engine's search for the fields that differ from one peer,
// and its replay of the peer's search of ours (theirs). While active,
// pend[:npend] are the pending queries, in the order they were made.
type hunt struct {
	active bool
	search
	pend   [maxInFlight]query
	npend  int
	sends  int // messages that carried a query of this search
	theirs mirror
}

// query is a pending query of range span: hashes are our hashes of its
// blocks (a fresh array per query, as messages share it), sent the value
// of hunt.sends when a message last carried it (0: never).
type query struct {
	span
	hashes []uint64
	sent   int
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

// beginSearch resets s to a search of frame f of a state of S, whose
// whole range differs, keeping the arrays of stack and ahead.
func beginSearch[S any](s *search, f core.Frame) {
	*s = search{frame: f, stack: s.stack[:0], ahead: s.ahead[:0]}
	addRange[S](s, span{0, sizeOf[S]()}, 0)
	s.settle()
}

// leafOf returns the leaf field holding all of range r, if one does.
func leafOf[S any](r span) (string, bool) {
	first, _ := fieldAtOf[S](r.off)
	last, _ := fieldAtOf[S](r.off + r.n - 1)
	return first, first == last
}

// addRange records range r, known to differ: a range inside one leaf
// field names it, any other goes into the stack at index i, which must
// keep the stack sorted. It returns the index past r's.
func addRange[S any](s *search, r span, i int) int {
	if path, ok := leafOf[S](r); ok {
		s.name(r.off, path)
		return i
	}
	s.stack = slices.Insert(s.stack, i, r)
	return i + 1
}

// name records field path, named at byte off.
func (s *search) name(off int, path string) {
	i, _ := slices.BinarySearchFunc(s.ahead, off, func(a named, off int) int { return a.off - off })
	if (i > 0 && s.ahead[i-1].path == path) || (i < len(s.ahead) && s.ahead[i].path == path) {
		return // another part of a field named already
	}
	s.ahead = slices.Insert(s.ahead, i, named{off, path})
}

// find returns the index of range r in the stack.
func (s *search) find(r span) (int, bool) {
	// The stack is sorted by decreasing offset.
	i, ok := slices.BinarySearchFunc(s.stack, r.off, func(x span, off int) int { return off - x.off })
	return i, ok && s.stack[i] == r
}

// apply applies answer differ to unresolved range r: each differing
// block names a field or becomes an unresolved range. It reports false,
// changing nothing, when r is not unresolved.
func apply[S any](s *search, r span, differ uint64) bool {
	i, ok := s.find(r)
	if !ok {
		return false
	}
	s.stack = slices.Delete(s.stack, i, i+1)
	bs := blockSizeFor(r.n)
	for b := blockCount(r.n) - 1; b >= 0; b-- { // highest first, keeping the order
		if differ&(1<<b) != 0 {
			lo := r.off + b*bs
			i = addRange[S](s, span{lo, min(bs, r.off+r.n-lo)}, i)
		}
	}
	s.settle()
	return true
}

// settle moves the fields named below every unresolved range to paths and
// keeps in ahead only the fields that may still be among the first
// maxPaths+1.
func (s *search) settle() {
	k := 0
	for ; k < len(s.ahead) && (len(s.stack) == 0 || s.ahead[k].off < s.stack[len(s.stack)-1].off); k++ {
		if p := s.ahead[k].path; len(s.paths) == 0 || s.paths[len(s.paths)-1] != p {
			s.paths = append(s.paths, p)
		}
	}
	s.ahead = slices.Delete(s.ahead, 0, k)
	if keep := max(0, maxPaths+1-len(s.paths)); len(s.ahead) > keep {
		s.ahead = s.ahead[:keep]
	}
}

// needless reports whether range r is above the first maxPaths+1 fields
// named, so that its answer cannot change the result.
func (s *search) needless(r span) bool {
	n := len(s.ahead)
	return n > 0 && len(s.paths)+n > maxPaths && r.off > s.ahead[n-1].off
}

// over reports whether the search has ended, with inFlight queries
// pending; it sets reason when the query bound stopped it.
func (s *search) over(inFlight int) bool {
	switch {
	case len(s.paths) > maxPaths || len(s.stack) == 0:
		return true
	case inFlight == 0:
		if s.queries == maxQueries {
			s.reason = "the search reached its bound of 64 queries"
		}
		return true
	}
	return false
}

// startHunt begins the search for the fields that differ from peer id at
// frame f, given our state after f, or reports at once that it expired.
func (e *Engine[S, I]) startHunt(id core.PeerID, f core.Frame, st *world[S]) {
	q := &e.peers[id]
	if st == nil {
		e.event(core.DesyncFieldsEvent{Peer: id, Frame: f, Incomplete: true, Reason: "the local state of the frame has expired"})
		return
	}
	q.snap, q.snapFrame = e.snapAfter(f, st), f
	h := &q.hunt
	h.active, h.npend, h.sends = true, 0, 0
	beginSearch[world[S]](&h.search, f)
	e.huntNext(id)
}

// snapAfter returns the canonical bytes of st, our state after confirmed
// frame f. A confirmed frame is never simulated again, so every peer that
// desyncs at f shares one copy: the memory held stays one state per
// desynced frame, however many peers desync at it.
func (e *Engine[S, I]) snapAfter(f core.Frame, st *world[S]) []byte {
	if b, _ := e.heldSnap(f); b != nil {
		return b
	}
	return rawOf(st, nil)
}

// huntNext makes queries of the lowest unresolved ranges not pending
// until maxInFlight are pending, or ends the search.
func (e *Engine[S, I]) huntNext(id core.PeerID) {
	q := &e.peers[id]
	h := &q.hunt
	for i := len(h.stack) - 1; i >= 0 && h.npend < maxInFlight && h.queries < maxQueries; i-- {
		r := h.stack[i]
		if h.needless(r) {
			break // and so is every range above
		}
		if h.pending(r) >= 0 {
			continue
		}
		h.queries++
		// A new array: the previous ones may still be in a Ready's message.
		h.pend[h.npend] = query{span: r, hashes: hashBlocks(q.snap, r, make([]uint64, 0, blockCount(r.n)))}
		h.npend++
	}
	if h.over(h.npend) {
		e.huntDone(id)
	}
}

// pending returns the index of range r among the pending queries, or -1.
func (h *hunt) pending(r span) int {
	for k := range h.npend {
		if h.pend[k].span == r {
			return k
		}
	}
	return -1
}

// nextSend returns the pending query the next message carries, the one
// sent least recently (a new one first), and marks it sent.
func (h *hunt) nextSend() *query {
	k := 0
	for j := 1; j < h.npend; j++ {
		if h.pend[j].sent < h.pend[k].sent {
			k = j
		}
	}
	h.sends++
	h.pend[k].sent = h.sends
	return &h.pend[k]
}

// huntAnswer applies the peer's answer to one of our pending queries.
func (e *Engine[S, I]) huntAnswer(id core.PeerID, a *BlockAnswer) {
	h := &e.peers[id].hunt
	if !h.active || a.Frame != h.frame {
		return
	}
	k := h.pending(span{a.Offset, a.Length})
	if k < 0 {
		return // stale, duplicate or not ours
	}
	if a.Unavailable {
		h.reason = "the peer's state of the frame has expired"
		h.stack = h.stack[:0]
		e.huntDone(id)
		return
	}
	r := h.pend[k].span
	h.npend = copy(h.pend[k:h.npend], h.pend[k+1:h.npend]) + k
	h.pend[h.npend] = query{}
	apply[world[S]](&h.search, r, a.Differ)
	e.huntNext(id)
}

// huntDone raises the DesyncFieldsEvent and ends the search. Our copy of
// the state stays, to answer the peer's own search.
func (e *Engine[S, I]) huntDone(id core.PeerID) {
	h := &e.peers[id].hunt
	h.active = false
	h.pend, h.npend = [maxInFlight]query{}, 0
	paths := h.paths
	switch {
	case len(paths) > maxPaths:
		paths = paths[:maxPaths]
		h.reason = "more than 16 fields differ"
	case h.reason == "" && len(paths) == 0:
		h.reason = "no block hash differs"
	}
	e.event(core.DesyncFieldsEvent{Peer: id, Frame: h.frame, Paths: paths, Incomplete: h.reason != "", Reason: h.reason})
	h.paths = nil // the event owns them
}
