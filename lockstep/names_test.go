package lockstep

import (
	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
)

// The session's names these tests use unqualified.
type (
	Peer           = rollstep.Peer
	Event          = rollstep.Event
	StallEvent     = core.StallEvent
	StreamConfig   = rollstep.StreamConfig
	TimesyncConfig = rollstep.TimesyncConfig
	ConfigError    = rollstep.ConfigError
)

var (
	ErrClosed    = rollstep.ErrClosed
	ErrRefused   = rollstep.ErrRefused
	ErrEndPassed = rollstep.ErrEndPassed
	ErrQueueFull = rollstep.ErrQueueFull
)

// defaultMaxDelay is the bound of D in Lockstep when Config.MaxDelay is 0.
const defaultMaxDelay = 16

type (
	DelayEvent      = core.DelayEvent
	MatchEndedEvent = core.MatchEndedEvent
)
