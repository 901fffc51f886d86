package rollstep

import (
	"errors"
	"fmt"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/fixed"
	"github.com/rollstep/rollstep/internal/delay"
	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/pace"
	"github.com/rollstep/rollstep/internal/stream"
	"github.com/rollstep/rollstep/internal/timesync"
	"github.com/rollstep/rollstep/internal/transfer"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport"
)

// The session's errors.
var (
	// ErrClosed is returned by every method of a Session after Close.
	ErrClosed = errors.New("rollstep: session closed")
	// ErrQueueFull is returned by AddLocalInput when the player already
	// has Config.MaxQueuedInputs inputs waiting for a frame, or peers have
	// not acknowledged enough of its inputs to make room, and by Pause,
	// Resume and SetSpeed when 8 commands of the player already wait for
	// an input to ride.
	ErrQueueFull = engine.ErrQueueFull
	// ErrRefused is matched by the error Update returns once a handshake
	// was refused; its text, like the core.RefusedEvent, names the field
	// the peers differ in.
	ErrRefused = errors.New("rollstep: handshake refused")
	// ErrInvalidConfig is matched by every *ConfigError.
	ErrInvalidConfig = engine.ErrInvalidConfig
	// ErrOutOfRange is matched by the errors of setters given a value
	// outside its bounds (SetSpeed), of the methods that take a player
	// (AddLocalInput, Pause, Resume, SetSpeed) for one that is not local,
	// of EndAt for a frame the session has
	// already simulated, and of ReadLog and ReadSteps for a frame that is
	// not confirmed yet or that the input log no longer retains.
	ErrOutOfRange = engine.ErrOutOfRange
)

// maxQueuedEvents bounds the events kept for a caller that does not drain
// them; later ones are counted in Stats.DroppedEvents.
const maxQueuedEvents = 4096

// maxWait bounds the frames Wait may ask to skip at once.
const maxWait = 1 << 16

// stepUnit is the resolution of step-time reports.
const stepUnit = 100 * time.Microsecond

// Session is one peer's session of a match, in every mode: it owns the
// engine, the endpoint over the Conn, the pacer, the delay controller,
// timesync and the spectator stream. What differs by Config.Mode is
// policy: whether it predicts, how D moves, whether inputs queue. The game
// loop drives it with AddLocalInput and Update; see the package
// documentation. It is not safe for concurrent use, starts no goroutine
// and reads no clock but Config.StepClock.
type Session[S any, I comparable] struct {
	cfg   Config // defaults filled in
	eng   *engine.Engine[S, I]
	ep    *endpoint.Endpoint[engine.Slot[I]]
	rx    receiver[S, I]
	pacer pace.Pacer
	ctl   *delay.Controller

	// stream is the host side of the spectator stream; streamedAt is when
	// it last streamed before the match started.
	stream     stream.Streamer[engine.Slot[I]]
	streamed   bool
	streamedAt time.Duration

	// Timesync: ts estimates the advantage over each peer; waitLeft frames
	// are still to wait, until waitEnd once waiting (syncWait); excused is
	// stall time the waits caused, which is not a stall.
	ts                timesync.Sync
	waitLeft          int
	waitEnd           time.Duration
	syncWait          bool
	waitFrom, excused time.Duration // pacer.Stalled() when the wait began
	waitTime          time.Duration // all the time timesync waited
	lastSync          core.TimesyncEvent
	hasSync           bool

	locals     []local[I]
	bufs       [2]S
	view, prev *S // State and Previous: copies the game cannot write into the engine

	started, closed bool
	end             matchEnd        // EndAt, or a peer's end
	endWait         time.Duration   // how long the end waits for spectators, and after a peer lost to silence
	holdUntil       []time.Duration // per player peer: the end waits for it until then (holdEnd)
	lossReturns     []int           // per player peer: the returns its engine had settled when the endpoint lost it (resumeReturned)
	refused         error           // set by route: the match cannot start
	now, lastSend   time.Duration
	sent            bool       // something was sent, at lastSend
	added           core.Frame // the local inputs made at frame added are scheduled, if addedOK
	addedOK         bool

	// Stall accounting: waiting is the mask of peers waited for since the
	// last check, frameWaiting the union over the current frame's wait.
	waiting, frameWaiting uint64
	peerStall             []time.Duration
	stats                 Stats

	// Delay-controller window, since winStart.
	winStart           time.Duration
	winFrames, winDeep int
	winStall, winStep  time.Duration // stall, and the largest step time, in the window
	report             uint16        // step time reported, in stepUnit
	lowerTo            int           // a lower D the controller asked for, not yet applied (see lower); -1 if none
	rtt                time.Duration // the RTT the controller last measured (DelayEvent.RTT)

	// watch is a spectator's side of the stream (Config.Spectate), else nil.
	watch *watch[I]

	// Rejoin: this session's own (Config.Rejoin) and its peers'; game,
	// ecfg and the game's predictor (nil: the default) are kept to resume
	// the engine.
	rejoin  rejoins[S, I]
	game    core.Game[S, I]
	ecfg    engine.Config
	predict engine.Predictor[I]

	// Events since the previous Events call (some point into stalls), and
	// the buffers that call returned; what the latest Update emitted.
	events, spare       []core.Event
	stalls, spareStalls []core.StallEvent
	effects, cancelled  []core.FrameEffect
}

