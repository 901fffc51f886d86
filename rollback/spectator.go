package rollback

import (
	"fmt"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/stream"
	"github.com/rollstep/rollstep/internal/transfer"
	"github.com/rollstep/rollstep/internal/wire"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/fixed"
	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/internal/pace"
	"github.com/rollstep/rollstep/transport"
)

// SpectatorConfig configures a Spectator. Players, TickRate,
// StepsPerFrame, ChecksumInterval and Game must equal the host's (the
// handshake compares them). The host may be a session of any mode: for a
// lockstep host, TickRate is its turn rate and StepsPerFrame its
// TicksPerTurn.
type SpectatorConfig struct {
	// Host is the address of the host session on the Conn.
	Host transport.Addr
	// Players is the number of players; 0 means 2.
	Players int
	// TickRate is the frame rate; 0 means 60.
	TickRate int
	// StepsPerFrame is how many times each frame calls the game's Step
	// (core.Config.StepsPerFrame); 0 means 1.
	StepsPerFrame int
	// ChecksumInterval must equal the host's; 0 means 1.
	ChecksumInterval int
	// Game identifies the game build, as in Config.
	Game [16]byte
	// Buffer is how many received frames the spectator keeps unplayed to
	// absorb jitter; with more it catches up faster than real time. 0
	// means 2.
	Buffer int
	// MaxStepsPerUpdate bounds the frames one Update simulates, catch-up
	// included; 0 means 8.
	MaxStepsPerUpdate int
	// Transport configures the connection to the host, as in Config.
	Transport transport.Config
}

// Spectator replays a match from the confirmed inputs one host streams
// to it (see Config.Spectators): it never predicts and never rolls back,
// plays at the tick rate and catches up faster, at most
// MaxStepsPerUpdate frames per Update, when it is behind. The host never
// waits for it. When the host leaves, is lost or drops it, a
// core.PeerLostEvent ends it cleanly. Not safe for concurrent use.
type Spectator[S any, I comparable] struct {
	cfg    SpectatorConfig
	period time.Duration
	game   core.Game[S, I]
	ecfg   engine.Config
	eng    *engine.Engine[S, I]
	join   *transfer.Receiver // the join record of a running match, once offered
	offer  transfer.Offer
	ack    []byte // the newest ack of the join record
	loaded bool   // the join record is in
	ep     *endpoint.Endpoint[engine.Slot[I]]
	rx     specReceiver[S, I]
	pacer  pace.Pacer

	next    [core.MaxPlayers]core.Frame // frames of each player's inputs fed to the engine
	goneAt  [core.MaxPlayers]core.Frame
	gone    uint16 // players whose disconnect was fed to the engine
	horizon core.Frame
	msg     engine.Message[engine.Slot[I]] // a message fed to the engine
	reply   engine.Message[engine.Slot[I]] // the acknowledgement sent to the host
	out     [1]engine.Outgoing[engine.Slot[I]]

	connected, ended, closed bool
	streaming                bool          // a stream message or a join record's part arrived
	heardAt                  time.Duration // when the newest of them arrived
	repliedAt                time.Duration // when the newest acknowledgement was sent
	replied                  bool

	bufs       [2]S
	view, prev *S
	play       []core.FrameEffect
	events     []core.Event
	spare      []core.Event
	dropped    uint64 // events over the bound, lost
}

