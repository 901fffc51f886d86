package lockstep

import (
	"fmt"
	"github.com/rollstep/rollstep/internal/lifecycle"
	"github.com/rollstep/rollstep/internal/stream"
	"github.com/rollstep/rollstep/internal/timesync"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/endpoint"
)

// Defaults for the zero fields of a Config.
const (
	// DefaultTurnPeriod is the turn length T when Config.TurnPeriod is 0.
	DefaultTurnPeriod = 100 * time.Millisecond
	// DefaultMaxDelay bounds the adaptive D when Config.MaxDelay is 0.
	DefaultMaxDelay = 16
	// DefaultMaxQueuedInputs is the per-player input queue length when
	// Config.MaxQueuedInputs is 0.
	DefaultMaxQueuedInputs = 32
	// DefaultMaxStepsPerUpdate bounds the turns one Update runs when
	// Config.MaxStepsPerUpdate is 0.
	DefaultMaxStepsPerUpdate = 4
	// DefaultDelayBudget is the felt-lag budget of auto mode when
	// Config.DelayBudget is 0.
	DefaultDelayBudget = 100 * time.Millisecond
)

// ErrInvalidConfig is core.ErrInvalidConfig, matched by every
// *ConfigError, as in every mode.
var ErrInvalidConfig = core.ErrInvalidConfig

// ConfigError is core.ConfigError: it names the Config field that
// NewSession refused and why, and matches ErrInvalidConfig. The engine's
// and rollback's errors are the same type.
type ConfigError = core.ConfigError

// Peer is one remote peer of the match: its transport address and the
// players it owns. Its index in Config.Peers is its core.PeerID. It is the
// same type in every mode (rollback.Peer, rollstep.Peer).
type Peer = lifecycle.Peer

