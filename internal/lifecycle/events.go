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

// Watch turns a session's endpoint events into its life cycle: a
// spectator's go to the stream; a player peer's become core's
// ConnectedEvent, RefusedEvent, InterruptedEvent, ResumedEvent, SplitEvent
// and PeerLostEvent, the engine's disconnects, a peer's agreed end
// adopted, and the error that keeps the match from starting. Make one
// with NewWatch.
type Watch struct {
	// Refused, once set, ends the match before it started: ErrRefused
	// wrapping a refusal, or a handshake timeout without SoloStart.
	Refused error

	peers     []Peer
	eng       PeerEngine
	end       *End
	stream    interface{ PeerEvent(int, endpoint.Event) }
	ts        interface{ Forget(int) }
	refused   error // the front end's ErrRefused
	soloStart bool
	raise     func(any)
}

// NewWatch returns the Watch of a session with player peers peers (the
// endpoint's first peers; spectators follow), engine eng and end end,
// whose spectators' events go to stream and whose lost peers timesync ts
// forgets. refused is the front end's ErrRefused; soloStart says whether
// the match may start without a peer whose handshake timed out; raise
// queues the session's events.
func NewWatch(peers []Peer, eng PeerEngine, end *End, stream interface{ PeerEvent(int, endpoint.Event) },
	ts interface{ Forget(int) }, refused error, soloStart bool, raise func(any)) Watch {
	return Watch{peers: peers, eng: eng, end: end, stream: stream, ts: ts, refused: refused, soloStart: soloStart, raise: raise}
}

// Route handles every event of evs, the endpoint's since the last call;
// started says whether the match has started.
func (w *Watch) Route(evs []endpoint.Event, started bool) {
	n := core.PeerID(len(w.peers))
	for _, e := range evs {
		if e.Peer >= n {
			w.stream.PeerEvent(int(e.Peer-n), e)
			continue
		}
		ev, lost := w.handle(e, w.peers[e.Peer].Players[0], started)
		if lost {
			w.ts.Forget(int(e.Peer))
		}
		if ev != nil {
			w.raise(ev)
		}
	}
}

// handle processes endpoint event e of player peer e.Peer, whose first
// player is first: it returns the event to raise and whether the peer is
// now lost.
func (w *Watch) handle(e endpoint.Event, first core.PlayerHandle, started bool) (ev any, lost bool) {
	eng, end, refused, soloStart := w.eng, w.end, w.refused, w.soloStart
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
