package lockstep

import (
	"errors"
	"github.com/rollstep/rollstep/internal/stream"
	"github.com/rollstep/rollstep/internal/timesync"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/core/delay"
	"github.com/rollstep/rollstep/core/pace"
	"github.com/rollstep/rollstep/fixed"
	"github.com/rollstep/rollstep/internal/lifecycle"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/endpoint"
	"github.com/rollstep/rollstep/transport/wire"
)

// ErrClosed is returned by every method of a Session after Close.
var ErrClosed = errors.New("lockstep: session closed")

// ErrQueueFull is returned by AddLocalInput when the player already has
// Config.MaxQueuedInputs inputs waiting for a turn.
var ErrQueueFull = errors.New("lockstep: input queue full")

// ErrRefused is matched by the error Update returns once the handshake
// with a peer was refused: the peers' match configurations differ (the
// wrapped *endpoint.HandshakeError names the field). The session then
// does nothing more; Close it.
var ErrRefused = errors.New("lockstep: handshake refused")

// stepUnit is the resolution of step-time reports.
const stepUnit = 100 * time.Microsecond

// Session is one peer's lockstep session: it owns the engine, the
// endpoint over the Conn, the pacer and the delay controller. The game
// loop drives it with Update; see the package documentation. It is not
// safe for concurrent use and starts no goroutine.
type Session[S any, I comparable] struct {
	commands[S, I] // Pause, Resume, SetSpeed, Paused
	cfg            Config
	eng            *core.Engine[S, I]
	ep             *endpoint.Endpoint[core.Slot[I]]
	rx             receiver[S, I]
	// stream is the host side of the spectator stream; streamedAt is when
	// it last streamed before the match started.
	stream     stream.Streamer[core.Slot[I]]
	streamed   bool
	streamedAt time.Duration

	// Timesync (auto mode): ts estimates the advantage over each peer;
	// waitLeft turns are still to wait, until waitEnd once waiting;
	// excused is stall time the waits caused, which is not a stall.
	ts       timesync.Sync
	waitLeft int
	waitEnd  time.Duration
	syncWait bool          // a timesync wait is running, until waitEnd
	waitFrom time.Duration // pacer.Stalled() when the wait began
	excused  time.Duration
	waitTime time.Duration // all the time timesync waited
	waited   uint64
	pacer    pace.Pacer
	ctl      *delay.Controller

	locals []local[I]
	prev   S // the game state before the latest turn, for interpolation
	view   S // the game state after it: State, a copy the game cannot write into the engine

	started  bool
	closed   bool
	end      lifecycle.End   // EndAt, or a peer's end
	watch    lifecycle.Watch // the player peers' life cycle; its Refused (a refusal, or a handshake timeout) ends the match before it starts
	now      time.Duration
	lastSend time.Duration
	added    core.Frame // the local inputs made at turn added are scheduled, if addedOK
	addedOK  bool
	copied   core.Frame // prev is the state before turn copied-1 (0: initial)

	// Stall accounting: waiting is the mask of peers waited for since the
	// last check, turnWaiting the union over the current turn's wait.
	waiting, turnWaiting uint64
	peerStall            []time.Duration
	stats                Stats

	// Delay-controller window, since winStart.
	winStart time.Duration
	winTurns int
	winStall time.Duration
	winDeep  int
	winStep  time.Duration // largest step time in the window
	report   uint16        // step time reported, in stepUnit
	lowerTo  int           // a lower D the controller asked for, not yet applied (see lower); -1 if none
	rtt      time.Duration // the RTT the controller last measured (DelayEvent.RTT)

	// Events since the previous Events call (some point into stalls),
	// and the buffers the previous call returned; what the latest Update's
	// turns emitted.
	events, spare       []Event
	stalls, spareStalls []StallEvent
	droppedEvents       uint64
	specStats           []stream.Stats // Stats.Spectators, reused
	effects             []core.FrameEffect
	cancelled           []core.FrameEffect
}