// Config configures a Session. Players, Peers and (for a playing peer)
// Local must be set; every other zero field means the default in its
// comment. Every peer of a match uses the same Players, TurnPeriod,
// TicksPerTurn, ChecksumInterval and Game (the handshake compares a digest
// of the first two and the last two; a mismatch is refused, naming the
// field). NewSession copies the slices.
type Config struct {
	// Players is the number of players in the match, 1 to core.MaxPlayers;
	// 0 means the players Local and Peers list, as in every mode.
	Players int
	// Local lists the players this session produces inputs for.
	Local []core.PlayerHandle
	// Peers lists the remote peers; every player is local or owned by
	// exactly one peer.
	Peers []Peer

	// TurnPeriod is the turn length T at game speed 100 %; 0 means
	// DefaultTurnPeriod. A turn is one engine frame.
	TurnPeriod time.Duration
	// TicksPerTurn is how many times the game's Step runs per turn: the
	// first tick gets the turn's inputs, the others the zero input. 0
	// means 1.
	TicksPerTurn int

	// InputDelay is the initial input delay D in turns; 0 means the
	// smallest D a match can start with: 1 (MinDelay if more), since a
	// session that does not predict yet cannot start at D = 0. Package
	// rollback's 0 follows the same rule: it predicts from frame 0, so
	// its D can start at 0. The delay controller then moves D as the link
	// needs (unless FixedDelay).
	InputDelay int
	// MinDelay and MaxDelay bound the adaptive D; 0 means 1 (0 in auto
	// mode) and DefaultMaxDelay.
	MinDelay, MaxDelay int
	// FixedDelay turns the delay controller off: D stays InputDelay.
	FixedDelay bool
	// DelayWindow is the number of turns per delay-controller window; 0
	// means about one second of turns (at least 1). A window also closes
	// when DelayWindow·TurnPeriod has passed, so stalls are acted on
	// within about that time.
	DelayWindow int

	// MaxPrediction, when positive, makes the session a hybrid (auto
	// mode): the controller covers latency with delay up to DelayBudget
	// and predicts the rest, up to MaxPrediction turns (at most 64), and a
	// misprediction is repaired by rollback. 0 is pure lockstep.
	MaxPrediction int
	// DelayBudget is the felt lag auto mode covers with delay; 0 means
	// DefaultDelayBudget.
	DelayBudget time.Duration

	// MaxStepsPerUpdate bounds the turns one Update runs; the rest run in
	// later Updates (see package core/pace). 0 means
	// DefaultMaxStepsPerUpdate.
	MaxStepsPerUpdate int
	// SoloStart lets the match start without a peer whose handshake timed
	// out (its players disconnected from turn 0). By default Update then
	// fails with the *endpoint.HandshakeTimeoutError, which says what
	// arrived from the peer's address: a match never starts alone by
	// accident.
	SoloStart bool
	// HoldInputs makes inputs state-style, as in package rollback:
	// AddLocalInput sets the input the player holds, and every turn
	// schedules the newest one (turns skipped when D rises get it too).
	// By default inputs are command-style: queued, one per turn, the zero
	// I when none is queued.
	HoldInputs bool
	// MaxQueuedInputs bounds each local player's queue of inputs given to
	// AddLocalInput and not yet scheduled; 0 means
	// DefaultMaxQueuedInputs.
	MaxQueuedInputs int
	// ResendInterval is how often a stalled session repeats its messages
	// (a running one sends once per turn); 0 means TurnPeriod/4, at most
	// 50 ms.
	ResendInterval time.Duration

	// ChecksumInterval is core.Config.ChecksumInterval; 0 means 1.
	ChecksumInterval int
	// LogRetention is how many confirmed turns of inputs the session
	// keeps for the host to read with ReadLog and ReadSteps, to record a
	// replay; 0 keeps none, at most 1<<20 (core.Config.LogRetention).
	LogRetention int
	// MaxEffectsPerFrame is core.Config.MaxEffectsPerFrame: the effects one
	// turn may emit, over all its ticks; 0 means 16. Effects past it are
	// not delivered and the session reports a core.EffectsDroppedEvent.
	MaxEffectsPerFrame int
	// Game identifies the game build in the handshake digest.
	Game [16]byte

	// Spectators lists the addresses of spectators this session streams
	// confirmed turns to (rollback.NewSpectator plays any mode's stream,
	// with SpectatorConfig.TickRate the turn rate and StepsPerFrame
	// TicksPerTurn). A spectator never holds the match back; one that
	// lags more than Spectate.MaxLag turns is dropped. With spectators
	// the input log keeps at least Spectate.MaxLag + Spectate.Delay + 128
	// turns, so LogRange may hold more than LogRetention.
	Spectators []transport.PeerID
	// Spectate tunes the stream to spectators; Spectate.MaxLag 0 means
	// ten seconds of turns.
	Spectate StreamConfig
	// Timesync tunes the frame-advantage balancing of auto mode
	// (MaxPrediction > 0), as in package rollback: a peer that runs ahead
	// of another predicts more and makes it roll back more, so it waits a
	// few turns. Pure lockstep needs none (it never runs ahead).
	Timesync TimesyncConfig

	// Transport configures the connection: Token, timeouts (a peer silent
	// for DisconnectTimeout is dropped at an agreed frame) and Rand.
	// Transport.Digest is ignored: the session computes it.
	Transport endpoint.Config

	// StepClock, when set, is read before and after the game's Steps of a
	// turn to measure this machine's step time, which is reported to every
	// peer so that pacing follows the slowest CPU. Nil means the step time
	// is taken as 0. It is the only clock the session reads.
	StepClock func() time.Duration
}

