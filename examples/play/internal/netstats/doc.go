// Package netstats keeps the recent history of a rollstep session's
// network and prediction counters for the playable examples' network
// overlay: per frame, the round trip, frames ahead and byte rates of each
// peer, input delay D and prediction window W, the rollbacks begun and
// their depth, the stall, and a log of the match's life-cycle events.
//
// It reads only what the session publishes (Stats and Events) and has no
// drawing code, so it is tested without a display; package overlay draws
// it. Sampling keeps a fixed window and allocates nothing once the window
// is full.
package netstats
