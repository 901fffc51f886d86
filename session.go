package rollstep

import (
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/fixed"
	"github.com/rollstep/rollstep/lockstep"
	"github.com/rollstep/rollstep/rollback"
	"github.com/rollstep/rollstep/transport"
)

// Event is an advisory event of a session: the event types of the chosen
// front end (see lockstep.Event and rollback.Event) and of package core.
// Use a type switch.
type Event = any

// Stats are the counters every front end has; the front end's own Stats
// (through AsLockstep or AsRollback) say more.
type Stats struct {
	// Mode is the session's mode.
	Mode Mode
	// Engine holds the engine's counters, with the transport's bytes and
	// packets per peer.
	Engine core.Stats
	// Delay and Prediction are the local players' current D and W.
	Delay, Prediction int
}

// Session is what every front end offers the game loop (docs/architecture.md §6):
// AddLocalInput, Update(now) (receive, simulate as far as allowed, send),
// the state to render with its predecessor and the elapsed fraction of the
// current frame, the effects of the latest Update, the events since the
// previous look, counters, the input log of confirmed frames (to record
// replays), an agreed end, and Close.
// Implementations are not safe for concurrent use.
type Session[S any, I comparable] interface {
	// AddLocalInput gives local player p's input; see the front end for
	// when it applies.
	AddLocalInput(p core.PlayerHandle, input I) error
	// Update does one round of work at now, a monotonic time chosen by
	// the host.
	Update(now time.Duration) error
	// State returns the current state; read it, never write it or keep it
	// past the next Update.
	State() *S
	// Previous returns the state before the latest frame, for rendering
	// interpolation, under the same rules as State.
	Previous() *S
	// Fraction returns the elapsed fraction of the current frame, in
	// [0, fixed.One]: draw Lerp(Previous(), State(), Fraction()).
	Fraction() fixed.F
	// Frame returns the current frame (turn in lockstep): the next to run.
	Frame() core.Frame
	// Started reports whether the match has started (every peer's
	// handshake finished, or timed out with Config.SoloStart).
	Started() bool
	// Events returns the events raised since the previous call, in every
	// mode, and forgets them; the slice is the session's, valid until the
	// next call.
	Events() []Event
	// Effects returns the effects to play and to cancel from the latest
	// Update; the slices are the session's.
	Effects() (play, cancel []core.FrameEffect)
	// Stats returns the common counters.
	Stats() Stats
	// LogRange returns the frames whose inputs the input log holds (see
	// Config.LogRetention): start <= f < end, every one confirmed.
	LogRange() (start, end core.Frame)
	// ReadLog appends the inputs of logged frame f, one per player in
	// handle order, to dst: exactly what the game's Step got for the
	// frame (in Lockstep and Auto, on the turn's first tick), so draining
	// the log after every Update into a core/replay Recorder (AddLog,
	// which reads ReadSteps) records the match, however it paused and
	// however many ticks a turn ran. It returns core.ErrFrameNotLogged
	// outside LogRange; see the front ends' ReadLog.
	ReadLog(f core.Frame, dst []core.Input[I]) ([]core.Input[I], error)
	// ReadSteps appends the inputs of every call of the game's Step in
	// logged frame f to dst, one group of Players inputs per call: none
	// for a paused frame, one per tick otherwise. One replay frame per
	// group reproduces any match.
	ReadSteps(f core.Frame, dst []core.Input[I]) ([]core.Input[I], error)
	// Pause, Resume and SetSpeed queue a command of local player p that
	// rides its next input, so every peer, whatever its mode, pauses,
	// resumes or changes speed (percent of normal, core.MinSpeed to
	// core.MaxSpeed) at the same frame and reports a core.PauseEvent or
	// core.SpeedEvent. While paused, frames run but the game's Step is not
	// called. Paused reports whether the current frame is paused.
	Pause(p core.PlayerHandle) error
	Resume(p core.PlayerHandle) error
	SetSpeed(p core.PlayerHandle, percent int) error
	Paused() bool
	// EndAt ends the match at frame f, its first frame not played, once
	// every peer holds what it needs to confirm every frame before f (see
	// the front ends' EndAt); Ended reports that it did.
	EndAt(f core.Frame) error
	Ended() bool
	// Close leaves the match and closes the Conn.
	Close() error
}

