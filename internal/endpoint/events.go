package endpoint

import (
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
)

// EventKind says what an Event reports. The zero value, EventUnknown, is
// never raised.
type EventKind uint8

// The event kinds.
const (
	// EventUnknown is the zero EventKind; no event has it.
	EventUnknown EventKind = iota
	// EventConnected: the handshake with Peer completed in both
	// directions; from now on its input packets reach the engine.
	EventConnected
	// EventRefused: the handshake with Peer was refused, by either side;
	// Err is a *HandshakeError naming the differing field. The peer stays
	// refused: the match cannot start with it.
	EventRefused
	// EventInterrupted: nothing valid arrived from Peer for
	// Config.InterruptTimeout. The session may pause or warn the player.
	EventInterrupted
	// EventResumed: a valid packet arrived from an interrupted Peer.
	EventResumed
	// EventDisconnected: nothing valid arrived from Peer for
	// Config.DisconnectTimeout (Err nil), or its handshake did not complete
	// within Config.HandshakeTimeout (Err is a *HandshakeTimeoutError,
	// matching ErrHandshakeTimeout). The front
	// end calls the engine's DisconnectPeer(Peer). The endpoint neither
	// sends to the peer nor accepts its packets any more.
	EventDisconnected
	// EventLeft: Peer sent a Leave with Reason at its frame Frame. The front
	// end calls the engine's DisconnectPeer(Peer), as for
	// EventDisconnected.
	EventLeft
	// EventSplit: an authenticated, fresh packet arrived from Peer after it
	// was disconnected for silence (EventDisconnected with a nil Err) or
	// by Disconnect: the peer is alive, and each side has played on
	// without the other since it dropped it. It is raised once per peer;
	// the peer stays disconnected.
	EventSplit
	// EventRestarted: a new process of Peer's seat proved it holds the
	// match token and came back (see "Restarts" in the package
	// documentation): the peer is connected again under new keys, and
	// nothing of the old process counts any more. The front end brings
	// it back into the match (the engine's ReturnPeer).
	EventRestarted
	// EventDropped: a probe from connected or interrupted Peer says it
	// dropped this endpoint and plays on without it (lost to silence, or
	// by its other peers' agreement), though this one still hears it.
	// Nothing changes here: the front end decides whether to drop Peer in
	// turn (Disconnect, then its split rule). It is raised once per probe.
	EventDropped
)

var eventNames = [...]string{"unknown", "connected", "refused", "interrupted", "resumed", "disconnected", "left", "split", "restarted", "dropped"}

// String returns the kind's name, such as "interrupted".
func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	return eventNames[0]
}

// Event is something that happened to one peer; see Endpoint.Events. It is
// a plain value, so raising one allocates nothing.
type Event struct {
	Kind EventKind     // what happened
	Peer core.PeerID   // to whom
	At   time.Duration // the now of the call that noticed it
	// Err is the *HandshakeError of EventRefused and a
	// *HandshakeTimeoutError or nil for EventDisconnected; nil otherwise.
	Err error
	// Reason and Frame are the Leave's, for EventLeft.
	Reason wire.LeaveReason
	Frame  core.Frame
}

// PeerState is transport.PeerState: where a peer is in its life cycle.
type PeerState = transport.PeerState

// The peer states, transport's.
const (
	StateUnknown      transport.PeerState = 0 // no peer is in it
	StateHandshaking                      = transport.StateHandshaking
	StateConnected                        = transport.StateConnected
	StateInterrupted                      = transport.StateInterrupted
	StateRefused                          = transport.StateRefused
	StateDisconnected                     = transport.StateDisconnected
	StateLeft                             = transport.StateLeft
)

// live reports whether a peer in state s is connected (interrupted or not).
func live(s PeerState) bool { return s == StateConnected || s == StateInterrupted }

// final reports whether a peer in state s is refused, disconnected or left.
func final(s PeerState) bool { return s >= StateRefused }