// NewSession returns a session of cfg.Mode at frame 0 whose game state is
// a copy of initial, talking to cfg.Peers over conn. It validates cfg (a
// *ConfigError naming the field) and that S and I are arena-serializable (a
// *state.ValidationError). conn is the session's from now on; Close
// closes it. The handshake starts with the first Update.
func NewSession[S any, I comparable](cfg Config, game core.Game[S, I], initial S, conn transport.Conn) (*Session[S, I], error) {
	c, cc, err := cfg.engineConfig()
	if err != nil {
		return nil, err
	}
	if game == nil || conn == nil {
		return nil, &ConfigError{Field: "game and conn", Reason: "must not be nil"}
	}
	if err := state.Validate[S](); err != nil {
		return nil, err
	}
	eng, err := engine.NewEngine(cc, game, &initial)
	if err != nil {
		return nil, err
	}
	if !c.held() {
		eng.SetPredictor(predictNone[I])
	}
	for i, p := range c.Peers {
		if p.Open && !c.Rejoin {
			_ = eng.DisconnectPeer(core.PeerID(i)) // an empty seat, from frame 0: i is a player peer
		}
	}
	ep, err := newEndpoint[I](&c, conn)
	if err != nil {
		return nil, err
	}
	pc, err := pace.New(pace.Config{Period: c.TurnPeriod, MaxSteps: c.MaxStepsPerUpdate, MaxLag: c.MaxCatchUp})
	if err != nil {
		return nil, &ConfigError{Field: "MaxCatchUp", Reason: err.Error()}
	}
	pol := delay.Policy{MinDelay: c.MinDelay, MaxDelay: c.MaxDelay}
	switch c.Mode {
	case Rollback:
		pol.Prediction = c.Prediction
	case Auto:
		pol.Auto, pol.MaxPrediction, pol.Budget = true, c.Prediction, c.DelayBudget
	}
	s := &Session[S, I]{
		cfg: c, eng: eng, ep: ep, pacer: pc, ctl: delay.New(pol, c.InputDelay), lowerTo: -1,
		peerStall: make([]time.Duration, len(c.Peers)),
		events:    make([]core.Event, 0, 16), spare: make([]core.Event, 0, 16),
		stalls: make([]core.StallEvent, 0, c.MaxStepsPerUpdate), spareStalls: make([]core.StallEvent, 0, c.MaxStepsPerUpdate),
		effects: make([]core.FrameEffect, 0, 16), cancelled: make([]core.FrameEffect, 0, 16),
	}
	s.bufs[0], s.bufs[1] = initial, initial
	s.view, s.prev = &s.bufs[0], &s.bufs[1]
	for _, p := range c.Local {
		l := local[I]{player: p}
		if !c.held() {
			l.inputs = newRing[I](c.MaxQueuedInputs)
		}
		s.locals = append(s.locals, l)
	}
	s.rx.s = s
	s.game, s.ecfg = game, cc
	s.rejoin.began = make([]time.Duration, len(c.Peers))
	s.rejoin.restarts = make([]int, len(c.Peers))
	s.rejoin.unheardSince = make([]time.Duration, len(c.Peers))
	s.rejoin.me.active = c.Rejoin
	s.endWait = ep.Config().DisconnectTimeout
	s.rejoin.backoff.timeout = s.endWait
	s.holdUntil = make([]time.Duration, len(c.Peers))
	s.lossReturns = make([]int, len(c.Peers))
	if c.Spectate {
		s.watch = &watch[I]{silence: s.endWait}
	}
	s.ts = timesync.New(c.timesync(), c.TurnPeriod, len(c.Peers))
	s.stream.Init(c.Players, len(c.Spectators), stream.Config{Delay: c.SpectatorDelay, MaxLag: c.SpectatorMaxLag,
		Join: transfer.SenderConfig{Rate: c.RejoinRate, Timeout: c.RejoinTimeout}}, len(c.Peers), s.event)
	return s, nil
}

