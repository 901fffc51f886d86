package rollback

import (
	"github.com/rollstep/rollstep/internal/stream"
	"github.com/rollstep/rollstep/internal/timesync"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/core/delay"
	"github.com/rollstep/rollstep/core/pace"
	"github.com/rollstep/rollstep/fixed"
	"github.com/rollstep/rollstep/internal/lifecycle"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/endpoint"
	"github.com/rollstep/rollstep/transport/wire"
)

// maxQueuedEvents bounds the events kept for a caller that does not drain
// them; later events are counted in Stats.DroppedEvents.
const maxQueuedEvents = 4096

// Session is a GGPO-style rollback session: the core engine with W > 0
// and a small adaptive D, driven by the game loop, over one
// transport.Conn. See the package documentation for the host loop. A
// Session is not safe for concurrent use; it starts no goroutine and
// reads no clock.
type Session[S any, I comparable] struct {
	commands[S, I] // Pause, Resume, SetSpeed, Paused
	cfg            Config
	base           time.Duration // the configured frame period
	period         time.Duration // the frame period at the current speed
	eng            *core.Engine[S, I]
	ep             *endpoint.Endpoint[core.Slot[I]]
	rx             receiver[S, I]
	pacer          pace.Pacer
	ts             timesync.Sync
	dc             *delay.Controller
	win            window
	stream         stream.Streamer[core.Slot[I]]
	npeers         int

	started, closed bool
	end             lifecycle.End   // EndAt, or a peer's end
	watch           lifecycle.Watch // the player peers' life cycle; its Refused ends the match before it starts
	now             time.Duration

	local  [core.MaxPlayers]bool
	owner  [core.MaxPlayers]core.PeerID // the peer owning each remote player
	input  [core.MaxPlayers]I           // the newest input of each local player
	delayD int                          // the D given to every local player

	waitLeft int           // frames timesync still asks to wait
	waitEnd  time.Duration // when the current wait ends, if waiting
	waiting  bool
	waited   uint64 // frames waited in total
	lastSync TimesyncEvent
	hasSync  bool
	sent     bool // a message was sent, at sentAt
	sentAt   time.Duration

	bufs       [2]S
	view, prev *S // published states: view is bufs[i], prev the other

	events, spare []Event
	dropped       uint64
	play, cancel  []core.FrameEffect
	stats         Stats
}

// NewSession returns a session for cfg that runs game from initial over
// conn. It validates cfg (a *core.ConfigError or *endpoint.ConfigError),
// that S and I are arena-serializable, and builds the endpoint; the
// handshake starts with the first Update. The session owns conn from now
// on and closes it in Close.
func NewSession[S any, I comparable](cfg Config, game core.Game[S, I], initial S, conn transport.Conn) (*Session[S, I], error) {
	cc, err := cfg.coreConfig()
	if err != nil {
		return nil, err
	}
	c := cfg.filled()
	eng, err := core.NewEngine[S, I](cc, game, &initial)
	if err != nil {
		return nil, err
	}
	ep, err := lifecycle.NewEndpoint[I](lifecycle.Match{Players: c.Players, TickRate: c.TickRate, Checksums: c.ChecksumInterval,
		Game: c.Game, Local: c.Local, Peers: c.Peers, Spectators: c.Spectators}, c.Transport, conn)
	if err != nil {
		return nil, err
	}
	s := &Session[S, I]{cfg: c, base: c.period(), period: c.period(), eng: eng, ep: ep, npeers: len(c.Peers), delayD: c.InputDelay}
	s.pacer, err = pace.New(pace.Config{Period: s.period, MaxSteps: c.MaxStepsPerUpdate, MaxLag: c.MaxCatchUp})
	if err != nil {
		return nil, &core.ConfigError{Field: "TickRate", Reason: err.Error()}
	}
	s.rx.s = s
	s.commands = lifecycle.NewCommands(eng, &s.closed, ErrClosed)
	s.watch = lifecycle.NewWatch(c.Peers, eng, &s.end, &s.stream, &s.ts, ErrRefused, c.SoloStart, s.event)
	s.ts = timesync.New(c.Timesync, s.period, len(c.Peers))
	if !c.FixedDelay {
		s.dc = delay.New(delay.Policy{MaxDelay: c.MaxDelay, Prediction: c.Prediction}, c.InputDelay)
	}
	s.win.init(c.TickRate)
	s.stream.Init(c.Players, len(c.Spectators), c.Spectate, len(c.Peers), s.event)
	for _, p := range c.Local {
		s.local[p] = true
	}
	for i, peer := range c.Peers {
		for _, p := range peer.Players {
			s.owner[p] = core.PeerID(i)
		}
	}
	s.bufs[0], s.bufs[1] = initial, initial
	s.view, s.prev = &s.bufs[0], &s.bufs[1]
	s.events = make([]Event, 0, 16)
	s.spare = make([]Event, 0, 16)
	s.play = make([]core.FrameEffect, 0, 64)
	s.cancel = make([]core.FrameEffect, 0, 64)
	return s, nil
}

