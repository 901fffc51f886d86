package rollstep

import (
	"errors"
	"fmt"
	"github.com/rollstep/rollstep/internal/lifecycle"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/rollback"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/endpoint"
)

// Defaults for the zero fields of a Config.
const (
	// DefaultLockstepRate is the turns per second of Lockstep mode when
	// Config.TickRate is 0.
	DefaultLockstepRate = 10
	// DefaultFrameRate is the frames per second of Rollback and Auto mode
	// when Config.TickRate is 0.
	DefaultFrameRate = 60
	// DefaultMaxPrediction is the prediction window W of Rollback mode,
	// and its bound in Auto mode, when Config.Prediction is 0.
	DefaultMaxPrediction = 8
	// DefaultDelayBudget is the felt lag Auto mode covers with input
	// delay when Config.DelayBudget is 0.
	DefaultDelayBudget = 100 * time.Millisecond
)

// ErrMode is returned by NewSession for a Config.Mode that is not
// Lockstep, Rollback or Auto (including the zero ModeUnknown).
var ErrMode = errors.New("rollstep: unknown mode")

// ErrInvalidConfig is core.ErrInvalidConfig, matched by the errors
// NewSession returns for a field that does not apply to the chosen mode
// and by every front end's configuration error.
var ErrInvalidConfig = core.ErrInvalidConfig

// Peer is one remote peer of the match: its transport address and the
// players it owns. Its index in Config.Peers is its core.PeerID. It is the
// same type as lockstep.Peer and rollback.Peer.
type Peer = lifecycle.Peer

// Config configures a session of any mode. Mode, Players, Peers and (for a
// playing peer) Local must be set; every other zero field means the
// default of the chosen front end, as its comment says. Every peer of a
// match uses the same Mode-independent match fields (Players, TickRate,
// ChecksumInterval, Game): the handshake compares them. Peers of one match
// may run different modes only if they agree on these and on the input
// framing, which Lockstep/Auto and Rollback do not share: use one mode
// family per match.
type Config struct {
	// Mode picks the front end; ModeUnknown is refused.
	Mode Mode

	// Players is the number of players in the match; 0 means the players
	// Local and Peers list.
	Players int
	// Local lists the players this session produces inputs for.
	Local []core.PlayerHandle
	// Peers lists the remote peers; every player is local or owned by
	// exactly one peer.
	Peers []Peer
	// Spectators lists the addresses of spectators the session streams
	// confirmed frames to, in every mode (see rollback.NewSpectator, which
	// plays any mode's stream); Spectate tunes the stream.
	Spectators []transport.PeerID
	Spectate   rollback.StreamConfig

	// TickRate is the frames per second: turns per second in Lockstep
	// (0 means DefaultLockstepRate), frames per second in Rollback and
	// Auto (0 means DefaultFrameRate).
	TickRate int
	// TurnPeriod, when set, is the length of a turn (Lockstep) or frame
	// (Auto) and replaces TickRate, for periods such as 150 ms that are
	// not a whole number per second. Rollback runs at TickRate frames
	// per second: TurnPeriod must be 0 there.
	TurnPeriod time.Duration
	// TicksPerTurn is the game steps per frame (Lockstep and Auto only; 0
	// means 1).
	TicksPerTurn int

	// InputDelay is the initial input delay D in frames; 0 means, in every
	// mode, the smallest D a match can start with: 0 in Rollback (it
	// predicts from frame 0), 1 in Lockstep and Auto (they start without
	// predicting, and D = W = 0 cannot progress). The delay controller then
	// moves D as the link needs. MaxDelay bounds the adaptive D (0: the
	// front end's default); FixedDelay keeps D at InputDelay.
	InputDelay int
	MaxDelay   int  // bound of the adaptive D
	FixedDelay bool // keep D at InputDelay

	// Prediction is W in Rollback mode and the largest W in Auto mode; 0
	// means DefaultMaxPrediction. It must be 0 in Lockstep mode.
	Prediction int
	// DelayBudget is the felt lag Auto mode covers with delay before it
	// predicts; 0 means DefaultDelayBudget. Auto mode only.
	DelayBudget time.Duration

	// HoldInputs makes Lockstep and Auto inputs state-style, as Rollback's
	// always are: AddLocalInput sets the input the player holds and every
	// frame uses the newest. By default Lockstep and Auto queue inputs as
	// commands, one per frame, the zero input when none is queued (see
	// lockstep.Config.HoldInputs).
	HoldInputs bool

	// MaxStepsPerUpdate bounds the frames one Update runs; the rest run
	// in later Updates. 0 means the front end's default (4).
	MaxStepsPerUpdate int
	// SoloStart lets the match start without a peer whose handshake timed
	// out; by default Update fails with its *endpoint.HandshakeTimeoutError
	// (see rollback.Config.SoloStart).
	SoloStart bool
	// ChecksumInterval is core.Config.ChecksumInterval; 0 means 1.
	ChecksumInterval int
	// LogRetention is how many confirmed frames of inputs the session
	// keeps for Session.ReadLog, to record a replay; 0 keeps none (see
	// rollback.Config.LogRetention and lockstep.Config.LogRetention for
	// the bounds).
	LogRetention int
	// MaxEffectsPerFrame is core.Config.MaxEffectsPerFrame: the effects one
	// frame (in Lockstep and Auto, one turn) may emit; 0 means 16.
	MaxEffectsPerFrame int
	// Game identifies the game build in the handshake digest.
	Game [16]byte
	// Transport configures the connection (token, timeouts, nonce
	// source); its Digest is ignored.
	Transport endpoint.Config
	// StepClock, when set, measures this machine's step time so that
	// Lockstep and Auto pacing follow the slowest CPU (see
	// lockstep.Config.StepClock). Ignored in Rollback mode.
	StepClock func() time.Duration
}

