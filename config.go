package rollstep

import (
	"errors"
	"fmt"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/stream"
	"github.com/rollstep/rollstep/internal/timesync"
	"github.com/rollstep/rollstep/transport"
)

// Defaults for the zero fields of a Config that depend on the mode. Each
// is defined here once; the fields' comments give the values.
const (
	// defaultLockstepRate is the turns per second of Lockstep mode when
	// Config.TickRate and Config.TurnPeriod are 0.
	defaultLockstepRate = 10
	// defaultFrameRate is the frames per second of Rollback and Auto mode
	// when Config.TickRate and Config.TurnPeriod are 0.
	defaultFrameRate = 60
	// defaultMaxPrediction is the prediction window W of Rollback mode,
	// and its bound in Auto mode, when Config.Prediction is 0.
	defaultMaxPrediction = 8
	// defaultDelayBudget is the felt lag Auto mode covers with input
	// delay when Config.DelayBudget is 0.
	defaultDelayBudget = 100 * time.Millisecond
	// defaultMaxQueuedInputs is the per-player input queue length when
	// Config.MaxQueuedInputs is 0.
	defaultMaxQueuedInputs = 32
	// defaultMaxStepsPerUpdate bounds the frames one Update runs when
	// Config.MaxStepsPerUpdate is 0.
	defaultMaxStepsPerUpdate = 4
)

// ConfigError names the Config field NewSession or Config.Validate
// refused, in Field (such as "Peers[1]", or "Transport.X" for a field of
// Config.Transport), and says what is wrong in Reason. It matches
// ErrInvalidConfig.
type ConfigError = engine.ConfigError

// Peer is one remote peer of the match: its transport address on the
// session's Conn and the players whose inputs it produces. Its index in
// Config.Peers is its core.PeerID.
type Peer struct {
	Addr    transport.Addr      // the peer's address on the Conn
	Players []core.PlayerHandle // the players whose inputs it produces
	// Open marks a seat nobody holds when the match starts: the match
	// does not wait for it, its players' inputs are InputDisconnected
	// from frame 0, and a player takes it mid-match by starting its
	// process with Rejoin, as a crashed player comes back (an RTS
	// drop-in). Every peer of the match lists the seat Open; the player
	// who takes it lists the others as they are.
	Open bool
}