// AddLocalInput gives local player p's input. Command-style (Lockstep and
// Auto by default), it is queued: each frame takes the oldest queued input
// of every local player, or the zero I when none is queued, and schedules
// it D frames ahead, so a game adds inputs whenever the player acts.
// State-style (Rollback, or Config.Inputs Held), it sets the input p holds,
// and every frame schedules the newest: a game calls it once per rendered
// frame with the device state, before Update. The value is copied. It
// returns an error matching ErrOutOfRange for a player that is not local,
// ErrQueueFull when the queue is full and ErrClosed after Close.
func (s *Session[S, I]) AddLocalInput(p core.PlayerHandle, input I) error {
	if s.closed {
		return ErrClosed
	}
	l := s.findLocal(p)
	switch {
	case l == nil:
		return engine.ErrNotLocal
	case s.cfg.held():
		l.held = input
	case !l.inputs.push(input):
		return ErrQueueFull
	}
	return nil
}

// findLocal returns the local record of player p, or nil.
func (s *Session[S, I]) findLocal(p core.PlayerHandle) *local[I] {
	for i := range s.locals {
		if s.locals[i].player == p {
			return &s.locals[i]
		}
	}
	return nil
}

// Pause asks, on behalf of local player p, for the game to pause: the
// command rides the player's next input and every peer, whatever its
// mode, pauses at the same frame and reports a core.PauseEvent. While
// paused, frames run (inputs and checksums flow) but the game's Step is
// not called; queued game inputs wait for the resume. It returns ErrClosed
// after Close, ErrOutOfRange and ErrQueueFull.
func (s *Session[S, I]) Pause(p core.PlayerHandle) error {
	if s.closed {
		return ErrClosed
	}
	return s.eng.Pause(p)
}

// Resume asks, on behalf of local player p, for a paused game to resume,
// like Pause.
func (s *Session[S, I]) Resume(p core.PlayerHandle) error {
	if s.closed {
		return ErrClosed
	}
	return s.eng.Resume(p)
}

// SetSpeed asks, on behalf of local player p, for the game speed to become
// percent (1 to 1000, else ErrOutOfRange) of
// normal, like Pause: a frame then lasts the frame period·100/percent
// (core.SpeedEvent).
func (s *Session[S, I]) SetSpeed(p core.PlayerHandle, percent int) error {
	if s.closed {
		return ErrClosed
	}
	return s.eng.SetSpeed(p, percent)
}

// Wait asks the session to skip the next frames frame periods, as a
// core.TimesyncEvent recommends when Config.ManualTimesync is set. The skipped
// periods are not caught up later. Asked before the match started, the
// wait begins once it has. It returns ErrClosed after Close.
func (s *Session[S, I]) Wait(frames int) error {
	if s.closed {
		return ErrClosed
	}
	s.waitLeft = min(s.waitLeft+max(frames, 0), maxWait) // an absurd request cannot overflow the wait
	return nil
}

