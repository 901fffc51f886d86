package lifecycle

import (
	"errors"
	"fmt"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/endpoint"
	"github.com/rollstep/rollstep/transport/wire"
)

// PeerEngine is what Watch needs of a session's engine.
type PeerEngine interface {
	Engine
	DisconnectPeer(id core.PeerID) error
	Disconnected(p core.PlayerHandle) (core.Frame, bool)
}

// Watch turns the endpoint events of a session's player peers into its
// life cycle: core's ConnectedEvent, RefusedEvent, InterruptedEvent,
// ResumedEvent, SplitEvent and PeerLostEvent, the engine's disconnects, a peer's agreed
// end adopted, and the error that keeps the match from starting. Its zero
// value is ready.
type Watch struct {
	// Refused, once set, ends the match before it started: ErrRefused
	// wrapping a refusal, or a handshake timeout without SoloStart.
	Refused error
}

// Handle processes endpoint event e of player peer e.Peer, whose first
// player is first, on engine eng with end end: it returns the event to
// raise and whether the peer is now lost. refused is the front end's
// ErrRefused; started and soloStart say whether the match has started and
// whether it may start without a peer whose handshake timed out.
func (w *Watch) Handle(e endpoint.Event, first core.PlayerHandle, eng PeerEngine, end *End, refused error, started, soloStart bool) (ev any, lost bool) {
	switch e.Kind {
	case endpoint.EventConnected:
		return core.ConnectedEvent{Peer: e.Peer}, false
	case endpoint.EventRefused:
		if w.Refused == nil {
			w.Refused = fmt.Errorf("%w: %w", refused, e.Err)
		}
		return core.RefusedEvent{Peer: e.Peer, Err: e.Err}, false
	case endpoint.EventInterrupted:
		return core.InterruptedEvent{Peer: e.Peer}, false
	case endpoint.EventResumed:
		return core.ResumedEvent{Peer: e.Peer}, false
	case endpoint.EventSplit:
		at := core.Frame(-1)
		if f, ok := eng.Disconnected(first); ok {
			at = f
		}
		return core.SplitEvent{Peer: e.Peer, Frame: at}, false
	case endpoint.EventDisconnected, endpoint.EventLeft:
		if e.Kind == endpoint.EventLeft && e.Reason == wire.LeaveEnded {
			end.Adopt(eng, e.Frame)
		}
		if !started && !soloStart && errors.Is(e.Err, endpoint.ErrHandshakeTimeout) && w.Refused == nil {
			w.Refused = e.Err // the match never starts without this peer
		}
		_ = eng.DisconnectPeer(e.Peer) // e.Peer is a player peer
		return core.PeerLostEvent{Peer: e.Peer, Left: e.Kind == endpoint.EventLeft, Reason: e.Reason, Err: e.Err}, true
	}
	return nil, false
}
