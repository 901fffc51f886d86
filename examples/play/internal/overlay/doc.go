// Package overlay draws the network window of the playable examples over
// the game, like GGPO's performance window: live graphs of a session's
// round trip, frames ahead, input delay D and prediction window W,
// rollbacks and their depth, stalls and bytes per second per peer, and the
// log of the match's life-cycle events, all from a netstats.History that
// the game samples every frame.
package overlay
