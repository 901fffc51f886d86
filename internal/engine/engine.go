package engine

import (
	"math"
	"time"

	"github.com/rollstep/rollstep/core"
)

// never is an internal "no frame" bound; it never leaves the package.
const never core.Frame = math.MaxInt32

// Engine is the sans-IO (D, W) engine: it schedules local inputs D frames
// ahead, steps the game up to W frames past the newest fully known frame
// with predicted inputs, rolls back and re-simulates when a prediction was
// wrong, confirms frames, detects desyncs and agrees disconnects. It does
// no I/O, reads no clock and starts no goroutine; it is not safe for
// concurrent use. See the package documentation for the host loop.
type Engine[S any, I comparable] struct {
	cfg     Config
	game    core.Game[S, I]
	predict Predictor[I] // nil: RepeatLast
	players int

	local     [core.MaxPlayers]bool
	localMask uint32                       // bit p set for every local player
	owner     [core.MaxPlayers]core.PeerID // valid for non-local players
	delay     [core.MaxPlayers]int         // input delay D of local players
	window    int                          // prediction window W

	frame   core.Frame // next frame to simulate; cur is the state before it
	end     core.Frame // the first frame never to simulate (SetEnd); never by default
	cur     world[S]
	scratch *world[S]           // sync-test re-simulations; nil unless SyncTest > 0
	ring    *snapRing[world[S]] // start-of-frame states; nil when MaxPrediction is 0

	// Inputs, frame-major so one frame's inputs share a cache line. For
	// player p, vals[(f&rmask)*players + p] is the slot of frame f, valid
	// for next[p]-rlen <= f < next[p]; used[...] and usedCtl[...] are the
	// input and control word the last simulation of frame f used, and
	// ran[f&rmask] whether it ran the game's Step, valid for frame-rlen <
	// f < frame.
	rlen    int
	rmask   core.Frame
	vals    []Slot[I]
	used    []core.Input[I]
	usedCtl []Control
	ran     []bool
	next    [core.MaxPlayers]core.Frame // frames 0..next[p]-1 of player p are known

	// Control channel: commands waiting for an input, per local player,
	// and the step report their inputs carry.
	pending [core.MaxPlayers]commandQueue
	report  [core.MaxPlayers]uint16
	// confirmedCtl is the control state after the newest confirmed frame,
	// for the PauseEvents and SpeedEvents raised at confirmation.
	confirmedCtl matchState

	// known caches knownEnd(); valid unless knownDirty.
	known      core.Frame
	knownDirty bool

	// horizon: frames at or past frame+horizon are rejected as far future.
	horizon core.Frame
	// rejected is the error Receive returns for a malformed message,
	// reused so that rejections allocate nothing.
	rejected MessageError

	// firstWrong is the earliest simulated frame whose inputs differ from
	// what the engine now knows or predicts; valid when hasWrong.
	firstWrong  core.Frame
	hasWrong    bool
	wrongPlayer int // whose input made firstWrong wrong

	// checked is the first frame not yet processed as confirmed
	// (checksummed, logged).
	checked core.Frame

	// Disconnects.
	goneMask uint16                      // players this engine declared disconnected
	agreed   [core.MaxPlayers]bool       // the disconnect frame of p is agreed
	goneAt   [core.MaxPlayers]core.Frame // agreed disconnect frame, valid if agreed
	peers    []peer[Slot[I]]

	// Returns (rejoin.go): retAt[p] is the return frame R of player p
	// while its return is known but not settled, never otherwise; retR
	// and retBack are the return frame and the handoff frame of the
	// newest return of p, and retBy the peer that sent its command (-1:
	// this engine), valid when returned has bit p; floor is the
	// first frame a resumed engine holds slots of (0 otherwise).
	retAt      [core.MaxPlayers]core.Frame
	retR       [core.MaxPlayers]core.Frame
	retBack    [core.MaxPlayers]core.Frame
	retBy      [core.MaxPlayers]core.PeerID
	returned   uint16
	unsettled  uint16                  // players whose return is known but not settled
	settled    [core.MaxPlayers]uint16 // returns of each player settled so far
	anySettled bool                    // a return of some player settled (AnyReturn)
	floor      core.Frame

	sums     sumLog
	snaps    *snapRing[world[S]]
	log      inputLog[I]
	effects  effectTracker
	fx       EffectList
	stepIn   []core.Input[I]
	stepCtl  []Control       // the commands of the frame being simulated
	idle     []core.Input[I] // the inputs of the extra Steps (StepsPerFrame)
	blockTmp []uint64        // block hashes while answering a query
	rawTmp   []byte          // a retained state's bytes while answering a query

	events      []core.Event // raised since the last Advance
	spareEvents []core.Event // the buffer of the Ready before

	now     time.Duration
	started bool
	ready   Ready[I]
	stats   Stats
	synct   syncTester
}

