package core

// Disconnects are agreed, not decided locally. When the host decides a
// peer is gone (DisconnectPeer, typically after a timeout), the engine
// stops accepting the peer's messages, freezes what it holds of the peer's
// players, and sets their bits in Message.Gone; a peer that sees the bit
// declares the players gone too. Each message carries Held, so once every
// remaining peer has declared a player gone, every peer knows every vote
// and computes the same disconnect frame: the largest count of the
// player's inputs any remaining peer holds. No peer ever has to undo a
// confirmed frame, because peers that hold fewer inputs than the agreed
// frame get the missing ones relayed by the peers that hold them, and the
// player's input is InputDisconnected from that frame on.

// DisconnectPeer declares peer id and all its players disconnected. The
// frame from which their inputs are InputDisconnected is agreed with the
// remaining peers and reported by a DisconnectEvent.
func (e *Engine[S, I]) DisconnectPeer(id PeerID) error {
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
func (e *Engine[S, I]) declareGone(p PlayerHandle) {
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
		e.knownDirty = true
		e.event(DisconnectEvent{Player: PlayerHandle(p), Frame: d})
		e.rescan(p, e.next[p])
	}
}

// Disconnected reports whether player p's disconnect frame is agreed, and
// that frame.
func (e *Engine[S, I]) Disconnected(p PlayerHandle) (Frame, bool) {
	if p < 0 || int(p) >= e.players || !e.agreed[p] {
		return 0, false
	}
	return e.goneAt[p], true
}