// period returns the frame period of c in its mode.
func (c *Config) period() time.Duration {
	if c.TurnPeriod > 0 {
		return c.TurnPeriod
	}
	r := c.TickRate
	if r == 0 {
		r = DefaultFrameRate
		if c.Mode == Lockstep {
			r = DefaultLockstepRate
		}
	}
	if r < 1 {
		return 0
	}
	return time.Second / time.Duration(r)
}

// Validate reports the first problem with c: an error matching ErrMode or
// ErrInvalidConfig, or the chosen front end's validation error. It does
// not modify c.
func (c Config) Validate() error {
	if err := c.check(); err != nil {
		return err
	}
	if c.Mode == Rollback {
		return rollbackConfig(&c).Validate()
	}
	return lockstepConfig(&c).Validate()
}

// check reports fields that do not apply to c's mode.
func (c *Config) check() error {
	bad := func(field, reason string) error {
		return fmt.Errorf("%w: %s %s in mode %v", ErrInvalidConfig, field, reason, c.Mode)
	}
	switch c.Mode {
	case Lockstep, Rollback, Auto:
	default:
		return fmt.Errorf("%w: Mode is %d", ErrMode, int(c.Mode))
	}
	switch {
	case c.TickRate < 0:
		return bad("TickRate", fmt.Sprintf("is %d", c.TickRate))
	case c.TurnPeriod < 0:
		return bad("TurnPeriod", fmt.Sprintf("is %v", c.TurnPeriod))
	case c.Mode == Rollback && c.TurnPeriod != 0:
		return bad("TurnPeriod", "must be 0 (rollback runs at TickRate frames per second)")
	case c.Mode == Lockstep && c.Prediction != 0:
		return bad("Prediction", "must be 0 (lockstep never predicts)")
	case c.Mode == Rollback && c.TicksPerTurn > 1:
		return bad("TicksPerTurn", "applies to lockstep and auto only")
	case c.Mode != Auto && c.DelayBudget != 0:
		return bad("DelayBudget", "applies to auto only")
	}
	return nil
}
