package engine

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"strconv"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/arena"
)

// A handoff is what a returning peer's new engine starts from (see the
// returns in rejoin.go): a snapshot, the canonical bytes of the sponsor's
// confirmed state before snapshot frame S, and the handoff record, the
// confirmed inputs of S..C-1 with what the new engine must know at C.
// The record's layout, little-endian:
//
//	0   1  handoffVersion
//	1   1  players
//	2   4  S, the snapshot frame
//	6   4  C, the handoff frame: the new engine starts there
//	10  4  R, the return frame
//	14  1  a player of the returning peer
//	15  8  the checksum of the sponsor's state after frame C-1
//	23  2  the players agreed disconnected (the returning peer's excluded)
//	25  4 per player in that mask: its disconnect frame, in handle order
//	..  (C-S) frames of players slots, each the raw bytes of a Slot, with
//	    flagGone on a disconnected player's
//
// Both are bytes from the network to the peer that resumes: Resume checks
// every field and the result's checksum and returns an error wrapping
// ErrBadHandoff for anything wrong, never a partial engine.

const (
	handoffVersion = 1
	handoffHeader  = 25
)

// ErrNoSnapshot is returned by Snapshot and Handoff when the engine no
// longer holds (or never held) the confirmed state they need; a later call
// may succeed.
var ErrNoSnapshot = errors.New("rollstep: confirmed state not held")

// ErrBadHandoff is matched by every error Resume returns for a snapshot or
// handoff record that is malformed, does not fit the configuration, or
// does not reproduce the sponsor's checksum.
var ErrBadHandoff = errors.New("rollstep: bad handoff")

// HandoffError says what is wrong with a handoff; it matches ErrBadHandoff.
type HandoffError struct{ Reason string }

// Error implements error.
func (e *HandoffError) Error() string { return "rollstep: bad handoff: " + e.Reason }

// Is reports whether target is ErrBadHandoff.
func (e *HandoffError) Is(target error) bool { return target == ErrBadHandoff }

func badHandoff(why string, n ...int) error {
	for _, v := range n {
		why += " " + strconv.Itoa(v)
	}
	return &HandoffError{Reason: why}
}

// Snapshot appends the canonical bytes of the confirmed state before frame
// s, the newest frame before which everything is confirmed, to dst. It
// returns ErrNoSnapshot before frame 1 is confirmed or when that state is
// no longer held.
func (e *Engine[S, I]) Snapshot(dst []byte) (s core.Frame, out []byte, err error) {
	s = e.checked
	st, ok := e.heldStateAfter(s - 1)
	if s < 1 || !ok {
		return 0, dst, ErrNoSnapshot
	}
	return s, arena.AppendRaw(dst, st), nil
}

// heldStateAfter returns the state after confirmed frame c, from the
// current state, the rollback ring or the checksummed copies.
func (e *Engine[S, I]) heldStateAfter(c core.Frame) (*world[S], bool) {
	if c < 0 || c >= e.checked {
		return nil, false
	}
	if st, ok := e.stateAfter(c); ok {
		return st, true
	}
	if n := e.cfg.ChecksumInterval; e.snaps != nil && isCheckFrame(c, n) {
		return e.snaps.Peek(int32(ckey(c, n)))
	}
	return nil, false
}