// SetPredictor replaces the guess the session makes of a remote player's
// input for a frame whose real input has not arrived: by default the last
// input for state-style inputs and the zero input for command-style ones;
// nil restores the default. p gets the player, the frame, the player's
// newest known input last, for frame lastFrame (lastFrame < frame), and
// known, false when no input of the player is known yet (last is then the
// zero I). p must be a pure function of its arguments: the session calls
// it again when it re-simulates. Peers may use different predictors. It
// holds in a session that rejoins (a restarted process's game sets it
// again).
func (s *Session[S, I]) SetPredictor(p func(player core.PlayerHandle, frame core.Frame, last I, lastFrame core.Frame, known bool) I) {
	s.predict = p
	s.eng.SetPredictor(s.predictor())
}

// predictor returns the engine's Predictor: the game's, or the default of
// the input style (nil is the engine's, the last input).
func (s *Session[S, I]) predictor() engine.Predictor[I] {
	if s.predict == nil && !s.cfg.held() {
		return predictNone[I]
	}
	return s.predict
}

// State returns the game state after frame Frame()-1 as of the latest
// Update. It is a copy owned by the session: rendering may read it, and a
// write can never reach the simulation; never keep it past the next
// Update.
func (s *Session[S, I]) State() *S { return s.view }

// Previous returns the game state before the latest frame, for rendering
// interpolation: draw Lerp(Previous(), State(), Fraction()). It is owned
// by the session, under the same rules as State.
func (s *Session[S, I]) Previous() *S { return s.prev }

// Fraction returns the elapsed fraction of the current frame, in
// [0, fixed.One]: how far the renderer is between Previous and State. It
// stays at fixed.One while a due frame waits for inputs.
func (s *Session[S, I]) Fraction() fixed.F { return s.pacer.Fraction() }

// Frame returns the current frame (a turn, in Lockstep): the next to run.
func (s *Session[S, I]) Frame() core.Frame { return s.eng.Frame() }

// ConfirmedFrame returns the newest frame that can never be simulated
// again; ok is false before frame 0 is. In Lockstep it is Frame()-1;
// predicted frames may follow it in the other modes.
func (s *Session[S, I]) ConfirmedFrame() (f core.Frame, ok bool) { return s.eng.ConfirmedFrame() }

// Checksum returns the checksum of the state after confirmed frame f, the
// one every peer compares to detect a desync: equal sums mean equal
// states. ok is false unless f is a multiple of Config.ChecksumInterval,
// among the newest 128 such frames, and confirmed at a frame the session
// ran: an input that arrived in the latest Update may confirm a frame
// (ConfirmedFrame) whose checksum comes with the next frame run.
func (s *Session[S, I]) Checksum(f core.Frame) (sum uint64, ok bool) { return s.eng.Checksum(f) }

// Events returns the events raised since the previous call, in order,
// and forgets them; at most 4096 are kept between calls (the rest are
// counted in Stats.DroppedEvents). The slice, and the core.StallEvents it
// points to, are the session's, valid until the next call of Events.
//
// The events are the same set in every mode. Use a type switch; the
// values are
//
//   - *core.StallEvent (a pointer, valid until the next Events call, so
//     that a stalled frame allocates nothing);
//   - the engine's: core.DesyncEvent[S] (its Snapshot is a copy the caller
//     may keep), core.DesyncFieldsEvent (paths name fields of the game's
//     state, or "match." then a field of the pause and speed state),
//     core.EquivocationEvent, core.DisconnectEvent (the agreed frame a
//     dropped player's inputs stop at), core.EffectsDroppedEvent,
//     core.PauseEvent, core.SpeedEvent, and core.SyncTestEvent in a build
//     with the rollstep_synctest tag;
//   - the life cycle: core.StartedEvent, core.MatchEndedEvent,
//     core.DelayEvent, and for a peer core.ConnectedEvent,
//     core.RefusedEvent, core.InterruptedEvent, core.ResumedEvent,
//     core.PeerLostEvent (dropped after the timeout, or left) and
//     core.SplitEvent (a lost peer heard again), core.RejoinEvent (a
//     restarted process of a peer, or this session with Config.Rejoin,
//     came back into the match, or failed to); for a spectator of the
//     session's, core.SpectatorEvent; where the session predicts,
//     core.TimesyncEvent.
//
// A spectator (Config.Spectate) raises the life cycle of its host, peer 0,
// and the match's pauses, speeds and disconnects as it replays them; its
// stream ends with a core.PeerLostEvent (Left with Reason LeaveEnded at the
// agreed end, LeaveDropped when the host dropped it for lagging).
func (s *Session[S, I]) Events() []core.Event {
	ev := s.events
	s.events, s.spare = s.spare[:0], ev
	s.stalls, s.spareStalls = s.spareStalls[:0], s.stalls
	return ev
}