// Config configures a session of any mode. Mode, Peers and (for a playing
// peer) Local must be set; every other zero field means the default its
// comment gives, which may depend on the mode. The match fields (Players,
// the frame period, TicksPerTurn, ChecksumInterval and Game) must agree on
// every peer, whatever its mode: the handshake compares them and refuses a
// peer that differs, naming the field. NewSession copies the slices.
type Config struct {
	// Mode picks the policy; the zero Mode is refused.
	Mode Mode

	// Players is the number of players in the match, 1 to
	// core.MaxPlayers; 0 means the players Local and Peers list.
	Players int
	// Local lists the players this session produces inputs for.
	Local []core.PlayerHandle
	// Peers lists the remote peers; every player is local or owned by
	// exactly one peer.
	Peers []Peer
	// Spectators lists the addresses of spectators the session streams
	// confirmed frames to (a session with Spectate plays the stream of
	// any mode). A spectator never holds the match back, may start at any
	// time in the match, and may quit and start again: one that comes
	// after the first few seconds gets the confirmed state first (paced at
	// RejoinRate) and the stream from there. With spectators the input log
	// keeps at least SpectatorMaxLag + SpectatorDelay + 128 frames, so
	// LogRange may hold more than LogRetention.
	Spectators []transport.Addr
	// SpectatorDelay holds every frame back this many frames after it is
	// confirmed before it is streamed, so that a spectator cannot relay
	// what it sees to a player in time to matter; at most 65536.
	// SpectatorMaxLag drops a spectator that lags more frames behind; 0
	// means ten seconds of frames, at most 262144.
	SpectatorDelay, SpectatorMaxLag int
	// Spectate makes this session a spectator of Peers[0], the host: a
	// session of any mode whose Spectators list this session's address.
	// It has no Local players, and the host owns none in Peers; Players
	// and the other match fields must equal the host's. It never predicts
	// and never sends inputs: it replays the confirmed frames the host
	// streams at the frame rate, and faster, at most MaxStepsPerUpdate per
	// Update, while more than SpectatorBuffer received frames wait (0
	// means 2, at most 1024). When the host leaves or drops it, a
	// core.PeerLostEvent ends it (Ended). A host lost to silence (its
	// process died, or the link dropped) it waits for, RejoinTimeout at
	// most (Stats.Rejoining), starting its handshake over: a new process
	// of the host, or the same one past the outage, takes it back, and its
	// replay starts over from the host's join record (a core.RejoinEvent).
	// Mode picks only the defaults.
	Spectate        bool
	SpectatorBuffer int

	// TickRate is the frames (in Lockstep, turns) per second at game
	// speed 100 %; 0 means 10 (turns) in Lockstep and 60
	// (frames) otherwise. TurnPeriod, when set, is the length of
	// a frame instead, for periods such as 150 ms that are not a whole
	// number per second.
	TickRate   int
	TurnPeriod time.Duration
	// TicksPerTurn is how many times the game's Step runs per frame: the
	// first gets the frame's inputs, the others the zero input. 0 means 1.
	TicksPerTurn int

	// InputDelay is the initial input delay D in frames; 0 means the
	// smallest D a match can start with: 0 in Rollback (it predicts from
	// frame 0), 1 in Lockstep and Auto (they start without predicting,
	// and D = W = 0 cannot progress; MinDelay if more). The delay
	// controller then moves D between MinDelay and MaxDelay as the link
	// needs, once per DelayWindow frames, unless FixedDelay keeps it at
	// InputDelay. MinDelay 0 means 1 in Lockstep and 0 otherwise; MaxDelay
	// 0 means 2 in Rollback and 16 otherwise. DelayWindow 0 means one
	// second of frames; a window also closes when DelayWindow frame
	// periods have passed, so stalls are acted on within about that time.
	InputDelay         int
	MinDelay, MaxDelay int
	FixedDelay         bool
	DelayWindow        int
	// Prediction is the prediction window W in Rollback and its bound in
	// Auto, at most 64; 0 means 8. It must be 0 in
	// Lockstep. DelayBudget is the felt lag Auto covers with delay before
	// it predicts; 0 means 100 ms; Auto only.
	Prediction  int
	DelayBudget time.Duration

	// Inputs is how AddLocalInput's inputs reach frames: Held (a pad's
	// state, the newest used every frame) or Queued (orders, one per
	// frame); 0 means Held in Rollback and Queued in Lockstep and Auto.
	// It is this peer's choice: peers of one match may differ.
	// MaxQueuedInputs bounds the Queued inputs waiting per player; 0 means
	// 32.
	Inputs          InputStyle
	MaxQueuedInputs int
	// ResendInterval is how often a stalled session repeats its messages
	// (a running one sends every Update that ran a frame); 0 means half a
	// frame period in Rollback and a quarter (at most 50 ms) otherwise.
	ResendInterval time.Duration

	// MaxStepsPerUpdate bounds the frames one Update runs, so a hitch is
	// caught up over several Updates; 0 means 4, at
	// most 64. MaxCatchUp bounds the time owed after a hitch: beyond it
	// the schedule slips and timesync rebalances the peers; 0 means one
	// second (at least one frame) in Rollback and no bound otherwise.
	MaxStepsPerUpdate int
	MaxCatchUp        time.Duration
	// SoloStart lets the match start without a peer whose handshake timed
	// out (its players disconnected from frame 0). By default Update then
	// fails with an error matching ErrHandshakeTimeout, which says what
	// arrived from the peer's address: a match never starts alone by
	// accident.
	SoloStart bool

	// ChecksumInterval is core.Config.ChecksumInterval; 0 means 1.
	ChecksumInterval int
	// LogRetention is how many confirmed frames of inputs the session
	// keeps for ReadLog and ReadSteps, to record a replay; at most 1<<20.
	// The session keeps the last 30 seconds of frames whatever it says,
	// because a peer's rejoin needs them, so LogRange may hold more.
	LogRetention int
	// MaxEffectsPerFrame is core.Config.MaxEffectsPerFrame: the effects one
	// frame may emit, over all its ticks; 0 means 16. Effects past it are
	// not delivered and the session reports a core.EffectsDroppedEvent.
	MaxEffectsPerFrame int
	// Game identifies the game build in the handshake digest:
	// core.GameVersion("fighter 1.4") makes one from a version string.
	Game [16]byte
	// Timesync balances the frame advantage in Rollback and Auto: a peer
	// that runs ahead of another gets the other's inputs later in its own
	// frames, so it predicts further and rolls back deeper; it waits a few
	// frames instead. Lockstep needs none (it never runs ahead).
	// TimesyncWindow is the number of frames averaged per recommendation
	// (0: one second of frames, at most 1024); MinAdvantage the average
	// advantage in frames from which waiting is recommended (0: 2);
	// MaxWait bounds the frames one recommendation asks to wait (0: 8).
	// ManualTimesync makes the session only report core.TimesyncEvents,
	// which the game applies with Session.Wait; NoTimesync turns timesync
	// off.
	TimesyncWindow, MinAdvantage, MaxWait int
	ManualTimesync, NoTimesync            bool

	// Rejoin starts this session as a restarted process coming back into
	// a running match in its seat (Local; every other field as the match
	// was started with, the token too): it plays no frame of its own
	// until a survivor sent the match's state, then fast-forwards and
	// plays from the frame the others agreed its inputs count again
	// (core.RejoinEvent). Every session takes part in a peer's rejoin
	// without it. RejoinRate caps the bytes per second a survivor sends a
	// snapshot at (0: 256 KiB); RejoinTimeout bounds a rejoin from the
	// restart's handshake to its end (0: 30 s), after which it fails with
	// ErrRejoin.
	Rejoin        bool
	RejoinRate    int
	RejoinTimeout time.Duration

	// Transport configures the connection: Token, timeouts (a peer silent
	// for DisconnectTimeout is dropped at an agreed frame) and Rand.
	Transport transport.Config
	// StepClock, when set, is read before and after the game's Steps of a
	// frame to measure this machine's step time, which is reported to every
	// peer so that pacing follows the slowest CPU. Nil means the step time
	// is taken as 0. It is the only clock the session reads.
	StepClock func() time.Duration
}

