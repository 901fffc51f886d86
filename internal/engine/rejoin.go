package engine

import (
	"errors"
	"math/bits"

	"github.com/rollstep/rollstep/core"
)

// Returns
//
// A peer whose disconnect is agreed can come back into the match: its
// process restarted, or it was cut off longer than the disconnect timeout.
// The return is agreed like a command, not decided locally. One remaining
// peer, the sponsor, calls ReturnPeer; the command rides its lowest local
// player's next input, in frame F, and names the returning peer (by one of
// its players) and a lead: from frame R = F+lead on, the peer's players'
// inputs are real again, and from their disconnect frame to R-1 they stay
// InputDisconnected. A slot is written once and never changes, so every
// peer that holds the sponsor's slot F knows R, and none can confirm frame
// R without holding it: every peer's confirmed history agrees on when the
// players came back.
//
// A peer settles the return once it holds the command, the players'
// disconnect frame is agreed and it holds their inputs up to it: it marks
// their slots from the disconnect frame to R-1 as disconnected (flagGone),
// so their input schedule resumes at R like any player's, accepts the
// returning peer's messages again, and forgets what the old process told
// it (acknowledgements, votes, checksums, round trip). Until a peer has
// settled, its messages still say the players are gone. A receiver that
// settled tells those stale bits from a new disconnect of the returned
// players by their Held: a peer that settled holds the players' inputs up
// to R, one that has not holds fewer.
//
// A return command rides a slot D frames ahead of its sponsor's frame, so
// an engine may resume from a handoff that the sponsor took after it
// settled another peer's return and before the frame of that return's
// command: the players are back in the state it resumed from (the
// handoff does not count them gone), and it ignores the command.
//
// The returning peer's new engine starts from a handoff (Resume): the
// sponsor's confirmed state at the snapshot frame S (Snapshot), sent while
// the peer is still disconnected everywhere, and the confirmed inputs from
// S to the handoff frame C (Handoff), sent once the command is written.
// Resume replays S..C-1, checks the result against the sponsor's checksum
// of the state after C-1, and starts at frame C with the return already
// settled; the peers send it their inputs from C on, because it holds
// every frame before.

// MaxReturnLead is the largest lead ReturnPeer accepts: how many frames
// after the command's frame the returning players' inputs are real again.
const MaxReturnLead = 64

// ErrNotReturnable is returned by ReturnPeer for a peer that cannot come
// back now: it is not declared disconnected, its disconnect frame is not
// agreed or not yet confirmed here, or a return is already under way; and
// by Handoff for a peer this engine has not brought back.
var ErrNotReturnable = errors.New("rollstep: peer cannot return now")

// ReturnPeer queues the command that brings disconnected peer id back into
// the match: it rides the next input of this engine's lowest local player
// (frame F), and the peer's players' inputs are real again from frame
// F+lead on. lead is 1..MaxReturnLead; it should cover the time the
// returning peer needs to receive the handoff and send its first inputs,
// or the others predict or wait for them. It returns ErrUnknownPeer,
// ErrNotLocal for an engine without local players, ErrOutOfRange for a
// bad lead, ErrNotReturnable, or ErrQueueFull.
func (e *Engine[S, I]) ReturnPeer(id core.PeerID, lead int) error {
	if id < 0 || int(id) >= len(e.peers) {
		return ErrUnknownPeer
	}
	if e.localMask == 0 {
		return ErrNotLocal
	}
	if lead < 1 || lead > MaxReturnLead {
		return ErrOutOfRange
	}
	q := &e.peers[id]
	if !q.gone {
		return ErrNotReturnable
	}
	for _, p := range q.players {
		if !e.agreed[p] || e.checked < e.goneAt[p] || e.retAt[p] != never {
			return ErrNotReturnable
		}
	}
	by := core.PlayerHandle(bits.TrailingZeros32(e.localMask))
	c := &e.pending[by]
	for k := range c.n {
		if c.cmds[(c.head+k)%maxPendingCommands].command == commandReturn {
			return ErrNotReturnable
		}
	}
	return e.command(by, commandReturn, uint16(q.players[0])|uint16(lead)<<8)
}

