package engine

import (
	"math/bits"

	"github.com/rollstep/rollstep/core"
)

// Disconnects are agreed, not decided locally. When the host decides a
// peer is gone (DisconnectPeer, typically after a timeout), the engine
// stops accepting the peer's messages, freezes what it holds of the peer's
// players, and sets their bits in Message.Gone; a peer that sees the bit
// declares the players gone too, if the sender outranks them (see partial
// partitions below). Each message carries Held, so once every remaining
// peer has declared a player gone, every peer knows every vote and
// computes the same disconnect frame: the largest count of the player's
// inputs any remaining peer holds. No peer ever has to undo a
// confirmed frame, because peers that hold fewer inputs than the agreed
// frame get the missing ones relayed by the peers that hold them, and the
// player's input is InputDisconnected from that frame on.
//
// Partial partitions. A peer adopts another's declaration (gossip) only
// when the declarer outranks the declared peer: a peer's rank is the
// lowest player handle it owns, and lower ranks higher. When two peers X
// and Y time each other out while the others still hear both, every
// other peer adopts the declaration of the higher-ranked one, say X,
// whichever arrives first, and ignores Y's: all of them keep X and drop Y,
// and Y's declaration of X never counts, since only remaining peers vote.
// Adopting Y's first and reconsidering later would be too late: a
// declaration cannot be withdrawn (Gone masks only grow), the declared
// peer's messages are no longer accepted, and once agreed, frames from
// the disconnect frame on may already be confirmed with
// InputDisconnected. The agreed frame is unaffected: it is still the
// largest count of Y's inputs any remaining peer holds, so the peers that
// heard Y's declaration first, and kept accepting Y's inputs until X's
// arrived, relay those inputs to X and to the rest.
//
// The price is that a declaration by a lower-ranked peer spreads only
// through the peers' own timeouts (DisconnectPeer), or through a
// declaration by a higher-ranked peer: the front ends time every peer
// out, so a crashed peer is still dropped everywhere, but a host driving
// the engine directly must call DisconnectPeer on a timeout of its own.
// The guarantee covers one pair of peers that lost each other. With
// several broken links, for example X–Y and Y–Z with X outranking Y
// outranking Z, a peer that hears Y's declaration of Z before X's of Y
// drops Z, one that hears X's first keeps Z: making that order-free needs
// per-link reports relayed between survivors and a membership round, which
// Message does not carry. The peer that dropped Z then waits for an
// agreement that never comes (Undecided, while blocked): a front end
// starts such a peer over, and it takes the state of the others.

// DisconnectPeer declares peer id and all its players disconnected. The
// frame from which their inputs are InputDisconnected is agreed with the
// remaining peers and reported by a DisconnectEvent. The other peers adopt
// the declaration only if this engine's lowest player handle is below the
// peer's (see the package documentation); otherwise each must call
// DisconnectPeer itself, typically on its own timeout.
func (e *Engine[S, I]) DisconnectPeer(id core.PeerID) error {
	if id < 0 || int(id) >= len(e.peers) {
		return ErrUnknownPeer
	}
	for _, p := range e.peers[id].players {
		e.declareGone(p)
	}
	e.checkAgreement()
	return nil
}

// declareGone declares remote player p, and the peer that owns it,
// disconnected.
func (e *Engine[S, I]) declareGone(p core.PlayerHandle) {
	if e.local[p] || e.goneMask&(1<<p) != 0 {
		return
	}
	q := &e.peers[e.owner[p]]
	q.gone = true
	if q.hunt.active {
		q.hunt.reason = "the peer disconnected"
		q.hunt.stack = q.hunt.stack[:0]
		e.huntDone(e.owner[p])
	}
	q.snap = nil // it will never query again
	for _, o := range q.players {
		e.goneMask |= 1 << o
	}
}

// checkAgreement fixes the disconnect frame of every declared player for
// whom every remaining peer's vote is known.
func (e *Engine[S, I]) checkAgreement() {
	if e.goneMask == 0 {
		return
	}
	for p := 0; p < e.players; p++ {
		if e.goneMask&(1<<p) == 0 || e.agreed[p] {
			continue
		}
		d := e.next[p]
		all := true
		for i := range e.peers {
			q := &e.peers[i]
			if q.gone {
				continue
			}
			if q.theirGone&(1<<p) == 0 {
				all = false
				break
			}
			d = max(d, q.goneHeld[p])
		}
		if !all {
			continue
		}
		e.agreed[p], e.goneAt[p] = true, d
		for i := range e.peers {
			if q := &e.peers[i]; q.gone { // no vote of theirs: they may hold other inputs of p from d on
				q.sumsBefore = min(q.sumsBefore, d)
			}
		}
		e.knownDirty = true
		e.event(core.DisconnectEvent{Player: core.PlayerHandle(p), Frame: d})
		e.rescan(p, e.next[p])
		if e.retAt[p] != never {
			e.settle(e.owner[p])
		}
	}
}

// Disconnected reports whether player p's disconnect frame is agreed, and
// that frame.
func (e *Engine[S, I]) Disconnected(p core.PlayerHandle) (core.Frame, bool) {
	if p < 0 || int(p) >= e.players || !e.agreed[p] {
		return 0, false
	}
	return e.goneAt[p], true
}

// Undecided reports whether a player this engine declared disconnected
// still waits for the remaining peers' agreement on its disconnect frame.
func (e *Engine[S, I]) Undecided() bool {
	if e.goneMask == 0 {
		return false // the common case, every Update
	}
	for p := 0; p < e.players; p++ {
		if e.goneMask&(1<<p) != 0 && !e.agreed[p] {
			return true
		}
	}
	return false
}

// adopts reports whether a declaration that player p is gone, received
// from peer q, is adopted: q outranks p's owner (its lowest player handle
// is lower). See the partial partitions rule above.
func (e *Engine[S, I]) adopts(q *peer[Slot[I]], p int) bool {
	return bits.TrailingZeros32(q.ownMask) < bits.TrailingZeros32(e.peers[e.owner[p]].ownMask)
}
