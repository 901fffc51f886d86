package rollback

import (
	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/timesync"
)

// The session's names these tests use unqualified.
type (
	Peer                 = rollstep.Peer
	Event                = rollstep.Event
	StreamConfig         = rollstep.StreamConfig
	TimesyncEvent        = core.TimesyncEvent
	ConnectedEvent       = core.ConnectedEvent
	RefusedEvent         = core.RefusedEvent
	StartedEvent         = core.StartedEvent
	InterruptedEvent     = core.InterruptedEvent
	ResumedEvent         = core.ResumedEvent
	SplitEvent           = core.SplitEvent
	PeerLostEvent        = core.PeerLostEvent
	SpectatorJoinedEvent = core.SpectatorJoinedEvent
	SpectatorLeftEvent   = core.SpectatorLeftEvent
	MatchEndedEvent      = core.MatchEndedEvent
	DelayEvent           = core.DelayEvent
)

var (
	ErrClosed    = rollstep.ErrClosed
	ErrRefused   = rollstep.ErrRefused
	ErrEndPassed = rollstep.ErrEndPassed
)

const MaxAdvantage = timesync.MaxAdvantage