// Returning reports the return frame R of peer id's players once this
// engine holds the command that brings them back, and whether it has
// settled the return (see the package's returns).
func (e *Engine[S, I]) Returning(id core.PeerID) (r core.Frame, settled, ok bool) {
	if id < 0 || int(id) >= len(e.peers) {
		return 0, false, false
	}
	p := e.peers[id].players[0]
	if e.returned&(1<<p) == 0 {
		return 0, false, false
	}
	return e.retR[p], e.retAt[p] == never, true
}

// AnyReturn reports whether a return of any player is under way or has
// settled in this engine: false in a match nobody came back into, so that
// a host can skip looking for returns peer by peer.
func (e *Engine[S, I]) AnyReturn() bool {
	return e.returned != 0 || e.anySettled
}

// Returns reports how many returns of peer id's players this engine has
// settled in the match: a host that counts the peer's restarts tells by
// it whether a restart is the one already brought back.
func (e *Engine[S, I]) Returns(id core.PeerID) int {
	if id < 0 || int(id) >= len(e.peers) {
		return 0
	}
	return int(e.settled[e.peers[id].players[0]])
}

// ReturnedBy reports the peer whose player's slot carried the command of
// peer id's newest return, false when it was this engine's own or there
// was none.
func (e *Engine[S, I]) ReturnedBy(id core.PeerID) (core.PeerID, bool) {
	if _, _, ok := e.Returning(id); !ok {
		return 0, false
	}
	by := e.retBy[e.peers[id].players[0]]
	return by, by >= 0
}

// Heard reports whether a message of peer id's current process arrived:
// since the match started, or since this engine settled the peer's newest
// return. A survivor tells by it whether a returning peer resumed.
func (e *Engine[S, I]) Heard(id core.PeerID) bool {
	return id >= 0 && int(id) < len(e.peers) && e.peers[id].heard
}

// ReturnOf reports the return frame of player p's newest return: from
// that frame on its inputs count again. A resumed engine knows its own
// players' (see Resume).
func (e *Engine[S, I]) ReturnOf(p core.PlayerHandle) (core.Frame, bool) {
	if p < 0 || int(p) >= e.players || e.returned&(1<<p) == 0 {
		return 0, false
	}
	return e.retR[p], true
}

// SnapshotSize is the length of every Snapshot of the engine's state.
func (e *Engine[S, I]) SnapshotSize() int { return sizeOf[world[S]]() }

// applyReturn takes the return command c in player by's slot of frame f.
// A command that names no remote player of another peer, or arrives while
// the players' previous return is unsettled, is ignored by every peer
// alike; the returning peer's own engine learnt its return from the
// handoff and ignores the command too. So does an engine that resumed
// from a handoff taken after the sponsor settled the return but before
// frame f: it holds the players back already (they are not gone there),
// and a return it could never settle would wait for a disconnect.
func (e *Engine[S, I]) applyReturn(by int, f core.Frame, c Control) {
	p, lead := int(c.arg[0]), core.Frame(c.arg[1])
	if p >= e.players || lead < 1 || lead > MaxReturnLead || e.local[p] {
		return
	}
	id := e.owner[p]
	if !e.local[by] && e.owner[by] == id {
		return // a peer cannot bring itself back
	}
	q := &e.peers[id]
	for _, o := range q.players {
		if e.retAt[o] != never || e.goneMask&(1<<o) == 0 {
			return
		}
	}
	back := max(f-core.Frame(le16(c.aux)), 0)
	for _, o := range q.players {
		e.retAt[o], e.retR[o], e.retBack[o] = f+lead, f+lead, back
		e.retBy[o] = -1
		if !e.local[by] {
			e.retBy[o] = e.owner[by]
		}
		e.returned |= 1 << o
		e.unsettled |= 1 << o
	}
	e.settle(id)
}