// NewEngine returns an engine at frame 0 whose state is a copy of initial.
// It validates cfg (a *ConfigError) and that S and I are
// arena-serializable (state.Validate). The engine keeps cfg's values, not
// its slices.
func NewEngine[S any, I comparable](cfg Config, game core.Game[S, I], initial *S) (*Engine[S, I], error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if game == nil {
		return nil, &ConfigError{Field: "game", Reason: "is nil"}
	}
	if initial == nil {
		return nil, &ConfigError{Field: "initial", Reason: "is nil"}
	}
	if err := validateTypes[S, I](); err != nil {
		return nil, err
	}
	c := cfg.withDefaults()
	e := &Engine[S, I]{cfg: c, game: game, players: c.Players, cur: world[S]{Game: *initial}, window: c.Prediction, end: never}
	for p := range e.retAt {
		e.retAt[p] = never
	}
	for _, p := range c.Local {
		e.local[p] = true
		e.localMask |= 1 << p
		e.delay[p] = c.InputDelay
	}
	e.peers = make([]peer[Slot[I]], len(c.Peers))
	for i, ps := range c.Peers {
		for _, p := range ps {
			e.owner[p] = core.PeerID(i)
		}
		e.peers[i].init(c, ps)
	}

	// The input rings must hold the frames a re-simulation may need
	// (MaxPrediction+2 back) plus the furthest frame an honest peer can be
	// ahead (both peers' delays and windows).
	need := 2*c.MaxInputDelay + 2*c.MaxPrediction + 2*c.MaxRunLength + 64
	e.rlen = 64
	for e.rlen < need {
		e.rlen *= 2
	}
	e.rmask = core.Frame(e.rlen - 1)
	e.horizon = core.Frame(e.rlen - c.MaxPrediction - 4)
	e.vals = make([]Slot[I], c.Players*e.rlen)
	e.used = make([]core.Input[I], c.Players*e.rlen)
	e.usedCtl = make([]Control, c.Players*e.rlen)
	e.ran = make([]bool, e.rlen)
	e.stepIn = make([]core.Input[I], c.Players)
	e.stepCtl = make([]Control, c.Players)
	e.idle = make([]core.Input[I], c.Players)

	if c.MaxPrediction > 0 {
		r, err := newSnapRing[world[S]](c.MaxPrediction + 2)
		if err != nil {
			return nil, err
		}
		e.ring = r
	}
	if !c.DisableChecksums && c.SnapshotRetention > 0 {
		r, err := newSnapRing[world[S]](c.SnapshotRetention)
		if err != nil {
			return nil, err
		}
		e.snaps = r
	}
	e.sums = newSumLog()
	e.log = newInputLog[I](c.LogRetention, c.Players)
	e.effects = newEffectTracker(c.MaxPrediction+2, c.MaxEffectsPerFrame)
	e.fx.list = make([]core.Effect, 0, c.MaxEffectsPerFrame)
	out := make([]Outgoing[Slot[I]], len(e.peers))
	for i := range out {
		out[i] = Outgoing[Slot[I]]{To: core.PeerID(i), Message: &e.peers[i].msg}
	}
	e.ready.Messages = out[:0]
	e.ready.Effects = make([]core.FrameEffect, 0, c.MaxEffectsPerFrame*(c.MaxPrediction+2))
	e.ready.Cancelled = make([]core.FrameEffect, 0, c.MaxEffectsPerFrame*(c.MaxPrediction+2))
	e.events = make([]core.Event, 0, 8)
	e.spareEvents = make([]core.Event, 0, 8)
	e.stats.Peers = make([]PeerStats, len(e.peers))
	e.synct.init(c.SyncTest, c.SyncTestSparse, c.Prediction)
	if c.SyncTest > 0 {
		e.scratch = new(world[S])
	}

	// The first D frames of every local player carry the zero input.
	for _, p := range c.Local {
		e.next[p] = core.Frame(c.InputDelay)
	}
	e.knownDirty = true
	return e, nil
}

