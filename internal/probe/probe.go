// Package probe lets this module's tests reach into a session: the root
// package sets its hooks when it is initialised. Nothing outside tests
// calls them.
package probe

import (
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/wire"
)

// The hooks; s is a *rollstep.Session of any type parameters.
var (
	// PeerKeys returns the keys of s's endpoint towards peer p.
	PeerKeys func(s any, p core.PeerID) (send, recv wire.Key, ok bool)
	// SetInputDelay sets local player p's D in s's engine.
	SetInputDelay func(s any, p core.PlayerHandle, d int) error
	// EngineState returns s's engine state, a *S, and EngineStats its
	// engine's counters, the ones the session does not publish included
	// (LostCorrections, UncheckedFrames, Saves).
	EngineState func(s any) any
	EngineStats func(s any) engine.Stats
	// Transport returns s's endpoint counters, and Peer those of peer p.
	Transport func(s any) endpoint.Stats
	Peer      func(s any, p core.PeerID) endpoint.PeerStats
	// StreamReceive hands s's spectator stream an acknowledgement from
	// spectator i acknowledging frames below acked.
	StreamReceive func(s any, i int, acked core.Frame)
)
