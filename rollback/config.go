package rollback

import (
	"fmt"
	"github.com/rollstep/rollstep/internal/lifecycle"
	"github.com/rollstep/rollstep/internal/stream"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/core/pace"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/endpoint"
	"github.com/rollstep/rollstep/transport/wire"
)

// Peer is one remote peer of a session: its transport address on the
// session's Conn and the players whose inputs it produces. It is the same
// type in every mode (lockstep.Peer, rollstep.Peer).
type Peer = lifecycle.Peer

// Config configures a Session. Zero fields documented with a default get
// it; Players, Local and Peers describe the match and must agree with
// every other peer's (Players, TickRate, ChecksumInterval and Game are
// compared in the handshake).
type Config struct {
	// Players is the number of players; 0 means the players Local and
	// Peers list, as in every mode.
	Players int
	// Local lists the players this session produces inputs for.
	Local []core.PlayerHandle
	// Peers lists the remote peers; core.PeerID i is Peers[i].
	Peers []Peer
	// TickRate is the simulation rate in frames per second; 0 means 60.
	TickRate int
	// Game identifies the game build in the handshake; peers with
	// different values refuse each other.
	Game [16]byte
	// ChecksumInterval is core.Config.ChecksumInterval; 0 means 1.
	ChecksumInterval int
	// LogRetention is how many confirmed frames of inputs the session
	// keeps for the host to read with ReadLog, to record a replay; 0
	// keeps none, at most 1<<20. The spectator stream reads the
	// same log: with Spectators the session keeps the larger of
	// LogRetention and what the stream needs (Spectate.MaxLag +
	// Spectate.Delay + 128 frames), so LogRange may hold more.
	LogRetention int
	// MaxEffectsPerFrame is core.Config.MaxEffectsPerFrame: the effects one
	// Step may emit; 0 means 16. Effects past it are not delivered and the
	// session reports a core.EffectsDroppedEvent.
	MaxEffectsPerFrame int

	// Prediction is the prediction window W; 0 means 8, at most 64.
	Prediction int
	// InputDelay is the initial input delay D. Unless FixedDelay is set,
	// the delay policy (core/delay) then picks D between 0 and MaxDelay
	// from the measured RTT, once a second.
	InputDelay int
	// MaxDelay bounds the delay policy; 0 means 2.
	MaxDelay int
	// FixedDelay keeps D at InputDelay.
	FixedDelay bool
	// MaxStepsPerUpdate bounds the frames one Update simulates, so a long
	// hitch is caught up over several Updates; 0 means 4.
	MaxStepsPerUpdate int
	// SoloStart lets the match start without a peer whose handshake timed
	// out (its players disconnected from frame 0). By default Update then
	// fails with the *endpoint.HandshakeTimeoutError, which says what
	// arrived from the peer's address: a match never starts alone by
	// accident.
	SoloStart bool
	// MaxCatchUp bounds the time the fixed timestep owes after a hitch:
	// up to it, missed frames are caught up over the following Updates
	// (MaxStepsPerUpdate at a time); beyond it the schedule slips and
	// timesync rebalances the peers. 0 means one second.
	MaxCatchUp time.Duration

	// Timesync tunes the frame-advantage balancing.
	Timesync TimesyncConfig
	// Spectators lists the addresses of spectators this session streams
	// confirmed inputs to (see NewSpectator). A spectator must complete
	// its handshake within Transport.HandshakeTimeout of the first Update
	// and replays from frame 0, so one that joins more than
	// Spectate.MaxLag frames into the match is dropped at once.
	Spectators []transport.PeerID
	// Spectate tunes the stream to spectators.
	Spectate StreamConfig

	// Transport configures the endpoint (token, timeouts, nonce source).
	// Its Digest is ignored: the session builds it from Players,
	// TickRate, ChecksumInterval, Game and the input type.
	Transport endpoint.Config
}

// StreamConfig tunes the host side of the spectator stream: Delay holds
// every frame back this many frames after it is confirmed, so a spectator
// cannot relay what it sees to a player in time to matter; MaxLag drops a
// spectator that acknowledges fewer frames than the host's newest
// streamable frame minus MaxLag (0 means ten seconds of frames). The host
// never waits for a spectator. Lockstep sessions take the same.
type StreamConfig = stream.Config

const (
	maxLogRetention   = 1 << 20 // core's bound: 4.8 hours at 60 frames per second
	defaultPrediction = 8
	defaultMaxDelay   = 2
	maxTickRate       = 1000
	maxSpectators     = 16
)

// filled returns c with defaults filled in; slices are copied.
func (c Config) filled() Config {
	if c.Players == 0 {
		c.Players = len(c.Local)
		for _, p := range c.Peers {
			c.Players += len(p.Players)
		}
	}
	if c.TickRate == 0 {
		c.TickRate = 60
	}
	if c.Prediction == 0 {
		c.Prediction = defaultPrediction
	}
	if c.MaxDelay == 0 {
		c.MaxDelay = defaultMaxDelay
	}
	if c.MaxStepsPerUpdate == 0 {
		c.MaxStepsPerUpdate = pace.DefaultMaxSteps
	}
	if c.MaxCatchUp == 0 {
		c.MaxCatchUp = time.Second
	}
	if c.Spectate.MaxLag == 0 {
		c.Spectate.MaxLag = 10 * c.TickRate
	}
	c.Timesync.Fill(c.TickRate)
	c.Local = append([]core.PlayerHandle(nil), c.Local...)
	peers := make([]Peer, len(c.Peers))
	for i, p := range c.Peers {
		peers[i] = Peer{Addr: p.Addr, Players: append([]core.PlayerHandle(nil), p.Players...)}
	}
	c.Peers = peers
	c.Spectators = append([]transport.PeerID(nil), c.Spectators...)
	return c
}