// Bounds of a Config.
const (
	maxSpectators   = 16
	maxLogRetention = 1 << 20 // core's
)

// withDefaults returns a copy of c with the defaults of its mode filled in
// and its slices copied.
func (c Config) withDefaults() Config {
	if c.Players == 0 {
		c.Players = len(c.Local)
		for _, p := range c.Peers {
			c.Players += len(p.Players)
		}
	}
	if c.TurnPeriod == 0 {
		r := c.TickRate
		if r == 0 {
			r = defaultFrameRate
			if c.Mode == Lockstep {
				r = defaultLockstepRate
			}
		}
		if r > 0 {
			c.TurnPeriod = time.Second / time.Duration(r)
		}
	}
	perSecond := 1
	if c.TurnPeriod > 0 {
		perSecond = max(1, int(time.Second/c.TurnPeriod))
	}
	if c.TicksPerTurn == 0 {
		c.TicksPerTurn = 1
	}
	if c.RejoinTimeout == 0 {
		c.RejoinTimeout = defaultRejoinTimeout
	}
	if c.Prediction == 0 && c.Mode != Lockstep {
		c.Prediction = defaultMaxPrediction
	}
	if c.DelayBudget == 0 && c.Mode == Auto {
		c.DelayBudget = defaultDelayBudget
	}
	if c.MinDelay == 0 && c.Mode == Lockstep {
		c.MinDelay = 1
	}
	if c.MaxDelay == 0 {
		c.MaxDelay = 16
		if c.Mode == Rollback {
			c.MaxDelay = 2
		}
	}
	if c.InputDelay == 0 && c.Mode != Rollback {
		c.InputDelay = max(c.MinDelay, 1)
	}
	if c.DelayWindow == 0 {
		c.DelayWindow = perSecond
	}
	if c.MaxQueuedInputs == 0 {
		c.MaxQueuedInputs = defaultMaxQueuedInputs
	}
	if c.ResendInterval == 0 {
		c.ResendInterval = min(c.TurnPeriod/4, 50*time.Millisecond)
		if c.Mode == Rollback {
			c.ResendInterval = c.TurnPeriod / 2
		}
	}
	if c.MaxStepsPerUpdate == 0 {
		c.MaxStepsPerUpdate = defaultMaxStepsPerUpdate
	}
	if c.MaxCatchUp == 0 && c.Mode == Rollback {
		c.MaxCatchUp = max(time.Second, c.TurnPeriod)
	}
	if c.SpectatorBuffer == 0 {
		c.SpectatorBuffer = 2
	}
	if c.SpectatorMaxLag == 0 && c.TurnPeriod > 0 {
		c.SpectatorMaxLag = max(1, int(10*time.Second/c.TurnPeriod))
	}
	ts := c.timesync()
	ts.Fill(perSecond)
	c.TimesyncWindow, c.MinAdvantage, c.MaxWait = ts.Window, ts.MinAdvantage, ts.MaxWait
	c.Local = append([]core.PlayerHandle(nil), c.Local...)
	peers := make([]Peer, len(c.Peers))
	for i, p := range c.Peers {
		peers[i] = Peer{Addr: p.Addr, Players: append([]core.PlayerHandle(nil), p.Players...), Open: p.Open}
	}
	c.Peers = peers
	c.Spectators = append([]transport.Addr(nil), c.Spectators...)
	return c
}