// AddLocalInput sets the input local player p holds from now on. Every
// frame Update simulates uses each local player's newest input (input
// delay D schedules it D frames ahead), so a game calls it once per
// rendered frame with the device state, before Update. It returns
// core.ErrNotLocal for a player that is not local.
func (s *Session[S, I]) AddLocalInput(p core.PlayerHandle, v I) error {
	if s.closed {
		return ErrClosed
	}
	if p < 0 || int(p) >= core.MaxPlayers || !s.local[p] {
		return core.ErrNotLocal
	}
	s.input[p] = v
	return nil
}

// State returns the state after frame Frame()-1, as of the newest Update.
// It is a copy owned by the session, refreshed by Update: rendering may
// read it but a write can never reach the simulation.
func (s *Session[S, I]) State() *S { return s.view }

// Previous returns the state shown before the newest Update that
// simulated, for interpolation: draw Previous and State blended by
// Fraction. Like State it is a copy refreshed by Update.
func (s *Session[S, I]) Previous() *S { return s.prev }

// Fraction returns the elapsed part of the current frame period, in
// [0, fixed.One], for interpolating between Previous and State.
func (s *Session[S, I]) Fraction() fixed.F { return s.pacer.Fraction() }

// Frame returns the current frame: the next frame to simulate.
func (s *Session[S, I]) Frame() core.Frame { return s.eng.Frame() }

// ConfirmedFrame returns the newest frame every peer's inputs are known
// for; ok is false before frame 0 is confirmed.
func (s *Session[S, I]) ConfirmedFrame() (core.Frame, bool) { return s.eng.ConfirmedFrame() }

// Started reports whether the match has started (every peer connected).
func (s *Session[S, I]) Started() bool { return s.started }

// InputDelay returns the input delay D of the local players.
func (s *Session[S, I]) InputDelay() int { return s.delayD }

// SetPredictor replaces the engine's predictor (core.RepeatLast by
// default); nil restores the default.
func (s *Session[S, I]) SetPredictor(p core.Predictor[I]) { s.eng.SetPredictor(p) }

// Effects returns the effects the newest Update's simulation emitted, to
// play, and those an earlier Update delivered that a re-simulation no
// longer emits, to stop. Both are owned by the session and valid until
// the next Update.
func (s *Session[S, I]) Effects() (play, cancel []core.FrameEffect) { return s.play, s.cancel }

// Events returns the events raised since the previous call, in order,
// and forgets them. The slice is valid until the next call of Events.
func (s *Session[S, I]) Events() []Event {
	ev := s.events
	s.events, s.spare = s.spare[:0], ev
	return ev
}

// Wait asks the session to skip the next frames frame periods, as a
// TimesyncEvent recommends when TimesyncConfig.Manual is set. The skipped
// periods are not caught up later.
func (s *Session[S, I]) Wait(frames int) error {
	if s.closed {
		return ErrClosed
	}
	if !s.started {
		return ErrNotStarted
	}
	s.waitLeft += max(frames, 0)
	return nil
}

// Close tells every peer that this session leaves (a Leave, sent several
// times), and closes the Conn. Later calls return ErrClosed.
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

// event queues ev for Events.
func (s *Session[S, I]) event(ev Event) {
	if len(s.events) >= maxQueuedEvents {
		s.dropped++
		return
	}
	s.events = append(s.events, ev)
}