// period is the frame period.
func (c *Config) period() time.Duration { return time.Second / time.Duration(c.TickRate) }

// Validate reports the first problem with c, after filling in defaults,
// as a *core.ConfigError naming the field (matching core.ErrInvalidConfig),
// or the endpoint's *endpoint.ConfigError. It does not modify c.
func (c Config) Validate() error {
	_, err := c.coreConfig()
	return err
}

// coreConfig validates c and returns the engine's configuration.
func (c Config) coreConfig() (core.Config, error) {
	d := c.filled()
	bad := func(field, format string, args ...any) error {
		return &core.ConfigError{Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	switch {
	case d.TickRate < 1 || d.TickRate > maxTickRate:
		return core.Config{}, bad("TickRate", "%d is outside 1..%d", d.TickRate, maxTickRate)
	case d.Prediction < 1 || d.Prediction > 64:
		return core.Config{}, bad("Prediction", "%d is outside 1..64", d.Prediction)
	case d.MaxDelay < 0 || d.MaxDelay > 32:
		return core.Config{}, bad("MaxDelay", "%d is outside 0..32", d.MaxDelay)
	case d.InputDelay < 0 || (!d.FixedDelay && d.InputDelay > d.MaxDelay) || d.InputDelay > 32:
		return core.Config{}, bad("InputDelay", "%d is outside 0..%d", d.InputDelay, d.MaxDelay)
	case d.MaxStepsPerUpdate < 1 || d.MaxStepsPerUpdate > 64:
		return core.Config{}, bad("MaxStepsPerUpdate", "%d is outside 1..64", d.MaxStepsPerUpdate)
	case d.MaxCatchUp < d.period() || d.MaxCatchUp > time.Hour:
		return core.Config{}, bad("MaxCatchUp", "%v is outside one frame period..1h", d.MaxCatchUp)
	case d.LogRetention < 0 || d.LogRetention > maxLogRetention:
		return core.Config{}, bad("LogRetention", "%d is outside 0..%d", d.LogRetention, maxLogRetention)
	case len(d.Peers) == 0:
		return core.Config{}, bad("Peers", "is empty: a session needs a remote peer")
	case len(d.Spectators) > maxSpectators:
		return core.Config{}, bad("Spectators", "%d exceed %d", len(d.Spectators), maxSpectators)
	case d.Spectate.Delay < 0 || d.Spectate.Delay > 1<<16:
		return core.Config{}, bad("Spectate.Delay", "%d is outside 0..65536", d.Spectate.Delay)
	case d.Spectate.MaxLag < 1 || d.Spectate.MaxLag > 1<<18:
		return core.Config{}, bad("Spectate.MaxLag", "%d is outside 1..262144", d.Spectate.MaxLag)
	case d.Timesync.Window < 1 || d.Timesync.Window > 1024:
		return core.Config{}, bad("Timesync.Window", "%d is outside 1..1024", d.Timesync.Window)
	case d.Timesync.MinAdvantage < 1 || d.Timesync.MaxWait < 1:
		return core.Config{}, bad("Timesync", "MinAdvantage %d and MaxWait %d must be positive", d.Timesync.MinAdvantage, d.Timesync.MaxWait)
	}
	addrs := make(map[transport.PeerID]string)
	for i, p := range d.Peers {
		field := fmt.Sprintf("Peers[%d].Addr", i)
		if prev, dup := addrs[p.Addr]; dup {
			return core.Config{}, bad(field, "%v is also %s", p.Addr, prev)
		}
		addrs[p.Addr] = field
	}
	for i, a := range d.Spectators {
		field := fmt.Sprintf("Spectators[%d]", i)
		if prev, dup := addrs[a]; dup {
			return core.Config{}, bad(field, "%v is also %s", a, prev)
		}
		addrs[a] = field
	}
	if err := d.Transport.Validate(); err != nil {
		return core.Config{}, err
	}
	cc := core.Config{
		Players:            d.Players,
		Local:              d.Local,
		InputDelay:         d.InputDelay,
		MaxInputDelay:      max(d.MaxDelay, d.InputDelay),
		Prediction:         d.Prediction,
		MaxPrediction:      d.Prediction,
		ChecksumInterval:   d.ChecksumInterval,
		LogRetention:       d.LogRetention,
		MaxEffectsPerFrame: d.MaxEffectsPerFrame,
	}
	for _, p := range d.Peers {
		cc.Peers = append(cc.Peers, p.Players)
	}
	if len(d.Spectators) > 0 {
		cc.LogRetention = max(cc.LogRetention, d.Spectate.MaxLag+d.Spectate.Delay+2*stream.Run)
	}
	if err := cc.Validate(); err != nil {
		return core.Config{}, err
	}
	return cc, nil
}

// digest builds the handshake digest of a match of input type I.
func digest[I comparable](players, tickRate, checksumInterval int, game [16]byte) (wire.ConfigDigest, error) {
	return wire.DigestOf[core.Slot[I]](players, tickRate, checksumInterval, game)
}
