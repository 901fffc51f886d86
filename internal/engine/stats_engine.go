package engine

// Stats returns the engine's counters. The Peers slice is owned by the
// engine and overwritten by the next call.
func (e *Engine[S, I]) Stats() Stats {
	s := e.stats
	s.Frame = e.frame
	s.ConfirmedEnd = e.confirmedEnd()
	s.Prediction = e.window
	s.Delay = e.delay
	s.SyncTest = e.synct.k
	for i := range e.peers {
		q := &e.peers[i]
		ps := PeerStats{
			Connected: !q.gone, RTT: q.srtt, Jitter: q.rttvar, RTTSamples: q.rttSamples,
			FramesAhead: q.framesAhead, InputLead: q.inputLead, Desynced: q.desynced,
			Rollbacks: q.rollbacks, ResimFrames: q.resimFrames, RollbackDepth: q.rollbackDepth,
			StallTime: q.stallTime,
			Held:      never, Acked: never,
		}
		for _, p := range q.players {
			ps.Held = min(ps.Held, e.next[p])
		}
		for p := 0; p < e.players; p++ {
			if e.local[p] {
				ps.Acked = min(ps.Acked, q.held[p])
			}
		}
		if ps.Acked == never {
			ps.Acked = 0
		}
		s.Peers[i] = ps
	}
	return s
}

// blameBefore reports whether a wrong input of player p is charged for a
// rollback instead of one of player o at the same frame (the attribution
// rule of PeerStats.RollbackDepth): the lower PeerID is charged; a local
// player never is.
func (e *Engine[S, I]) blameBefore(p, o int) bool {
	if e.local[p] {
		return false
	}
	return e.local[o] || e.owner[p] < e.owner[o]
}