// Validate reports the first problem with c, defaults filled in: a
// *ConfigError naming the field (the engine's and
// the transport's included). It does not modify c.
func (c Config) Validate() error {
	_, _, err := c.engineConfig()
	return err
}

// engineConfig validates c and returns it with its defaults, and the
// engine's configuration.
func (c Config) engineConfig() (Config, engine.Config, error) {
	switch c.Mode {
	case Lockstep, Rollback, Auto:
	default:
		return c, engine.Config{}, &ConfigError{Field: "Mode", Reason: fmt.Sprintf("%d is not Lockstep, Rollback or Auto", int(c.Mode))}
	}
	d := c.withDefaults()
	if err := d.check(c); err != nil {
		return c, engine.Config{}, err
	}
	peers := make([][]core.PlayerHandle, len(d.Peers))
	for i, p := range d.Peers {
		peers[i] = p.Players
	}
	cc := engine.Config{
		Players: d.Players, Local: d.Local, Peers: peers,
		InputDelay:         d.InputDelay,
		MaxInputDelay:      max(d.MaxDelay, d.InputDelay),
		MaxPrediction:      d.Prediction,
		ChecksumInterval:   d.ChecksumInterval,
		LogRetention:       d.LogRetention,
		MaxEffectsPerFrame: d.MaxEffectsPerFrame,
		StepsPerFrame:      d.TicksPerTurn,
		FillZero:           !d.held(),
	}
	if d.Mode == Rollback {
		cc.Prediction = d.Prediction
	}
	if len(d.Spectators) > 0 {
		cc.LogRetention = min(max(cc.LogRetention, d.SpectatorMaxLag+d.SpectatorDelay+2*stream.Run), maxLogRetention)
	}
	if d.TurnPeriod > 0 { // a rejoin's handoff carries the inputs since its snapshot
		cc.LogRetention = min(max(cc.LogRetention, int(rejoinLog/d.TurnPeriod)), maxLogRetention)
	}
	if d.Spectate {
		// Every player belongs to a virtual peer of its own, so that a
		// disconnect is agreed player by player (see feedGone).
		cc = engine.Config{Players: d.Players, DisableChecksums: true, MaxRunLength: stream.Run, StepsPerFrame: d.TicksPerTurn,
			LogRetention: d.LogRetention, MaxEffectsPerFrame: d.MaxEffectsPerFrame}
		for p := range d.Players {
			cc.Peers = append(cc.Peers, []core.PlayerHandle{core.PlayerHandle(p)})
		}
	}
	if err := cc.Validate(); err != nil {
		return c, engine.Config{}, err
	}
	return d, cc, validTransport(d.Transport)
}