// settle completes peer id's pending return once its players' disconnect
// frame is agreed and their inputs up to it are held.
func (e *Engine[S, I]) settle(id core.PeerID) {
	q := &e.peers[id]
	for _, o := range q.players {
		if e.retAt[o] == never || !e.agreed[o] || e.next[o] < e.goneAt[o] {
			return
		}
		if e.retAt[o]-e.checked >= core.Frame(e.rlen) {
			// The marks would wrap the input ring over frames still to
			// confirm: settle once confirmation has caught up (confirmTo).
			return
		}
	}
	var back core.Frame
	for _, o := range q.players {
		r := e.retAt[o]
		gone := Slot[I]{Control: Control{flags: flagGone}}
		for f := max(e.goneAt[o], r-core.Frame(e.rlen), e.next[o]); f < r; f++ {
			e.vals[e.idx(int(o), f)] = gone
		}
		e.next[o] = r
		e.agreed[o], e.retAt[o] = false, never
		e.settled[o]++
		e.anySettled = true
		e.goneMask &^= 1 << o
		e.unsettled &^= 1 << o
		for i := range e.peers {
			e.peers[i].theirGone &^= 1 << o
			e.peers[i].goneHeld[o] = 0
		}
		back = e.retBack[o]
	}
	q.rejoin(back, e.cfg.ChecksumInterval)
	e.knownDirty = true
	for _, o := range q.players {
		// Frames from R on are no longer disconnected; those before it
		// still are, and may be older than the ring holds.
		e.rescan(int(o), e.retR[o])
	}
}

// settleAll settles every pending return that can be.
func (e *Engine[S, I]) settleAll() {
	for u := e.unsettled; u != 0; u &= u - 1 {
		e.settle(e.owner[bits.TrailingZeros16(u)])
	}
}

// freshGone returns the bits of gone, a Gone mask in message m, that are
// not stale. Once this engine settled a player's return, the player's bit
// is stale while the sender holds fewer of the player's inputs than the
// return frame, that is, has not settled the return yet. Until then every
// bit is a vote on the disconnect being returned from.
func (e *Engine[S, I]) freshGone(gone uint16, m *Message[Slot[I]]) uint16 {
	for s := gone & e.returned; s != 0; s &= s - 1 {
		o := bits.TrailingZeros16(s)
		if e.retAt[o] == never && m.Held[o] < e.retR[o] {
			gone &^= 1 << o
		}
	}
	return gone
}

// rejoin makes q a connected peer again whose process is new and holds
// every input before frame back: what the old process acknowledged,
// voted, reported and measured is forgotten.
func (q *peer[I]) rejoin(back core.Frame, interval int) {
	q.gone, q.hasStamp, q.heard = false, false, false
	q.lastStamp, q.stampAt, q.srtt, q.rttvar = 0, 0, 0, 0
	q.rttSamples, q.unsampled = 0, 0
	q.framesAhead, q.lastFrame, q.inputLead = 0, 0, 0
	for p := range q.held {
		q.held[p] = back
	}
	q.theirGone, q.goneHeld = 0, [core.MaxPlayers]core.Frame{}
	q.sumAck, q.sumMsgs, q.desynced, q.sumsBefore = 0, 0, false, never
	q.recvNext = firstCheckFrom(back-1, interval)
	q.recv = newSumRing()
	q.snap, q.snapFrame = nil, 0
	q.hunt = hunt{}
	q.answers = q.answers[:0]
}

// firstCheckFrom returns the first checksummed frame at or after f (at
// least 0).
func firstCheckFrom(f core.Frame, interval int) core.Frame {
	f = max(f, 0)
	n := core.Frame(interval)
	return (f + n - 1) / n * n
}
