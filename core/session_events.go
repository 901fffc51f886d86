package core

import "time"

// The events every session mode raises about its peers and its match, in
// one vocabulary beside the engine's own (the front ends raise them; the
// engine never does).

// LeaveReason says why a peer left a match (PeerLostEvent). The zero
// value is never sent.
type LeaveReason uint8

// The leave reasons.
const (
	// LeaveQuit: the player quit.
	LeaveQuit LeaveReason = iota + 1
	// LeaveTimeout: the sender stopped hearing from the receiver.
	LeaveTimeout
	// LeaveDesync: the sender detected a desync and ends the session.
	LeaveDesync
	// LeaveRefused: the sender refuses the session (handshake failure).
	LeaveRefused
	// LeaveEnded: the match ended at an agreed frame (its first frame not
	// played) and the sender holds every input before it, as every peer
	// holds the sender's.
	LeaveEnded
	// LeaveDropped: the host dropped this spectator for falling too far
	// behind. A spectator reports it; it is never sent.
	LeaveDropped
)

// ConnectedEvent reports that the handshake with Peer completed.
type ConnectedEvent struct {
	Peer PeerID // the peer, an index into the session's Peers
}

// RefusedEvent reports that the handshake with Peer was refused by either
// side; Err is the transport's handshake error naming the differing
// field. The match cannot start: the session's Update returns an error
// from now on.
type RefusedEvent struct {
	Peer PeerID // the refusing or refused peer
	Err  error  // why
}

// StartedEvent reports that every peer is connected and frame 0 may run;
// At is the Update time at which the clock of the match started.
type StartedEvent struct {
	At time.Duration // the now of the Update that started the match
}

// InterruptedEvent reports that nothing arrived from Peer for the
// interrupt timeout. The session keeps predicting up to W frames and then
// stalls; the game may show a warning.
type InterruptedEvent struct {
	Peer PeerID // the silent peer
}

// ResumedEvent reports that an interrupted Peer was heard again.
type ResumedEvent struct {
	Peer PeerID // the peer heard again
}

// SplitEvent reports that Peer, lost to silence, was heard again: it is
// alive, and since Frame (the frame from which this session gave its
// players the disconnected status) the two sides have played apart. It is
// raised once per peer on each side that dropped the other. The side
// whose lowest player handle is higher then yields: each of its sessions
// throws its frames since the split away and rejoins the other side (a
// RejoinEvent with Discarded ends it); the game may tell the player.
// Found once every frame of the match is played (see MatchEndedEvent),
// the split is not healed: each side keeps its own result.
type SplitEvent struct {
	Peer  PeerID // the peer heard again
	Frame Frame  // the first frame its players were disconnected, or -1 if not yet agreed
}

// RejoinEvent reports a rejoin of Peer's seat, or this session's own
// (Peer is -1 then): a process that restarted came back into the match.
// Err is nil when it is done: on the survivor that sent the snapshot once
// the new process holds it, on the other survivors once they agreed the
// return, and on the new process once it resumed. (A survivor that sends
// the state after the sponsor was lost between the agreed return and its
// handoff reports the rejoin a second time, with what it sent.) Otherwise Err says why
// it failed (it matches rollstep.ErrRejoin): timed out (a rejoin waits
// while its sponsor brings another back), or a snapshot that did not
// reproduce the sender's checksum. The frames are those the session knows: Snapshot,
// the frame of the state sent, and Handoff, the frame the new process
// started at (0 where unknown); Return, the first frame its players'
// inputs count again; Bytes, Chunks and Retransmits count the transfer's
// datagrams as sent (sender) or received (new process); Took is the time
// from the restart's handshake with this session to this event (0 when
// the other peers had already brought the process back by then). A
// session that yielded a
// split (its side did not hold the lowest player handle) rejoins the same
// way; Discarded is then how many frames it had played apart and threw
// away. A player that takes an open seat rejoins the same way too. On a
// spectator (Peer -1), it reports that its host's side yielded a split or
// the host's process restarted: the replay started over at Handoff from
// the host's new state.
type RejoinEvent struct {
	Peer                PeerID
	Snapshot, Handoff   Frame
	Return              Frame
	Bytes               int64
	Chunks, Retransmits int
	Took                time.Duration
	Discarded           Frame
	Err                 error
}

