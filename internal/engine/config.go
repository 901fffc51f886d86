package engine

import (
	"fmt"

	"github.com/rollstep/rollstep/core"
)

// Config configures an Engine. Build one with DefaultConfig and change what
// the match needs; Validate reports the first problem. Fields whose zero
// value is documented as "0 means default" are filled in by NewEngine; the
// zero InputDelay and Prediction mean zero (no delay, lockstep).
type Config struct {
	// Players is the number of players in the match, 1 to MaxPlayers.
	Players int
	// Local lists the players whose inputs this engine produces. It may be
	// empty (a spectator-like peer) or hold several players (couch play).
	Local []core.PlayerHandle
	// Peers lists, for each remote peer, the players it owns; the peer's
	// PeerID is its index here. Every player is in Local or in exactly one
	// peer's list.
	Peers [][]core.PlayerHandle

	// InputDelay is the initial input delay D of every local player, in
	// frames. Change it per player with SetInputDelay.
	InputDelay int
	// MaxInputDelay bounds InputDelay and SetInputDelay; 0 means 32.
	MaxInputDelay int
	// Prediction is the initial prediction window W: how many frames the
	// engine may simulate past the newest frame for which it holds every
	// input. 0 is lockstep. Change it with SetPrediction.
	Prediction int
	// MaxPrediction bounds Prediction, SetPrediction and SyncTest, and sizes
	// the ring of saved states (MaxPrediction+2 states). 0 means the value
	// of Prediction, so a lockstep engine allocates no saved states.
	MaxPrediction int

	// ChecksumInterval N: the state after every confirmed frame that is a
	// multiple of N is checksummed and compared with every peer. 0 means 1.
	// Every peer of a match must use the same N.
	ChecksumInterval int
	// DisableChecksums turns desync detection off.
	DisableChecksums bool
	// SnapshotRetention is how many checksummed states are kept so a
	// DesyncEvent can carry the local state and name the differing fields;
	// 0 means 32. A mismatch is found about one round trip after the frame
	// is confirmed, so it must cover the frames of a round trip divided by
	// ChecksumInterval, or the event carries no snapshot and the
	// DesyncFieldsEvent is Incomplete. On detection the engine copies the
	// state, so the search that names the fields does not depend on it.
	SnapshotRetention int

	// LogRetention is how many confirmed frames of inputs the input log
	// keeps (see ReadLog); 0 keeps none.
	LogRetention int
	// MaxEffectsPerFrame bounds the effects one Step may emit; 0 means 16,
	// the most is 64.
	MaxEffectsPerFrame int
	// MaxRunLength bounds the inputs per player in one Message; 0 means 64.
	MaxRunLength int

	// StepsPerFrame is how many times each frame calls the game's Step:
	// once with the frame's inputs, then with every input's zero value
	// (and the same statuses); 0 means 1. A lockstep turn of several game
	// ticks is one frame. Every peer of a match must use the same value.
	StepsPerFrame int
	// FillZero makes the frames filled when a player's D rises carry the
	// zero input instead of a copy of the previous one (their status is
	// InputFilled either way): for command-style inputs, where the zero
	// value means "no command" and a copy would repeat one.
	FillZero bool

	// SyncTest, when k > 0, makes every Advance that steps a frame roll back
	// k frames, re-simulate them and compare checksums (see SyncTestEvent).
	// k must not exceed MaxPrediction. The distance in effect is
	// min(k, W): it follows Prediction and SetPrediction, so the sync test
	// never rolls back further than a real rollback could, and W = 0
	// suspends it (Stats.SyncTest reports the distance in effect). Builds
	// with the rollstep_synctest tag use DefaultSyncTest when SyncTest is 0.
	// Each Advance that steps re-simulates k frames: k extra Steps a
	// frame, each with a checksum, and a state save and load.
	SyncTest int
	// SyncTestSparse re-simulates the k frames since the last check once
	// every k frames instead of the newest k after every frame: every
	// frame is still checked, once instead of k times, for about one
	// extra Step a frame. A change of the distance (SetPrediction) first
	// checks the frames since the last check, so none is skipped. It
	// catches state hidden outside S that changes slowly less often than
	// the dense schedule, which re-simulates each frame from k different
	// start states.
	SyncTestSparse bool
}

// DefaultConfig returns a rollback configuration for two players where
// player 0 is local and player 1 belongs to peer 0: D = 1, W = 8.
func DefaultConfig() Config {
	return Config{
		Players:       2,
		Local:         []core.PlayerHandle{0},
		Peers:         [][]core.PlayerHandle{{1}},
		InputDelay:    1,
		MaxInputDelay: 32,
		Prediction:    8,
		MaxPrediction: 8,
	}
}

// Limits on the sizes NewEngine accepts.
const (
	maxInputDelayLimit = 128
	maxPredictionLimit = 64
	maxEffectsLimit    = 64
	maxRunLimit        = 1024
	maxStepsPerFrame   = 64
)

