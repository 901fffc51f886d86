package rollback

import (
	"fmt"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport"
)

// Config is the session's configuration, the same type in every mode
// (rollstep.Config). NewSession sets its Mode when it is unset; its
// Validate, which has no mode to assume, wants Mode set (rollstep.Rollback).
type Config = rollstep.Config

// Session is the session of every mode (rollstep.Session).
type Session[S any, I comparable] = rollstep.Session[S, I]

// NewSession returns a rollback session: rollstep.NewSession with
// cfg.Mode rollstep.Rollback if it is unset. Another mode is refused
// with a *rollstep.ConfigError.
func NewSession[S any, I comparable](cfg Config, game core.Game[S, I], initial S, conn transport.Conn) (*Session[S, I], error) {
	switch cfg.Mode {
	case 0: // unset
		cfg.Mode = rollstep.Rollback
	case rollstep.Rollback:
	default:
		return nil, &rollstep.ConfigError{Field: "Mode", Reason: fmt.Sprintf("%v is not rollback", cfg.Mode)}
	}
	return rollstep.NewSession(cfg, game, initial, conn)
}
