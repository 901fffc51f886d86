package match

import (
	"fmt"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/replay"
	"github.com/rollstep/rollstep/rollback"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

// SimConfig describes a match between two peers on a simulated network.
type SimConfig struct {
	// Frames is the length of the match; 0 means 3,600 (a minute).
	Frames int
	// Latency is the one-way latency of both directions.
	Latency time.Duration
	// Loss is the probability in [0, 1] that a datagram is lost.
	Loss float64
	// Seed seeds the network, the initial state and the bots.
	Seed uint64
	// Render is how often each peer's game loop runs; 0 means 1/120 s.
	Render time.Duration
	// Spectate adds a spectator streamed by player 0.
	Spectate bool
	// Record makes a replay of player 0's match (SimResult.Replay).
	Record bool
}

// SimResult is what RunSim measured.
type SimResult struct {
	// Peers are both players' summaries.
	Peers [2]Summary
	// Compared is the number of frames whose checksums were compared
	// (every frame of the match), and Mismatch the first frame whose
	// checksums differed, valid if HasMismatch.
	Compared    int
	Mismatch    core.Frame
	HasMismatch bool
	// Spectator is the checksum of the spectator's state after the last
	// frame, valid if Spectated.
	Spectator uint64
	Spectated bool
	// VirtualTime is the simulated time the match took.
	VirtualTime time.Duration
	// Replay is player 0's replay of the match, if SimConfig.Record.
	Replay *replay.Recorder[fighter.State, fighter.Input]
}

// RunSim plays a match between two peers on a transport/sim network on
// virtual time, each driven by a bot, until both confirmed every frame
// (and the spectator, if any, replayed them), and compares the checksums
// both recorded for every frame. It reads no clock and is deterministic
// for a SimConfig.
func RunSim(cfg SimConfig) (*SimResult, error) {
	if cfg.Frames <= 0 {
		cfg.Frames = 3600
	}
	if cfg.Render <= 0 {
		cfg.Render = time.Second / 120
	}
	link := sim.LinkConfig{Latency: sim.Latency{Base: cfg.Latency}, Loss: cfg.Loss}
	nw, err := sim.New(sim.Config{Seed: cfg.Seed, Link: link})
	if err != nil {
		return nil, err
	}
	eps := [3]*sim.Endpoint{nw.NewEndpoint(), nw.NewEndpoint(), nw.NewEndpoint()}
	token := Token(cfg.Seed)
	var peers [2]*Peer
	for i := range peers {
		var spect []transport.Addr
		if i == 0 && cfg.Spectate {
			spect = []transport.Addr{eps[2].ID()}
		}
		c := Config(i, eps[1-i].ID(), token, spect)
		c.Transport.Rand = &seedReader{state.NewRand(cfg.Seed ^ uint64(i+1)<<40)}
		if peers[i], err = NewPeer(c, eps[i], cfg.Frames, cfg.Seed); err != nil {
			return nil, fmt.Errorf("player %d: %w", i, err)
		}
	}
	var sp *rollback.Spectator[fighter.State, fighter.Input]
	spRec := NewRecorder(cfg.Frames)
	if cfg.Spectate {
		sc := rollback.SpectatorConfig{Host: eps[0].ID(), TickRate: TickRate, Game: GameID}
		sc.Transport.Token = token
		sc.Transport.Rand = &seedReader{state.NewRand(cfg.Seed ^ 3<<40)}
		if sp, err = rollback.NewSpectator[fighter.State, fighter.Input](sc, spRec, fighter.New(cfg.Seed), eps[2]); err != nil {
			return nil, fmt.Errorf("spectator: %w", err)
		}
	}
	limit := time.Duration(cfg.Frames)*time.Second/TickRate*4 + 30*time.Second
	var now time.Duration
	for ; ; now += cfg.Render {
		if now > limit {
			return nil, fmt.Errorf("%w: %v of virtual time, frames %d and %d", ErrTimeout, limit, peers[0].Session.Frame(), peers[1].Session.Frame())
		}
		nw.RunUntil(now)
		for i, p := range peers {
			if err := p.Tick(now); err != nil {
				return nil, fmt.Errorf("player %d at %v: %w", i, now, err)
			}
		}
		if sp != nil && !sp.Ended() {
			if err := sp.Update(now); err != nil {
				return nil, fmt.Errorf("spectator at %v: %w", now, err)
			}
			sp.Events()
		}
		if peers[0].Done() && peers[1].Done() && (sp == nil || spRec.HasLast) {
			break
		}
	}
	r := &SimResult{VirtualTime: now, Compared: cfg.Frames}
	for i, p := range peers {
		r.Peers[i] = p.Summary()
	}
	a, b := peers[0].Rec.Sums, peers[1].Rec.Sums
	for f := range a {
		if a[f] != b[f] {
			r.Mismatch, r.HasMismatch = core.Frame(f), true
			break
		}
	}
	if sp != nil {
		r.Spectator, r.Spectated = state.Checksum(&spRec.Last), true
	}
	if cfg.Record {
		if r.Replay, err = peers[0].Replay(cfg.Seed); err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
	}
	for _, p := range peers {
		_ = p.Session.Close()
	}
	if sp != nil {
		_ = sp.Close()
	}
	return r, nil
}