// NewSession returns a session at turn 0 whose game state is a copy of
// initial, talking to cfg.Peers over conn. It validates cfg (a
// *ConfigError or *core.ConfigError) and that S and I are
// arena-serializable (a *state.ValidationError). conn is owned by the
// session from now on; Close closes it.
func NewSession[S any, I comparable](cfg Config, game core.Game[S, I], initial S, conn transport.Conn) (*Session[S, I], error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if game == nil {
		return nil, &ConfigError{Field: "game", Reason: "is nil"}
	}
	if conn == nil {
		return nil, &ConfigError{Field: "conn", Reason: "is nil"}
	}
	if err := state.Validate[S](); err != nil {
		return nil, err
	}
	c := cfg.withDefaults()
	eng, err := core.NewEngine(c.engineConfig(), game, &initial)
	if err != nil {
		return nil, err
	}
	if !c.HoldInputs {
		eng.SetPredictor(predictNone[I])
	}
	rate := max(1, min(65535, int(time.Second/c.TurnPeriod)))
	ep, err := lifecycle.NewEndpoint[I](lifecycle.Match{Players: c.Players, TickRate: rate, Steps: c.TicksPerTurn,
		Checksums: c.ChecksumInterval, Game: c.Game, Local: c.Local, Peers: c.Peers, Spectators: c.Spectators}, c.Transport, conn)
	if err != nil {
		return nil, err
	}
	pc, err := pace.New(pace.Config{Period: c.TurnPeriod, MaxSteps: c.MaxStepsPerUpdate})
	if err != nil {
		return nil, err
	}
	pol := delay.Policy{MinDelay: c.MinDelay, MaxDelay: c.MaxDelay}
	if c.MaxPrediction > 0 {
		pol.Auto, pol.MaxPrediction, pol.Budget = true, c.MaxPrediction, c.DelayBudget
	}
	s := &Session[S, I]{
		cfg: c, eng: eng, ep: ep, pacer: pc, ctl: delay.New(pol, c.InputDelay), lowerTo: -1,
		prev: initial, view: initial, peerStall: make([]time.Duration, len(c.Peers)),
		events: make([]Event, 0, 16),
		stalls: make([]StallEvent, 0, c.MaxStepsPerUpdate), spareStalls: make([]StallEvent, 0, c.MaxStepsPerUpdate),
		effects: make([]core.FrameEffect, 0, 16), cancelled: make([]core.FrameEffect, 0, 16),
	}
	for _, p := range c.Local {
		s.locals = append(s.locals, local[I]{player: p, inputs: newRing[I](c.MaxQueuedInputs)})
	}
	s.rx.s = s
	s.commands = lifecycle.NewCommands(eng, &s.closed, ErrClosed)
	s.watch = lifecycle.NewWatch(c.Peers, eng, &s.end, &s.stream, &s.ts, ErrRefused, c.SoloStart, s.event)
	s.ts = timesync.New(c.Timesync, c.TurnPeriod, len(c.Peers))
	s.stream.Init(c.Players, len(c.Spectators), c.Spectate, len(c.Peers), s.event)
	return s, nil
}

// findLocal returns the local record of player p.
func (s *Session[S, I]) findLocal(p core.PlayerHandle) *local[I] {
	for i := range s.locals {
		if s.locals[i].player == p {
			return &s.locals[i]
		}
	}
	return nil
}

// AddLocalInput queues local player p's input. Each turn takes the oldest
// queued input of every local player, or the zero I when none is queued,
// and schedules it D turns ahead; so a command-style game (zero I = no
// command) adds inputs whenever the player acts. With Config.HoldInputs
// it sets the input p holds instead, and every turn schedules the newest
// (a state-style game calls it every rendered frame). The value is
// copied. It returns core.ErrNotLocal for a
// player that is not local, ErrQueueFull when the queue is full and
// ErrClosed after Close.
func (s *Session[S, I]) AddLocalInput(p core.PlayerHandle, input I) error {
	if s.closed {
		return ErrClosed
	}
	l := s.findLocal(p)
	if l == nil {
		return core.ErrNotLocal
	}
	if s.cfg.HoldInputs {
		l.held = input
		return nil
	}
	if !l.inputs.push(input) {
		return ErrQueueFull
	}
	return nil
}

// commands are the session's match commands.
type commands[S any, I comparable] = lifecycle.Commands[S, I]

// Pause asks, on behalf of local player p, for the game to pause: the
// command rides the player's next input and every peer, whatever its
// mode, pauses at the same turn (core.PauseEvent; see core.Engine.Pause).
// It returns ErrClosed after Close, core.ErrNotLocal and
// core.ErrCommandsFull.
func (s *Session[S, I]) Pause(p core.PlayerHandle) error { return s.commands.Pause(p) }

// Resume asks, on behalf of local player p, for a paused game to resume,
// like Pause.
func (s *Session[S, I]) Resume(p core.PlayerHandle) error { return s.commands.Resume(p) }

// SetSpeed asks, on behalf of local player p, for the game speed to become
// percent (core.MinSpeed to core.MaxSpeed, else core.ErrOutOfRange) of
// normal, like Pause: a turn then lasts TurnPeriod·100/percent (core.SpeedEvent).
func (s *Session[S, I]) SetSpeed(p core.PlayerHandle, percent int) error {
	return s.commands.SetSpeed(p, percent)
}

