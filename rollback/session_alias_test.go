package rollback

import (
	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport"
)

// The tests of this package build rollback sessions through these
// shorthands for the root package's names.
type (
	Config                       = rollstep.Config
	Session[S any, I comparable] = rollstep.Session[S, I]
)

// NewSession is rollstep.NewSession with Mode Rollback when cfg leaves it
// unset.
func NewSession[S any, I comparable](cfg Config, game core.Game[S, I], initial S, conn transport.Conn) (*Session[S, I], error) {
	if cfg.Mode == 0 {
		cfg.Mode = rollstep.Rollback
	}
	return rollstep.NewSession(cfg, game, initial, conn)
}