// Handoff appends the handoff record of returning peer id to dst: the
// confirmed inputs from snapshot frame s (Snapshot's) to the newest
// confirmed frame, with the return frame and the checksum the new engine
// must reach. Call it once Returning reports the return settled here. It
// returns ErrNotReturnable, ErrFrameNotLogged when the input log no
// longer holds frame s (take a new snapshot), or ErrNoSnapshot.
func (e *Engine[S, I]) Handoff(id core.PeerID, s core.Frame, dst []byte) ([]byte, error) {
	r, settled, ok := e.Returning(id)
	if !ok || !settled {
		return dst, ErrNotReturnable
	}
	c := e.checked
	if s < 1 || s > c || e.log.keep == 0 || s < e.log.start {
		return dst, ErrFrameNotLogged
	}
	st, held := e.heldStateAfter(c - 1)
	if !held {
		return dst, ErrNoSnapshot
	}
	dst = append(dst, handoffVersion, byte(e.players))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(s))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(c))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(r))
	dst = append(dst, byte(e.peers[id].players[0]))
	dst = binary.LittleEndian.AppendUint64(dst, checksumOf(st))
	var gone uint16
	for p := 0; p < e.players; p++ {
		if e.agreed[p] {
			gone |= 1 << p
		}
	}
	dst = binary.LittleEndian.AppendUint16(dst, gone)
	for g := gone; g != 0; g &= g - 1 {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(e.goneAt[bits.TrailingZeros16(g)]))
	}
	l := &e.log
	for f := s; f < c; f++ {
		base := int(f) % l.keep * l.players
		for p := 0; p < e.players; p++ {
			sl := l.slots[base+p]
			if l.buf[base+p].Status == core.InputDisconnected {
				sl = Slot[I]{Control: Control{flags: flagGone}}
			}
			dst = arena.AppendRaw(dst, &sl)
		}
	}
	return dst, nil
}

// Resume returns the engine of a peer that comes back into a running
// match: cfg is the configuration it would have started the match with
// (its local players are the returning peer's), snapshot and handoff come
// from the sponsor's Snapshot and Handoff. It replays the handoff's inputs
// from the snapshot, checks the state it reaches against the sponsor's
// checksum, and returns an engine at the handoff frame whose local
// players' inputs are real from the return frame on. A snapshot or
// record that is malformed, does not fit cfg or does not reproduce the
// checksum returns an error matching ErrBadHandoff.
func Resume[S any, I comparable](cfg Config, game core.Game[S, I], snapshot, handoff []byte) (*Engine[S, I], error) {
	e, h, err := replayHandoff(cfg, game, snapshot, handoff)
	if err != nil {
		return nil, err
	}
	if got := checksumOf(&e.cur); got != h.sum {
		return nil, badHandoff("the replayed state does not match the sponsor's checksum")
	}
	e.start(h)
	return e, nil
}

// replayHandoff is Resume up to its checksum: a new engine of cfg whose
// state is the snapshot replayed over the handoff's inputs, and the
// parsed handoff.
func replayHandoff[S any, I comparable](cfg Config, game core.Game[S, I], snapshot, handoff []byte) (*Engine[S, I], handoffRecord, error) {
	var zero S
	e, err := NewEngine(cfg, game, &zero)
	if err != nil {
		return nil, handoffRecord{}, err
	}
	h, err := e.parseHandoff(handoff)
	if err != nil {
		return nil, h, err
	}
	if err := arena.DecodeRaw(snapshot, &e.cur); err != nil {
		return nil, h, badHandoff("snapshot: " + err.Error())
	}
	// Replay S..C-1 with the confirmed slots, as every peer simulated them.
	in, cmds := e.stepIn[:e.players], e.stepCtl[:e.players]
	sz := sizeOf[Slot[I]]()
	for f := h.s; f < h.c; f++ {
		row := h.slots[int(f-h.s)*e.players*sz:]
		for p := range in {
			var sl Slot[I]
			if err := arena.DecodeRaw(row[p*sz:(p+1)*sz], &sl); err != nil {
				return nil, h, badHandoff("slot: " + err.Error())
			}
			in[p], cmds[p] = known(&sl), sl.Control
		}
		e.fx.list, e.fx.dropped = e.fx.list[:0], 0
		e.run(&e.cur, f, in, cmds, &e.fx)
	}
	e.fx.list, e.fx.dropped = e.fx.list[:0], 0
	return e, h, nil
}

// handoffRecord is a parsed handoff record.
type handoffRecord struct {
	s, c, r core.Frame
	player  int
	sum     uint64
	gone    uint16
	goneAt  [core.MaxPlayers]core.Frame
	slots   []byte
}

