package lockstep

import (
	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport"
)

// The tests of this package build lockstep sessions through these
// shorthands for the root package's names.
type (
	Config                       = rollstep.Config
	Session[S any, I comparable] = rollstep.Session[S, I]
)

// NewSession is rollstep.NewSession with Mode Lockstep, or Auto when
// cfg.Prediction is positive, when cfg leaves it unset.
func NewSession[S any, I comparable](cfg Config, game core.Game[S, I], initial S, conn transport.Conn) (*Session[S, I], error) {
	if cfg.Mode == 0 {
		cfg.Mode = rollstep.Lockstep
		if cfg.Prediction > 0 {
			cfg.Mode = rollstep.Auto
		}
	}
	return rollstep.NewSession(cfg, game, initial, conn)
}
