package lockstep

import (
	"github.com/rollstep/rollstep/internal/stream"
	"time"

	"github.com/rollstep/rollstep/core"
)

// Stats are a Session's counters; see Session.Stats.
type Stats struct {
	// Engine holds the engine's counters. Its per-peer byte and packet
	// counters come from the endpoint and count transport.HeaderOverhead
	// per datagram, as transport/sim does.
	Engine core.Stats
	// Spectators has one entry per Config.Spectators entry: whether it
	// joined, left (or was dropped for lagging), and the turns it
	// acknowledged (rollback.SpectatorStats).
	Spectators []stream.Stats
	// Waited is the number of turn periods timesync made the session wait
	// (auto mode only).
	Waited uint64
	// Turns is the number of turns run; Played the number in which the
	// game stepped (not paused).
	Turns, Played int64
	// TurnPeriod is the current pacing period: TurnPeriod·100/speed, or
	// the slowest reported step time if longer.
	TurnPeriod time.Duration
	// Delay and Prediction are the current D and W of the local players.
	Delay, Prediction int
	// Stall is the total time turns waited for inputs (not the turns
	// timesync chose to wait, which Waited counts); StalledTurns how
	// many turns waited; LastTurnStall and MaxTurnStall the wait of the
	// latest turn and of the worst.
	Stall                       time.Duration
	StalledTurns                uint64        // turns that waited
	LastTurnStall, MaxTurnStall time.Duration // the latest turn's wait, the worst

	// PeerStall[i] is the time spent waiting for core.PeerID i's inputs
	// (a wait for two peers counts for both). Owned by the session and
	// overwritten by the next call of Stats.
	PeerStall []time.Duration
	// StepTime is this machine's step time per turn as reported to the
	// peers; SlowestStep the largest report of any player.
	StepTime, SlowestStep time.Duration
	// Requeued counts inputs that the engine discarded because their turn
	// already had one and that the session queued again for the next turn.
	// D is lowered only at turns with nothing queued, so that lowering D
	// never leaves an input behind: a player who gives an input every turn
	// keeps its D until it pauses for a turn.
	Requeued uint64
	// DroppedEvents counts events lost because Events was not called.
	DroppedEvents uint64
	// Paused and Speed are the game's system state at the current turn.
	Paused bool
	Speed  int // percent
}