// withDefaults returns a copy of c with its "0 means default" fields set.
// Slices are copied so the engine never shares memory with the caller.
func (c Config) withDefaults() Config {
	if c.MaxInputDelay == 0 {
		c.MaxInputDelay = 32
	}
	if c.MaxPrediction == 0 {
		c.MaxPrediction = c.Prediction
	}
	if c.ChecksumInterval == 0 {
		c.ChecksumInterval = 1
	}
	if c.SnapshotRetention == 0 {
		c.SnapshotRetention = 32
	}
	if c.MaxEffectsPerFrame == 0 {
		c.MaxEffectsPerFrame = 16
	}
	if c.MaxRunLength == 0 {
		c.MaxRunLength = 64
	}
	if c.StepsPerFrame == 0 {
		c.StepsPerFrame = 1
	}
	if c.SyncTest == 0 && DefaultSyncTest > 0 && c.MaxPrediction >= DefaultSyncTest {
		c.SyncTest = DefaultSyncTest
	}
	c.Local = append([]core.PlayerHandle(nil), c.Local...)
	peers := make([][]core.PlayerHandle, len(c.Peers))
	for i, p := range c.Peers {
		peers[i] = append([]core.PlayerHandle(nil), p...)
	}
	c.Peers = peers
	return c
}

// Validate reports the first problem with c as a *ConfigError, after
// filling in defaults as NewEngine would. It does not modify c.
func (c Config) Validate() error {
	d := c.withDefaults()
	bad := func(field string, format string, args ...any) error {
		return &ConfigError{Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	if d.Players < 1 || d.Players > core.MaxPlayers {
		return bad("Players", "%d is outside 1..%d", d.Players, core.MaxPlayers)
	}
	var seen [core.MaxPlayers]bool
	claim := func(field string, p core.PlayerHandle) error {
		if p < 0 || int(p) >= d.Players {
			return bad(field, "player %d is outside 0..%d", p, d.Players-1)
		}
		if seen[p] {
			return bad(field, "player %d is listed twice", p)
		}
		seen[p] = true
		return nil
	}
	for _, p := range d.Local {
		if err := claim("Local", p); err != nil {
			return err
		}
	}
	for i, ps := range d.Peers {
		if len(ps) == 0 {
			return bad("Peers", "peer %d owns no players", i)
		}
		for _, p := range ps {
			if err := claim(fmt.Sprintf("Peers[%d]", i), p); err != nil {
				return err
			}
		}
	}
	for p := 0; p < d.Players; p++ {
		if !seen[p] {
			return bad("Peers", "player %d is neither local nor owned by a peer", p)
		}
	}
	if d.MaxInputDelay < 0 || d.MaxInputDelay > maxInputDelayLimit {
		return bad("MaxInputDelay", "%d is outside 0..%d", d.MaxInputDelay, maxInputDelayLimit)
	}
	if d.InputDelay < 0 || d.InputDelay > d.MaxInputDelay {
		return bad("InputDelay", "%d is outside 0..MaxInputDelay (%d)", d.InputDelay, d.MaxInputDelay)
	}
	if d.MaxPrediction < 0 || d.MaxPrediction > maxPredictionLimit {
		return bad("MaxPrediction", "%d is outside 0..%d", d.MaxPrediction, maxPredictionLimit)
	}
	if d.Prediction < 0 || d.Prediction > d.MaxPrediction {
		return bad("Prediction", "%d is outside 0..MaxPrediction (%d)", d.Prediction, d.MaxPrediction)
	}
	if d.ChecksumInterval < 0 {
		return bad("ChecksumInterval", "%d is negative", d.ChecksumInterval)
	}
	if d.SnapshotRetention < 0 || d.SnapshotRetention > 1024 {
		return bad("SnapshotRetention", "%d is outside 0..1024", d.SnapshotRetention)
	}
	if d.LogRetention < 0 || d.LogRetention > 1<<20 {
		return bad("LogRetention", "%d is outside 0..%d", d.LogRetention, 1<<20)
	}
	if d.MaxEffectsPerFrame < 0 || d.MaxEffectsPerFrame > maxEffectsLimit {
		return bad("MaxEffectsPerFrame", "%d is outside 0..%d", d.MaxEffectsPerFrame, maxEffectsLimit)
	}
	if d.StepsPerFrame < 1 || d.StepsPerFrame > maxStepsPerFrame {
		return bad("StepsPerFrame", "%d is outside 0..%d", d.StepsPerFrame, maxStepsPerFrame)
	}
	if d.MaxRunLength < 1 || d.MaxRunLength > maxRunLimit {
		return bad("MaxRunLength", "%d is outside 1..%d", d.MaxRunLength, maxRunLimit)
	}
	if d.SyncTest < 0 || d.SyncTest > d.MaxPrediction {
		return bad("SyncTest", "%d is outside 0..MaxPrediction (%d)", d.SyncTest, d.MaxPrediction)
	}
	return nil
}
