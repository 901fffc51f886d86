package lockstep

import (
	"fmt"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport"
)

// Config is the session's configuration, the same type in every mode
// (rollstep.Config). NewSession sets its Mode when it is unset; its
// Validate, which has no mode to assume, wants Mode set (rollstep.Lockstep).
type Config = rollstep.Config

// Session is the session of every mode (rollstep.Session).
type Session[S any, I comparable] = rollstep.Session[S, I]

// NewSession returns a lockstep session: rollstep.NewSession with
// cfg.Mode rollstep.Lockstep, or rollstep.Auto when cfg.Prediction is
// positive, if cfg.Mode is unset. A Rollback cfg.Mode is refused with a
// *rollstep.ConfigError.
func NewSession[S any, I comparable](cfg Config, game core.Game[S, I], initial S, conn transport.Conn) (*Session[S, I], error) {
	switch cfg.Mode {
	case 0: // unset
		cfg.Mode = rollstep.Lockstep
		if cfg.Prediction > 0 {
			cfg.Mode = rollstep.Auto
		}
	case rollstep.Lockstep, rollstep.Auto:
	default:
		return nil, &rollstep.ConfigError{Field: "Mode", Reason: fmt.Sprintf("%v is not a lockstep mode (Lockstep or Auto)", cfg.Mode)}
	}
	return rollstep.NewSession(cfg, game, initial, conn)
}