// NewSession returns a session of cfg.Mode: a *lockstep.Session for
// Lockstep, a *rollback.Session for Rollback, and a *lockstep.Session with
// a prediction window for Auto. It returns an error matching ErrMode or
// ErrInvalidConfig, or the front end's error.
func NewSession[S any, I comparable](cfg Config, game core.Game[S, I], initial S, conn transport.Conn) (Session[S, I], error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	switch cfg.Mode {
	case Rollback:
		s, err := rollback.NewSession(rollbackConfig(&cfg), game, initial, conn)
		if err != nil {
			return nil, err
		}
		return rollbackSession[S, I]{s}, nil
	default:
		s, err := lockstep.NewSession(lockstepConfig(&cfg), game, initial, conn)
		if err != nil {
			return nil, err
		}
		return lockstepSession[S, I]{s, cfg.Mode}, nil
	}
}

// AsLockstep returns the *lockstep.Session behind s, for its own methods
// (its Stats, Peer, …), if s is a Lockstep or Auto session.
func AsLockstep[S any, I comparable](s Session[S, I]) (*lockstep.Session[S, I], bool) {
	l, ok := s.(lockstepSession[S, I])
	return l.Session, ok
}

// AsRollback returns the *rollback.Session behind s, if s is a Rollback
// session.
func AsRollback[S any, I comparable](s Session[S, I]) (*rollback.Session[S, I], bool) {
	r, ok := s.(rollbackSession[S, I])
	return r.Session, ok
}

// lockstepSession adapts a *lockstep.Session to Session.
type lockstepSession[S any, I comparable] struct {
	*lockstep.Session[S, I]
	mode Mode
}

// Stats returns the common counters.
func (s lockstepSession[S, I]) Stats() Stats {
	st := s.Session.Stats()
	return Stats{Mode: s.mode, Engine: st.Engine, Delay: st.Delay, Prediction: st.Prediction}
}

// rollbackSession adapts a *rollback.Session to Session.
type rollbackSession[S any, I comparable] struct {
	*rollback.Session[S, I]
}

// Stats returns the common counters.
func (s rollbackSession[S, I]) Stats() Stats {
	st := s.Session.Stats()
	return Stats{Mode: Rollback, Engine: st.Engine, Delay: st.Delay, Prediction: st.Engine.Prediction}
}

// lockstepConfig maps cfg (Lockstep or Auto) to the lockstep front end's.
func lockstepConfig(cfg *Config) lockstep.Config {
	c := lockstep.Config{
		Players: cfg.Players, Local: cfg.Local,
		Peers:              cfg.Peers,
		TurnPeriod:         cfg.period(),
		TicksPerTurn:       cfg.TicksPerTurn,
		InputDelay:         cfg.InputDelay,
		MaxDelay:           cfg.MaxDelay,
		FixedDelay:         cfg.FixedDelay,
		MaxStepsPerUpdate:  cfg.MaxStepsPerUpdate,
		SoloStart:          cfg.SoloStart,
		ChecksumInterval:   cfg.ChecksumInterval,
		LogRetention:       cfg.LogRetention,
		MaxEffectsPerFrame: cfg.MaxEffectsPerFrame,
		Game:               cfg.Game,
		Transport:          cfg.Transport,
		StepClock:          cfg.StepClock,
		HoldInputs:         cfg.HoldInputs,
		Spectators:         cfg.Spectators,
		Spectate:           cfg.Spectate,
	}
	if cfg.Mode == Auto {
		c.MaxPrediction = cfg.Prediction
		if c.MaxPrediction == 0 {
			c.MaxPrediction = DefaultMaxPrediction
		}
		c.DelayBudget = cfg.DelayBudget
		if c.DelayBudget == 0 {
			c.DelayBudget = DefaultDelayBudget
		}
	}
	return c
}

// rollbackConfig maps cfg (Rollback) to the rollback front end's.
func rollbackConfig(cfg *Config) rollback.Config {
	return rollback.Config{
		Players: cfg.Players, Local: cfg.Local,
		Peers:              cfg.Peers,
		TickRate:           cfg.TickRate,
		Game:               cfg.Game,
		ChecksumInterval:   cfg.ChecksumInterval,
		LogRetention:       cfg.LogRetention,
		MaxEffectsPerFrame: cfg.MaxEffectsPerFrame,
		Prediction:         cfg.Prediction,
		InputDelay:         cfg.InputDelay,
		MaxDelay:           cfg.MaxDelay,
		FixedDelay:         cfg.FixedDelay,
		MaxStepsPerUpdate:  cfg.MaxStepsPerUpdate,
		SoloStart:          cfg.SoloStart,
		Transport:          cfg.Transport,
		Spectators:         cfg.Spectators,
		Spectate:           cfg.Spectate,
	}
}