// parseHandoff decodes and checks b against e's configuration.
func (e *Engine[S, I]) parseHandoff(b []byte) (handoffRecord, error) {
	var h handoffRecord
	if len(b) < handoffHeader {
		return h, badHandoff("record of " + strconv.Itoa(len(b)) + " bytes is shorter than its header")
	}
	if b[0] != handoffVersion {
		return h, badHandoff("version", int(b[0]))
	}
	if int(b[1]) != e.players {
		return h, badHandoff("players", int(b[1]))
	}
	frame := func(at int) core.Frame { return core.Frame(int32(binary.LittleEndian.Uint32(b[at:]))) }
	h.s, h.c, h.r = frame(2), frame(6), frame(10)
	h.player = int(b[14])
	h.sum = binary.LittleEndian.Uint64(b[15:])
	h.gone = binary.LittleEndian.Uint16(b[23:])
	switch {
	case h.s < 1 || h.c < h.s:
		return h, badHandoff("frames", int(h.s), int(h.c))
	case h.r < h.c || h.r-h.c > core.Frame(e.horizon):
		return h, badHandoff("return frame", int(h.r))
	case h.player >= e.players || !e.local[h.player]:
		return h, badHandoff("returns player", h.player)
	case h.gone>>uint(e.players) != 0 || uint32(h.gone)&e.localMask != 0:
		return h, badHandoff("disconnected mask", int(h.gone))
	}
	at := handoffHeader
	for g := h.gone; g != 0; g &= g - 1 {
		if len(b) < at+4 {
			return h, badHandoff("record truncated in the disconnect frames")
		}
		f := frame(at)
		if f < 0 || f > h.r {
			return h, badHandoff("disconnect frame", int(f))
		}
		h.goneAt[bits.TrailingZeros16(g)] = f
		at += 4
	}
	n := int64(h.c-h.s) * int64(e.players) * int64(sizeOf[Slot[I]]())
	if int64(len(b)-at) != n {
		return h, badHandoff("inputs of " + strconv.Itoa(len(b)-at) + " bytes, not " + strconv.FormatInt(n, 10))
	}
	h.slots = b[at:]
	return h, nil
}

// start makes e, whose state is the confirmed state before h.c, a peer at
// frame h.c that holds no slot before it, with its local players back
// from h.r and the disconnected players of h.
func (e *Engine[S, I]) start(h handoffRecord) {
	c := h.c
	e.frame, e.checked, e.floor = c, c, c
	e.log.start, e.log.end = c, c
	e.confirmedCtl = e.cur.Match
	gone := Slot[I]{Control: Control{flags: flagGone}}
	for p := 0; p < e.players; p++ {
		switch {
		case e.local[p]:
			for f := max(c, h.r-core.Frame(e.rlen)); f < h.r; f++ {
				e.vals[e.idx(p, f)] = gone
			}
			e.next[p] = h.r
			e.retR[p] = h.r
			e.returned |= 1 << p
		case h.gone&(1<<p) != 0:
			e.agreed[p], e.goneAt[p] = true, h.goneAt[p]
			e.next[p] = min(c, h.goneAt[p])
			e.goneMask |= 1 << p
		default:
			e.next[p] = c
		}
	}
	for i := range e.peers {
		q := &e.peers[i]
		for p := range q.held {
			q.held[p] = c
		}
		for l := e.localMask; l != 0; l &= l - 1 {
			q.held[bits.TrailingZeros32(l)] = h.r
		}
		q.recvNext, q.sumsBefore = firstCheckFrom(c-1, e.cfg.ChecksumInterval), never
		q.gone = q.ownMask&^uint32(h.gone) == 0
	}
	if n := e.cfg.ChecksumInterval; isCheckFrame(c-1, n) && !e.cfg.DisableChecksums {
		e.sums.put(c-1, n, h.sum)
	}
	if t := &e.synct; t.limit > 0 { // the sync test starts here: no earlier state was saved
		t.from, t.upto = c, c-1
		t.forget()
	}
	e.knownDirty = true
}
