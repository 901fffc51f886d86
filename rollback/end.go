package rollback

import (
	"errors"
	"fmt"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/wire"
)

// ErrEndPassed is matched by the error EndAt returns for a frame the
// session has already simulated.
var ErrEndPassed = errors.New("rollback: end of match already simulated")

// MatchEndedEvent is core.MatchEndedEvent, the same in every mode.
type MatchEndedEvent = core.MatchEndedEvent

// EndAt ends the match at frame f, its first frame not played: the
// session simulates no frame from f on, and once every frame before f is
// confirmed and every peer holds this session's inputs for them, it leaves
// (MatchEndedEvent), so that the first peer to stop strands nobody. Every
// peer's game calls it with the same f, decided from the simulation (a
// round timer, a score); a peer whose game has not called it adopts the
// f of the first peer that ends, if it has not simulated frame f yet
// (otherwise it plays on without that peer). It returns an error matching
// ErrEndPassed when the session already simulated frame f (call it at
// least W frames ahead, or from confirmed state with an f past Frame()),
// and ErrClosed after Close.
func (s *Session[S, I]) EndAt(f core.Frame) error {
	if s.closed {
		return ErrClosed
	}
	if err := s.end.Set(s.eng, f); err != nil {
		return fmt.Errorf("%w: frame %d, the session is at frame %d", ErrEndPassed, f, s.eng.Frame())
	}
	return nil
}

// Ended reports whether the match ended (MatchEndedEvent).
func (s *Session[S, I]) Ended() bool { return s.end.Ended() }

// finish leaves the match once its end is reached everywhere.
func (s *Session[S, I]) finish(now time.Duration) error {
	if !s.end.Reached(s.eng) {
		return nil
	}
	s.event(MatchEndedEvent{Frame: s.end.At})
	return s.ep.Leave(now, wire.LeaveEnded, s.end.At)
}