// withDefaults returns a copy of c with defaults filled in and slices
// copied.
func (c Config) withDefaults() Config {
	if c.TurnPeriod == 0 {
		c.TurnPeriod = DefaultTurnPeriod
	}
	if c.Players == 0 {
		c.Players = len(c.Local)
		for _, p := range c.Peers {
			c.Players += len(p.Players)
		}
	}
	if c.TicksPerTurn == 0 {
		c.TicksPerTurn = 1
	}
	if c.MinDelay == 0 && c.MaxPrediction == 0 {
		c.MinDelay = 1
	}
	if c.InputDelay == 0 {
		// The smallest D that can start: auto mode also starts at W = 0,
		// and D = W = 0 cannot progress (each peer would wait for the
		// other's input of the turn it is about to make its own).
		c.InputDelay = max(c.MinDelay, 1)
	}
	if c.MaxDelay == 0 {
		c.MaxDelay = DefaultMaxDelay
	}
	if c.DelayWindow == 0 && c.TurnPeriod > 0 {
		c.DelayWindow = max(1, int(time.Second/c.TurnPeriod))
	}
	if c.DelayBudget == 0 {
		c.DelayBudget = DefaultDelayBudget
	}
	if c.MaxStepsPerUpdate == 0 {
		c.MaxStepsPerUpdate = DefaultMaxStepsPerUpdate
	}
	if c.MaxQueuedInputs == 0 {
		c.MaxQueuedInputs = DefaultMaxQueuedInputs
	}
	if c.ResendInterval == 0 {
		c.ResendInterval = min(c.TurnPeriod/4, 50*time.Millisecond)
	}
	if c.Spectate.MaxLag == 0 && c.TurnPeriod > 0 {
		c.Spectate.MaxLag = max(1, int(10*time.Second/c.TurnPeriod))
	}
	c.Spectators = append([]transport.PeerID(nil), c.Spectators...)
	if c.TurnPeriod > 0 {
		c.Timesync.Fill(max(1, int(time.Second/c.TurnPeriod)))
	}
	c.Local = append([]core.PlayerHandle(nil), c.Local...)
	peers := make([]Peer, len(c.Peers))
	for i, p := range c.Peers {
		peers[i] = Peer{Addr: p.Addr, Players: append([]core.PlayerHandle(nil), p.Players...)}
	}
	c.Peers = peers
	return c
}