// Predictor guesses a player's input for a frame whose real input has not
// arrived. last is the player's newest known input, for frame lastFrame
// (lastFrame < frame); known is false when no input of the player is known
// yet, and then last is the zero value. It must be a pure function of its
// arguments: the engine calls it again when it re-simulates.
type Predictor[I comparable] func(player core.PlayerHandle, frame core.Frame, last I, lastFrame core.Frame, known bool) I

// SetPredictor replaces the default Predictor (RepeatLast). A nil p
// restores the default. Every peer may use a different predictor.
func (e *Engine[S, I]) SetPredictor(p Predictor[I]) {
	e.predict = p // nil means RepeatLast, applied inline by inputFor
}

// Frame returns the current frame: the next frame Advance will simulate.
func (e *Engine[S, I]) Frame() core.Frame { return e.frame }

// State returns the current state, the state after frame Frame()-1. It is
// owned by the engine: read it (to render) but never write it or keep it
// past the next call of Advance.
func (e *Engine[S, I]) State() *S { return &e.cur.Game }

// ConfirmedFrame returns the newest frame that is confirmed: every input of
// it and of all earlier frames is known and it was simulated with them, so
// it will never be simulated again. ok is false before frame 0 is
// confirmed.
func (e *Engine[S, I]) ConfirmedFrame() (f core.Frame, ok bool) {
	end := e.confirmedEnd()
	return end - 1, end > 0
}

// confirmedEnd is one past the newest confirmed frame.
func (e *Engine[S, I]) confirmedEnd() core.Frame {
	end := min(e.knownEnd(), e.frame)
	if e.hasWrong && e.firstWrong < end {
		end = e.firstWrong
	}
	return end
}

// knownEnd is the first frame for which some player's input is unknown.
// It is cached; whatever changes next, agreed or goneAt sets knownDirty.
func (e *Engine[S, I]) knownEnd() core.Frame {
	if e.knownDirty {
		e.known, e.knownDirty = e.computeKnownEnd(), false
	}
	return e.known
}

func (e *Engine[S, I]) computeKnownEnd() core.Frame {
	end := never
	for p := 0; p < e.players; p++ {
		n := e.next[p]
		if e.agreed[p] && n >= e.goneAt[p] {
			continue
		}
		end = min(end, n)
	}
	return end
}

// Prediction returns the current prediction window W.
func (e *Engine[S, I]) Prediction() int { return e.window }

// SetPrediction changes W at the current frame. Lowering it below the
// number of frames already predicted does not undo them; the engine just
// waits until confirmation catches up. Raising it past MaxPrediction
// returns ErrOutOfRange. In sync-test mode the sync test's distance follows
// W: it is min(Config.SyncTest, W), so W = 0 suspends sync testing until W
// is raised again (Stats.SyncTest reports the distance in effect).
func (e *Engine[S, I]) SetPrediction(w int) error {
	if w < 0 || w > e.cfg.MaxPrediction {
		return ErrOutOfRange
	}
	e.window = w
	e.syncWindow(w)
	return nil
}

// InputDelay returns local player p's input delay D.
func (e *Engine[S, I]) InputDelay(p core.PlayerHandle) (int, error) {
	if !e.isLocal(p) {
		return 0, ErrNotLocal
	}
	return e.delay[p], nil
}

func (e *Engine[S, I]) isLocal(p core.PlayerHandle) bool {
	return p >= 0 && int(p) < e.players && e.local[p]
}

func (e *Engine[S, I]) idx(p int, f core.Frame) int { return int(f&e.rmask)*e.players + p }