// validTransport reports t's first bad field as a *ConfigError naming it.
func validTransport(t transport.Config) error {
	var ce *endpoint.ConfigError
	if err := endpoint.ConfigOf(t).Validate(); errors.As(err, &ce) {
		return &ConfigError{Field: "Transport." + ce.Field, Reason: ce.Value + " " + ce.Reason}
	} else if err != nil {
		return &ConfigError{Field: "Transport", Reason: err.Error()}
	}
	return nil
}

// held reports whether inputs are state-style.
func (c *Config) held() bool { return c.Inputs == Held || (c.Inputs == 0 && c.Mode == Rollback) }

// check reports the first field of d (c with defaults) out of range.
func (d *Config) check(c Config) error {
	bad := func(field, format string, args ...any) error {
		return &ConfigError{Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	maxDelay := d.MaxDelay
	if d.FixedDelay {
		maxDelay = max(maxDelay, d.InputDelay)
	}
	switch {
	case c.TickRate < 0 || c.TickRate > 1000:
		return bad("TickRate", "%d is outside 0..1000", c.TickRate)
	case d.TurnPeriod < time.Millisecond:
		return bad("TurnPeriod", "%v is under 1ms", d.TurnPeriod)
	case d.TicksPerTurn < 1 || d.TicksPerTurn > 64:
		return bad("TicksPerTurn", "%d is outside 1..64", d.TicksPerTurn)
	case d.Inputs > Queued:
		return bad("Inputs", "%d is neither Held nor Queued", d.Inputs)
	case d.Mode == Lockstep && d.Prediction != 0:
		return bad("Prediction", "must be 0 in lockstep mode, which never predicts (Auto predicts beyond its delay budget)")
	case d.Prediction < 0 || d.Prediction > 64:
		return bad("Prediction", "%d is outside 0..64", d.Prediction)
	case d.Mode != Auto && d.DelayBudget != 0:
		return bad("DelayBudget", "applies to auto mode only")
	case d.DelayBudget < 0:
		return bad("DelayBudget", "%v is negative", d.DelayBudget)
	case d.MaxDelay < 0 || d.MaxDelay > 128:
		return bad("MaxDelay", "%d is outside 0..128", d.MaxDelay)
	case d.MinDelay < 0 || d.MinDelay > d.MaxDelay:
		return bad("MinDelay", "%d is outside 0..MaxDelay (%d)", d.MinDelay, d.MaxDelay)
	case d.Mode == Lockstep && d.MinDelay < 1:
		return bad("MinDelay", "is 0 but lockstep mode needs a delay of at least 1")
	case d.InputDelay < d.MinDelay || d.InputDelay > maxDelay:
		return bad("InputDelay", "%d is outside MinDelay..MaxDelay (%d..%d)", d.InputDelay, d.MinDelay, maxDelay)
	case d.DelayWindow < 1 || d.DelayWindow > 1<<16:
		return bad("DelayWindow", "%d is outside 1..65536", d.DelayWindow)
	case d.MaxQueuedInputs < 1 || d.MaxQueuedInputs > 1<<16:
		return bad("MaxQueuedInputs", "%d is outside 1..65536", d.MaxQueuedInputs)
	case d.ResendInterval < 0:
		return bad("ResendInterval", "%v is negative", d.ResendInterval)
	case d.MaxStepsPerUpdate < 1 || d.MaxStepsPerUpdate > 64:
		return bad("MaxStepsPerUpdate", "%d is outside 1..64", d.MaxStepsPerUpdate)
	case d.MaxCatchUp != 0 && (d.MaxCatchUp < d.TurnPeriod || d.MaxCatchUp > time.Hour):
		return bad("MaxCatchUp", "%v is outside one frame period..1h", d.MaxCatchUp)
	case d.LogRetention < 0 || d.LogRetention > maxLogRetention:
		return bad("LogRetention", "%d is outside 0..%d", d.LogRetention, maxLogRetention)
	case d.RejoinRate < 0:
		return bad("RejoinRate", "%d is negative", d.RejoinRate)
	case d.RejoinTimeout < 0:
		return bad("RejoinTimeout", "%v is negative", d.RejoinTimeout)
	case d.Rejoin && len(d.Local) == 0:
		return bad("Rejoin", "a spectator has no seat to come back to")
	case len(d.Peers) == 0:
		return bad("Peers", "is empty: a match needs a remote peer")
	case d.Spectate && (len(d.Local) > 0 || len(d.Spectators) > 0):
		return bad("Spectate", "a spectator has no Local players and no Spectators")
	case d.Spectate && (len(d.Peers) != 1 || len(d.Peers[0].Players) > 0 || d.Peers[0].Open):
		return bad("Peers", "a spectator's one peer is its host, which owns no player here")
	case d.Spectate && d.Players == 0:
		return bad("Players", "is 0: a spectator lists no players, so it must be given the match's")
	case d.SpectatorBuffer < 0 || d.SpectatorBuffer > 1024:
		return bad("SpectatorBuffer", "%d is outside 0..1024", d.SpectatorBuffer)
	case len(d.Spectators) > maxSpectators:
		return bad("Spectators", "%d exceed %d", len(d.Spectators), maxSpectators)
	case d.SpectatorDelay < 0 || d.SpectatorDelay > 1<<16:
		return bad("SpectatorDelay", "%d is outside 0..65536", d.SpectatorDelay)
	case d.SpectatorMaxLag < 1 || d.SpectatorMaxLag > 1<<18:
		return bad("SpectatorMaxLag", "%d is outside 1..262144", d.SpectatorMaxLag)
	case d.TimesyncWindow < 1 || d.TimesyncWindow > 1024:
		return bad("TimesyncWindow", "%d is outside 1..1024", d.TimesyncWindow)
	case d.MinAdvantage < 1:
		return bad("MinAdvantage", "%d is not positive", d.MinAdvantage)
	case d.MaxWait < 1:
		return bad("MaxWait", "%d is not positive", d.MaxWait)
	}
	field := func(i int) string {
		if i < len(d.Peers) {
			return fmt.Sprintf("Peers[%d].Addr", i)
		}
		return fmt.Sprintf("Spectators[%d]", i-len(d.Peers))
	}
	addrs := make([]transport.Addr, 0, len(d.Peers)+len(d.Spectators))
	for _, p := range d.Peers {
		addrs = append(addrs, p.Addr)
	}
	addrs = append(addrs, d.Spectators...)
	for i, a := range addrs {
		for j := range i {
			if addrs[j] == a {
				return bad(field(i), "%v is also %s", a, field(j))
			}
		}
	}
	return nil
}

// timesync returns the timesync settings of c.
func (c *Config) timesync() timesync.Config {
	return timesync.Config{Window: c.TimesyncWindow, MinAdvantage: c.MinAdvantage, MaxWait: c.MaxWait, Manual: c.ManualTimesync, Disable: c.NoTimesync}
}