// event queues ev for Events.
func (s *Session[S, I]) event(ev core.Event) {
	if len(s.events) >= maxQueuedEvents {
		s.stats.DroppedEvents++
		return
	}
	s.events = append(s.events, ev)
}

// Effects returns the effects the frames of the latest Update emitted, to
// play, and those an earlier Update delivered that a re-simulation no
// longer emits, to stop. The slices are the session's, valid until the
// next Update.
func (s *Session[S, I]) Effects() (play, cancel []core.FrameEffect) {
	return s.effects, s.cancelled
}

// LogRange returns the frames whose inputs the input log holds: start <=
// f < end. Every frame below end is confirmed; end never decreases, and
// frames below start were dropped: the log keeps the newest
// Config.LogRetention frames (more with spectators). With a zero
// LogRetention and no spectators it is empty. A recorder reads the frames
// from its previous end to the new end after every Update.
func (s *Session[S, I]) LogRange() (start, end core.Frame) { return s.eng.LogRange() }

// ReadLog appends the inputs of confirmed frame f, one per player in
// handle order, to dst: exactly what the game's Step got in the frame's
// final simulation (on its first tick), a remote player's real input and
// never a prediction. Status is core.InputConfirmed, core.InputFilled for
// a frame the engine filled when D rose (the zero I for command-style
// inputs, else the held one), or core.InputDisconnected with the zero
// value from the agreed disconnect frame of a player on. When the game was
// never paused and TicksPerTurn is 1 the log's frames replay the match;
// record ReadSteps otherwise. It returns an error matching ErrOutOfRange outside
// LogRange, does not allocate when dst has room, and works after Close.
func (s *Session[S, I]) ReadLog(f core.Frame, dst []core.Input[I]) ([]core.Input[I], error) {
	return s.eng.ReadLog(f, dst)
}

// ReadSteps appends the inputs of every call of the game's Step in
// confirmed frame f to dst: one group of Players inputs per call, none for
// a paused frame and TicksPerTurn otherwise (the first is what ReadLog
// returns, the others the zero I). One replay frame per group (the replay
// package's Recorder.AddLog does this) reproduces any match. It returns
// an error matching ErrOutOfRange outside LogRange.
func (s *Session[S, I]) ReadSteps(f core.Frame, dst []core.Input[I]) ([]core.Input[I], error) {
	return s.eng.ReadSteps(f, dst)
}

// EndAt ends the match at frame f, its first frame not played: the
// session runs no frame from f on, and once every frame before f is
// confirmed and every peer holds this session's inputs for them, it leaves
// (core.MatchEndedEvent), so that the first peer to stop strands nobody.
// Every peer's game calls it with the same f, decided from the simulation
// (a round timer, a score); a peer whose game has not called it adopts the
// f of the first peer that ends, if it has not simulated frame f yet. The
// end holds in a session that rejoins (a restarted process's game sets it
// again). It returns an error matching ErrOutOfRange when the session already
// simulated frame f (call it at least W frames ahead, or from confirmed
// state), and ErrClosed after Close.
func (s *Session[S, I]) EndAt(f core.Frame) error {
	if s.closed {
		return ErrClosed
	}
	if err := s.end.set(s.eng, f); err != nil {
		return fmt.Errorf("%w: frame %d, the session is at frame %d", ErrOutOfRange, f, s.eng.Frame())
	}
	return nil
}

// Ended reports whether the match ended (core.MatchEndedEvent) and the
// session left it, or for a spectator whether its stream ended (a
// core.PeerLostEvent): Update does nothing more. A host with spectators
// leaves once they hold the stream to the end (the stream delay lifted),
// or after Transport.DisconnectTimeout, so it may end a little after its
// core.MatchEndedEvent.
func (s *Session[S, I]) Ended() bool { return s.end.left }

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
