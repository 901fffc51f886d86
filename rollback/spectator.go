package rollback

import (
	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
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
	// (the host's TicksPerTurn); 0 means 1.
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
	// LogRetention is how many confirmed frames of inputs the spectator
	// keeps for ReadLog, to record the match it watches, as in
	// rollstep.Config.
	LogRetention int
	// Transport configures the connection to the host, as in Config.
	Transport transport.Config
}

// Spectator is a session that replays a match from the confirmed inputs
// one host streams to it (rollstep.Config.Spectate): it never predicts
// and never rolls back, plays at the tick rate and catches up faster when
// it is behind. The host never waits for it. When the host leaves or
// drops it, a core.PeerLostEvent ends it (Ended); a host lost to silence
// it waits for 30 s (the rejoin timeout), so that a host whose process
// restarts, or whose link comes back, takes it back.
type Spectator[S any, I comparable] = rollstep.Session[S, I]

// NewSpectator returns a spectator of the host at cfg.Host over conn,
// starting from initial (the same initial state as the players'): a
// session of rollstep.Config{Spectate: true} with cfg's fields. The
// handshake starts with the first Update.
func NewSpectator[S any, I comparable](cfg SpectatorConfig, game core.Game[S, I], initial S, conn transport.Conn) (*Spectator[S, I], error) {
	if cfg.Players == 0 {
		cfg.Players = 2
	}
	if cfg.MaxStepsPerUpdate == 0 {
		cfg.MaxStepsPerUpdate = 8
	}
	return rollstep.NewSession(rollstep.Config{
		Mode: rollstep.Rollback, Spectate: true, Peers: []rollstep.Peer{{Addr: cfg.Host}},
		Players: cfg.Players, TickRate: cfg.TickRate, TicksPerTurn: cfg.StepsPerFrame, ChecksumInterval: cfg.ChecksumInterval,
		Game: cfg.Game, SpectatorBuffer: cfg.Buffer, MaxStepsPerUpdate: cfg.MaxStepsPerUpdate, LogRetention: cfg.LogRetention,
		Transport: cfg.Transport,
	}, game, initial, conn)
}