// PeerLostEvent reports that Peer is gone: silent for the disconnect
// timeout, its handshake timed out (Err is the transport's handshake
// timeout), or it left (Left, with Reason), or the other peers agreed it
// is gone before this session noticed (Agreed), or it dropped this
// session first and plays on without it, though this session still heard
// it (Dropped: one direction of the link failed, or the others agreed to
// drop this session; this session drops it in turn when its side is the
// one to yield, and then a SplitEvent follows, or when it outranks Peer:
// its lowest player handle is below Peer's). The
// session declares its players disconnected; a DisconnectEvent comes
// with the frame every peer agreed on.
type PeerLostEvent struct {
	Peer    PeerID      // the lost peer
	Left    bool        // it sent a Leave
	Reason  LeaveReason // the Leave's reason, if Left
	Err     error       // nil, the handshake timeout, or why it dropped this session
	Agreed  bool        // the other peers' agreement dropped it first
	Dropped bool        // it had dropped this session
}

// TimesyncEvent reports the frame advantage over the peers, averaged over
// one window, and the recommended wait. It is raised at the end of a
// window when Wait > 0. Advantage is over the peer we are furthest ahead
// of; positive means we are ahead.
type TimesyncEvent struct {
	Peer        PeerID // the peer we are furthest ahead of
	Advantage   Frame  // our average advantage over Peer, in frames
	Wait        int    // frames to wait (skip) so Peer catches up
	RemoteDelay int    // Peer's input delay D, as its messages show
	Applied     bool   // the session waits by itself (not manual)
}

// SpectatorEvent reports that spectator Spectator (an index into the
// session's Spectators) completed its handshake and is being streamed to
// (Joined), or that the session stopped streaming to it: Dropped when it
// fell more than the session's SpectatorMaxLag frames behind (Lag),
// otherwise because it disconnected or left.
type SpectatorEvent struct {
	Spectator int   // index into the session's Spectators
	Joined    bool  // it joined; otherwise it is gone
	Dropped   bool  // dropped for being too far behind, or because its join record did not get through
	Lag       Frame // how far behind it was when dropped (0 for a failed join record)
	// From is, when it joined, the frame its replay starts from: 0, or
	// for a spectator that joined a running match the frame of the
	// state it was sent.
	From Frame
}

// DelayEvent reports that the session's delay control changed the input
// delay D of its local players (and, in a mode that adapts it, the
// prediction window W) from frame Frame on, from the measured RTT to the
// slowest peer. These are local choices: other peers need not follow.
type DelayEvent struct {
	Frame      Frame         // the frame from which the new values apply
	Delay      int           // D in frames
	Prediction int           // W in frames (0 in lockstep)
	RTT        time.Duration // the RTT that led to it
}

func (DelayEvent) isEvent() {}

// StallEvent reports that a frame ran late because inputs were missing:
// Stall is how long the session waited for them after the frame was due,
// and Waiting has bit i set for every PeerID i whose inputs were missing
// during the wait. A session hands it out as a pointer, valid until its
// next Events call, so that a stalled frame allocates nothing.
type StallEvent struct {
	Frame   Frame         // the frame that stalled
	Stall   time.Duration // how long it waited
	Waiting uint64        // bit i: peer i was waited for
}

// MatchEndedEvent reports that the match ended at Frame, its first frame
// not played (the session's EndAt, or a peer's): every frame before it is
// confirmed here and every peer still in the match holds this session's
// inputs for them. The session then tells the peers (a Leave with
// LeaveEnded): at once, or with spectators once they hold the stream to
// Frame (at most the transport's DisconnectTimeout later), streaming to
// them until then; Ended reports true once it has, and from then on
// Update does nothing. When a peer was lost to silence less than the
// transport's DisconnectTimeout before, the event waits out the rest of
// it, so that a split (the link heals, and the peer had lost this
// session too) is found and reported on both sides first: a SplitEvent
// before MatchEndedEvent says the other side ended the match apart, on
// its own result.
type MatchEndedEvent struct {
	Frame Frame // the first frame not played
}

func (MatchEndedEvent) isEvent()  {}
func (ConnectedEvent) isEvent()   {}
func (RefusedEvent) isEvent()     {}
func (StartedEvent) isEvent()     {}
func (InterruptedEvent) isEvent() {}
func (ResumedEvent) isEvent()     {}
func (SplitEvent) isEvent()       {}
func (PeerLostEvent) isEvent()    {}
func (RejoinEvent) isEvent()      {}
func (TimesyncEvent) isEvent()    {}
func (SpectatorEvent) isEvent()   {}
func (StallEvent) isEvent()       {}