// Paused reports whether the game is paused at the current turn.
func (s *Session[S, I]) Paused() bool { return s.commands.Paused() }

// State returns the game state after turn Frame()-1. It is a copy owned
// by the session, refreshed by Update: rendering may read it, and a write
// can never reach the simulation.
func (s *Session[S, I]) State() *S { return &s.view }

// Previous returns the game state before the latest turn, for rendering
// interpolation: draw Lerp(Previous(), State(), Fraction()). It is owned
// by the session and valid until the next Update; never write it.
func (s *Session[S, I]) Previous() *S { return &s.prev }

// Fraction returns the elapsed fraction of the current turn, in
// [0, fixed.One]: how far the renderer is between Previous and State. It
// stays at fixed.One while a due turn waits for inputs.
func (s *Session[S, I]) Fraction() fixed.F { return s.pacer.Fraction() }

// Frame returns the current turn: the next one to run.
func (s *Session[S, I]) Frame() core.Frame { return s.eng.Frame() }

// ConfirmedFrame returns the newest turn that can never be simulated
// again; ok is false before turn 0 is. In pure lockstep it is Frame()-1;
// in auto mode predicted turns may follow it.
func (s *Session[S, I]) ConfirmedFrame() (f core.Frame, ok bool) { return s.eng.ConfirmedFrame() }

// Started reports whether the match has started: every peer's handshake
// finished (or, with Config.SoloStart, timed out), and turn 0 may run.
func (s *Session[S, I]) Started() bool { return s.started }

// maxQueuedEvents bounds the events kept for a caller that does not drain
// them; beyond it they are counted in Stats.DroppedEvents.
const maxQueuedEvents = 4096

// Events returns the events raised since the previous call, in order,
// and forgets them. The slice (and the StallEvents it points to) is owned
// by the session and valid until the next call of Events.
func (s *Session[S, I]) Events() []Event {
	ev := s.events
	s.events, s.spare = s.spare[:0], ev
	s.stalls, s.spareStalls = s.spareStalls[:0], s.stalls
	return ev
}

// event queues ev for Events.
func (s *Session[S, I]) event(ev Event) {
	if len(s.events) >= maxQueuedEvents {
		s.droppedEvents++
		return
	}
	s.events = append(s.events, ev)
}

// Effects returns the effects emitted by the turns the latest Update ran,
// and the effects a rollback cancelled (auto mode only). The slices are
// owned by the session and valid until the next Update.
func (s *Session[S, I]) Effects() (play, cancel []core.FrameEffect) {
	return s.effects, s.cancelled
}

// Stats returns the session's counters. The slices in it are owned by the
// session and overwritten by the next call.
func (s *Session[S, I]) Stats() Stats {
	st := s.stats
	st.Engine = s.eng.Stats()
	s.ep.FillStats(&st.Engine)
	st.TurnPeriod = s.pacer.Period()
	st.Stall = s.pacer.Stalled() - s.waitTime // timesync's waits are no stall
	if s.syncWait {
		st.Stall -= s.pacer.Stalled() - s.waitFrom
	}
	st.PeerStall = s.peerStall
	st.DroppedEvents = s.droppedEvents
	st.Waited = s.waited
	st.Spectators = s.stream.Stats(s.specStats[:0])
	s.specStats = st.Spectators
	st.Prediction = s.eng.Prediction()
	if len(s.locals) > 0 {
		st.Delay, _ = s.eng.InputDelay(s.locals[0].player)
	} else {
		st.Delay = s.ctl.Current().Delay
	}
	st.StepTime = time.Duration(s.report) * stepUnit
	st.SlowestStep = s.slowestStep()
	ctl := s.eng.Control()
	st.Paused, st.Speed = ctl.Paused, ctl.Speed
	st.Turns, st.Played = int64(s.eng.Frame()), int64(ctl.Played)
	return st
}

// Peer returns the connection counters and life-cycle state of remote
// peer p; ok is false if p is not a peer of the match.
func (s *Session[S, I]) Peer(p core.PeerID) (st endpoint.PeerStats, ok bool) { return s.ep.Peer(p) }

// Close sends a Leave to every peer and closes the Conn. Later calls
// return ErrClosed.
func (s *Session[S, I]) Close() error {
	if s.closed {
		return ErrClosed
	}
	s.closed = true
	err := s.ep.Leave(s.now, wire.LeaveQuit, s.eng.Frame())
	if cerr := s.ep.Close(); err == nil {
		err = cerr
	}
	return err
}