// NewSpectator returns a spectator of the host at cfg.Host over conn,
// starting from initial (the same initial state as the players'). The
// handshake starts with the first Update.
func NewSpectator[S any, I comparable](cfg SpectatorConfig, game core.Game[S, I], initial S, conn transport.Conn) (*Spectator[S, I], error) {
	if cfg.Players == 0 {
		cfg.Players = 2
	}
	if cfg.TickRate == 0 {
		cfg.TickRate = 60
	}
	if cfg.Buffer == 0 {
		cfg.Buffer = 2
	}
	if cfg.MaxStepsPerUpdate == 0 {
		cfg.MaxStepsPerUpdate = 8
	}
	bad := func(field, format string, args ...any) error {
		return &rollstep.ConfigError{Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	switch {
	case cfg.TickRate < 1 || cfg.TickRate > 1000:
		return nil, bad("TickRate", "%d is outside 1..%d", cfg.TickRate, 1000)
	case cfg.Buffer < 0 || cfg.Buffer > 1024:
		return nil, bad("Buffer", "%d is outside 0..1024", cfg.Buffer)
	case cfg.MaxStepsPerUpdate < 1 || cfg.MaxStepsPerUpdate > 64:
		return nil, bad("MaxStepsPerUpdate", "%d is outside 1..64", cfg.MaxStepsPerUpdate)
	case cfg.StepsPerFrame < 0 || cfg.StepsPerFrame > 64:
		return nil, bad("StepsPerFrame", "%d is outside 0..64", cfg.StepsPerFrame)
	}
	// Every player belongs to its own virtual peer, so a disconnect is
	// agreed player by player (see feedGone).
	cc := engine.Config{Players: cfg.Players, DisableChecksums: true, MaxRunLength: stream.Run, StepsPerFrame: cfg.StepsPerFrame}
	for p := range cfg.Players {
		cc.Peers = append(cc.Peers, []core.PlayerHandle{core.PlayerHandle(p)})
	}
	eng, err := engine.NewEngine[S, I](cc, game, &initial)
	if err != nil {
		return nil, err
	}
	tc := endpoint.ConfigOf(cfg.Transport)
	tc.Digest, err = wire.DigestOf[engine.Slot[I]](cfg.Players, cfg.TickRate, cfg.ChecksumInterval, cfg.Game)
	if err != nil {
		return nil, bad("Game", "%v", err)
	}
	tc.Digest.ExtraSteps = uint8(max(cfg.StepsPerFrame, 1) - 1)
	ep, err := endpoint.New[engine.Slot[I]](tc, conn, []transport.Addr{cfg.Host})
	if err != nil {
		return nil, err
	}
	sp := &Spectator[S, I]{cfg: cfg, period: time.Second / time.Duration(cfg.TickRate), game: game, ecfg: cc, eng: eng, ep: ep}
	sp.pacer, err = pace.New(pace.Config{Period: sp.period, MaxSteps: cfg.MaxStepsPerUpdate})
	if err != nil {
		return nil, bad("TickRate", "%v", err)
	}
	sp.rx.sp = sp
	// The engine rejects frames this far past its current frame; stay well
	// inside (MaxInputDelay 32 and MaxRunLength stream.Run size its rings).
	sp.horizon = 128
	sp.msg.Inputs = make([]engine.InputRun[engine.Slot[I]], 0, 1)
	sp.bufs[0], sp.bufs[1] = initial, initial
	sp.view, sp.prev = &sp.bufs[0], &sp.bufs[1]
	sp.play = make([]core.FrameEffect, 0, 64)
	sp.events = make([]core.Event, 0, 8)
	sp.spare = make([]core.Event, 0, 8)
	return sp, nil
}

// State returns the state after frame Frame()-1: a copy refreshed by
// Update, so writing to it cannot affect the replay.
func (sp *Spectator[S, I]) State() *S { return sp.view }

// Previous returns the state shown before the newest Update that
// simulated, for interpolation with Fraction.
func (sp *Spectator[S, I]) Previous() *S { return sp.prev }

// Fraction returns the elapsed part of the current frame period.
func (sp *Spectator[S, I]) Fraction() fixed.F { return sp.pacer.Fraction() }

// Frame returns the next frame the spectator simulates.
func (sp *Spectator[S, I]) Frame() core.Frame { return sp.eng.Frame() }

// buffered returns how many received frames are not simulated yet.
func (sp *Spectator[S, I]) buffered() int { return int(sp.held() - sp.eng.Frame()) }

// Ended reports whether the stream ended: its last event is a
// core.PeerLostEvent or a core.RefusedEvent, and Update does nothing more.
func (sp *Spectator[S, I]) Ended() bool { return sp.ended }

// Effects returns the effects of the frames the newest Update simulated;
// they are final (a spectator never re-simulates). Valid until the next
// Update.
func (sp *Spectator[S, I]) Effects() []core.FrameEffect { return sp.play }

// Events returns the events raised since the previous call and forgets
// them; the slice is valid until the next call. The host is peer 0 of
// the life-cycle events: core.ConnectedEvent and core.StartedEvent when
// the stream starts, and at its end core.RefusedEvent (the handshake was
// refused) or core.PeerLostEvent: the host was silent (Left false), left
// (Left, with its Reason: LeaveEnded at the agreed end of the match) or
// dropped this spectator for lagging (Reason LeaveDropped). Between them
// come the match's events as the spectator replays it: core.PauseEvent,
// core.SpeedEvent and core.DisconnectEvent.
func (sp *Spectator[S, I]) Events() []core.Event {
	ev := sp.events
	sp.events, sp.spare = sp.spare[:0], ev
	return ev
}

// Stats returns the spectator's counters, in the type a session's have:
// Mode Rollback, Started once the stream started, the Frame it plays
// next and the frames Played, Paused and Speed as the match set them,
// Buffered (the frames received and not played yet), the checksums
// compared with the host's (Checksums, Desyncs), the stream's
// BadMessages and DroppedEvents, and as Peers[0] what the connection
// knows of the host: its state, when it was last heard, the round trip,
// traffic, send errors and dropped datagrams. Its slice is the caller's.
func (sp *Spectator[S, I]) Stats() rollstep.Stats {
	es := sp.eng.Stats()
	ctl := sp.eng.Control()
	st := rollstep.Stats{
		Mode: rollstep.Rollback, Started: sp.connected, Frame: es.Frame, Played: int64(ctl.Played),
		Paused: ctl.Paused, Speed: ctl.Speed, Buffered: sp.buffered(),
		Checksums: es.Checksums, Desyncs: es.Desyncs, BadMessages: es.BadMessages,
		DroppedEvents: sp.dropped,
		Peers:         make([]rollstep.PeerStats, 1),
	}
	if h, ok := sp.ep.Peer(0); ok { // the host is peer 0
		p := &st.Peers[0]
		p.Addr, p.State, p.Heard, p.LastHeard = h.Addr, h.State, h.Heard, h.LastHeard
		p.RTT, p.Jitter, p.RTTSamples = h.RTT, h.Jitter, h.RTTSamples
		p.BytesSent, p.PacketsSent = h.WireBytesSent(), h.PacketsSent
		p.BytesReceived, p.PacketsReceived = h.WireBytesReceived(), h.PacketsReceived
		p.SendErrors, p.Dropped = h.SendErrors, h.Dropped()
	}
	return st
}

// Close closes the Conn. Later calls return rollstep.ErrClosed.
func (sp *Spectator[S, I]) Close() error {
	if sp.closed {
		return rollstep.ErrClosed
	}
	sp.closed = true
	return sp.ep.Close()
}

func (sp *Spectator[S, I]) event(ev core.Event) {
	if len(sp.events) < 4096 { // bounded, as a session's
		sp.events = append(sp.events, ev)
	} else {
		sp.dropped++
	}
}

// held returns the first frame for which some player's input is unknown.
func (sp *Spectator[S, I]) held() core.Frame {
	h := core.Frame(1<<31 - 1)
	for p := range sp.cfg.Players {
		if sp.gone&(1<<p) == 0 {
			h = min(h, sp.next[p])
		}
	}
	return h
}

// end ends the stream once, reporting how the host was lost.
func (sp *Spectator[S, I]) end(ev core.PeerLostEvent) {
	if sp.ended {
		return
	}
	sp.ended = true
	sp.event(ev)
}