// Validate reports the first problem with c, defaults filled in, as a
// *ConfigError.
// It does not modify c.
func (c Config) Validate() error {
	d := c.withDefaults()
	bad := func(field, format string, args ...any) error {
		return &ConfigError{Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	switch {
	case d.TurnPeriod < time.Millisecond:
		return bad("TurnPeriod", "%v is under 1ms", d.TurnPeriod)
	case d.TicksPerTurn < 1 || d.TicksPerTurn > 64:
		return bad("TicksPerTurn", "%d is outside 1..64", d.TicksPerTurn)
	case d.MaxDelay < 1 || d.MaxDelay > 128:
		return bad("MaxDelay", "%d is outside 1..128", d.MaxDelay)
	case d.MinDelay < 0 || d.MinDelay > d.MaxDelay:
		return bad("MinDelay", "%d is outside 0..MaxDelay (%d)", d.MinDelay, d.MaxDelay)
	case d.MaxPrediction == 0 && d.MinDelay < 1:
		return bad("MinDelay", "is 0 but lockstep (MaxPrediction 0) needs a delay of at least 1")
	case d.InputDelay < d.MinDelay || d.InputDelay > d.MaxDelay:
		return bad("InputDelay", "%d is outside MinDelay..MaxDelay (%d..%d)", d.InputDelay, d.MinDelay, d.MaxDelay)
	case d.DelayWindow < 1:
		return bad("DelayWindow", "%d is negative", d.DelayWindow)
	case d.MaxPrediction < 0 || d.MaxPrediction > 64:
		return bad("MaxPrediction", "%d is outside 0..64", d.MaxPrediction)
	case d.DelayBudget < 0:
		return bad("DelayBudget", "%v is negative", d.DelayBudget)
	case d.MaxStepsPerUpdate < 1:
		return bad("MaxStepsPerUpdate", "%d is negative", d.MaxStepsPerUpdate)
	case d.MaxQueuedInputs < 1 || d.MaxQueuedInputs > 1<<16:
		return bad("MaxQueuedInputs", "%d is outside 1..65536", d.MaxQueuedInputs)
	case d.ResendInterval < 0:
		return bad("ResendInterval", "%v is negative", d.ResendInterval)
	case d.LogRetention < 0 || d.LogRetention > maxLogRetention:
		return bad("LogRetention", "%d is outside 0..%d", d.LogRetention, maxLogRetention)
	case len(d.Peers) == 0:
		return bad("Peers", "is empty: a match needs a remote peer")
	case len(d.Spectators) > maxSpectators:
		return bad("Spectators", "%d exceed %d", len(d.Spectators), maxSpectators)
	case d.Spectate.Delay < 0 || d.Spectate.Delay > 1<<16:
		return bad("Spectate.Delay", "%d is outside 0..65536", d.Spectate.Delay)
	case d.Spectate.MaxLag < 1 || d.Spectate.MaxLag > 1<<18:
		return bad("Spectate.MaxLag", "%d is outside 1..262144", d.Spectate.MaxLag)
	case d.Timesync.Window < 1 || d.Timesync.Window > 1024:
		return bad("Timesync.Window", "%d is outside 1..1024", d.Timesync.Window)
	case d.Timesync.MinAdvantage < 1 || d.Timesync.MaxWait < 1:
		return bad("Timesync", "MinAdvantage %d and MaxWait %d must be positive", d.Timesync.MinAdvantage, d.Timesync.MaxWait)
	case d.Timesync.Manual:
		return bad("Timesync.Manual", "is not offered: a lockstep session waits by itself (there is no Wait to apply a report)")
	}
	addrs := append(make([]transport.PeerID, 0, len(d.Peers)+len(d.Spectators)), d.Spectators...)
	for _, p := range d.Peers {
		addrs = append(addrs, p.Addr)
	}
	for i, a := range addrs {
		for j := range i {
			if addrs[j] == a {
				return bad("Peers", "%v is listed twice (a spectator's address counts)", a)
			}
		}
	}
	if err := d.engineConfig().Validate(); err != nil {
		return err
	}
	return d.Transport.Validate()
}

// engineConfig returns the core configuration of c (defaults filled in).
func (c *Config) engineConfig() core.Config {
	peers := make([][]core.PlayerHandle, len(c.Peers))
	for i, p := range c.Peers {
		peers[i] = p.Players
	}
	return core.Config{
		Players:            c.Players,
		Local:              c.Local,
		Peers:              peers,
		InputDelay:         c.InputDelay,
		MaxInputDelay:      c.MaxDelay,
		MaxPrediction:      c.MaxPrediction,
		ChecksumInterval:   c.ChecksumInterval,
		LogRetention:       c.logRetention(),
		MaxEffectsPerFrame: c.MaxEffectsPerFrame,
		StepsPerFrame:      c.TicksPerTurn,
		FillZero:           !c.HoldInputs,
	}
}

// logRetention is the engine's input log length: LogRetention, or what
// the spectator stream needs, if more.
func (c *Config) logRetention() int {
	if len(c.Spectators) == 0 {
		return c.LogRetention
	}
	return min(max(c.LogRetention, c.Spectate.MaxLag+c.Spectate.Delay+2*stream.Run), maxLogRetention)
}

// StreamConfig tunes the stream to spectators, as in package rollback
// (the same type): Delay holds every turn back this many turns after it
// is confirmed; MaxLag drops a spectator that lags more turns.
type StreamConfig = stream.Config

// TimesyncConfig tunes timesync in auto mode, as in package rollback (the
// same type). Manual is refused: a lockstep session has no Wait, so it
// always applies the waits itself (core.TimesyncEvent reports them).
type TimesyncConfig = timesync.Config

// maxSpectators bounds Config.Spectators.
const maxSpectators = 16

// maxLogRetention is the largest Config.LogRetention, the engine's.
const maxLogRetention = 1 << 20
