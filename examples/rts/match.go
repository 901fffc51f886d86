package rts

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/rollstep/rollstep"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

// DefaultTurn is the turn length of a match whose TurnPeriod is 0: the
// session's own default of 10 turns a second.
const DefaultTurn = 100 * time.Millisecond

// SessionConfig returns the lockstep configuration of the peer playing
// player local in a match of players players, one player per peer, where
// addrs[p] is the transport address of player p's peer (addrs[local] is
// not used). The turn lasts period (0: DefaultTurn) and is
// one tick; inputs are command-style, so the zero Command fills the turns
// in which a player gives none.
func SessionConfig(players, local int, addrs []transport.Addr, period time.Duration) rollstep.Config {
	cfg := rollstep.Config{Mode: rollstep.Lockstep, Players: players, Local: []core.PlayerHandle{core.PlayerHandle(local)}, TurnPeriod: period, Game: Build}
	for p := range players {
		if p != local && p < len(addrs) {
			cfg.Peers = append(cfg.Peers, rollstep.Peer{Addr: addrs[p], Players: []core.PlayerHandle{core.PlayerHandle(p)}})
		}
	}
	return cfg
}

// SimConfig describes a headless match of bots over a simulated network
// (package transport/sim), one player per peer, in virtual time. Zero
// fields other than Units and Seed mean the default in their comment.
type SimConfig struct {
	// Players is the number of peers, MinPlayers to MaxPlayers; 0 means 4.
	Players int
	// Units is the number of units, 0 to MaxUnits.
	Units int
	// Turns is the number of turns to play; 0 means 600.
	Turns int
	// TurnPeriod is the turn length; 0 means DefaultTurn.
	TurnPeriod time.Duration
	// Latency and Jitter set every link's one-way delay.
	Latency, Jitter time.Duration
	// Loss is the probability that a datagram is lost, in [0, 1).
	Loss float64
	// Seed seeds the map, the bots and the network.
	Seed uint64
	// BotEvery is the bots' mean turns between commands; 0 means 4.
	BotEvery uint32
	// Record makes peer 0 record a replay of the match (see NewRecorder).
	Record bool
}

// PeerResult is what one peer of a simulated match measured.
type PeerResult struct {
	// Upload is the bytes per second the peer sent, IP and UDP headers
	// (transport.HeaderOverhead per datagram) included.
	Upload float64
	// Stall is the time its turns waited for inputs; StalledTurns how
	// many turns waited.
	Stall        time.Duration
	StalledTurns uint64
	// Delay is its input delay D at the end.
	Delay int
	// Checksum is state.Checksum of its state after the last turn.
	Checksum uint64
	// Desyncs counts the checksum mismatches its session detected.
	Desyncs uint64
}

// SimResult is the outcome of PlaySim.
type SimResult struct {
	// Peers holds each peer's measurements, by player handle.
	Peers []PeerResult
	// Elapsed is the virtual time from the start until every peer had
	// played the last turn.
	Elapsed time.Duration
	// Final is peer 0's state after the last turn.
	Final State
	// Replay is peer 0's replay file when SimConfig.Record was set.
	Replay []byte
}

// Agree reports whether every peer ended with the same checksum and none
// detected a desync.
func (r *SimResult) Agree() bool {
	for _, p := range r.Peers {
		if p.Checksum != r.Peers[0].Checksum || p.Desyncs != 0 {
			return false
		}
	}
	return true
}

// ErrTooSlow is returned by PlaySim when the match did not reach its last
// turn within twenty times its nominal length plus a minute of virtual
// time (a network too lossy to play on).
var ErrTooSlow = errors.New("rts: match did not finish")

// simPeer is one host of PlaySim: its endpoint, session and bot.
type simPeer struct {
	ep   *sim.Endpoint
	sess *rollstep.Session[State, Command]
	bot  *Bot
	fed  core.Frame // the turn the bot last commanded, plus one
	game *Host
}

// PlaySim plays a match as cfg describes and returns what every peer
// measured. It reads no clock and starts no goroutine: the same cfg gives
// the same result on every machine.
func PlaySim(cfg SimConfig) (*SimResult, error) {
	cfg.Players = cmp.Or(cfg.Players, 4)
	cfg.Turns = cmp.Or(cfg.Turns, 600)
	cfg.TurnPeriod = cmp.Or(cfg.TurnPeriod, DefaultTurn)
	cfg.BotEvery = cmp.Or(cfg.BotEvery, 4)
	initial, err := New(cfg.Players, cfg.Units, cfg.Seed)
	if err != nil {
		return nil, err
	}
	link := sim.LinkConfig{Latency: sim.Latency{Base: cfg.Latency, Jitter: cfg.Jitter}, Loss: cfg.Loss}
	netw, err := sim.New(sim.Config{Seed: cfg.Seed, Link: link})
	if err != nil {
		return nil, err
	}
	addrs := make([]transport.Addr, cfg.Players)
	peers := make([]*simPeer, cfg.Players)
	for i := range peers {
		peers[i] = &simPeer{ep: netw.NewEndpoint(), bot: NewBot(i, cfg.BotEvery, cfg.Seed)}
		addrs[i] = peers[i].ep.ID()
	}
	for i, p := range peers {
		lc := SessionConfig(cfg.Players, i, addrs, cfg.TurnPeriod)
		lc.Transport.Token = cfg.Seed | 1 // reproducible from the seed; over a real network it is a secret (cmd/rts -token)
		lc.Transport.Rand = rand.NewChaCha8([32]byte{byte(i), byte(cfg.Seed), byte(cfg.Seed >> 8)})
		p.game = &Host{Last: int32(cfg.Turns)}
		if i == 0 && cfg.Record {
			if p.game.Rec, err = NewRecorder(cfg.Players, cfg.TurnPeriod, cfg.Seed, &initial); err != nil {
				return nil, err
			}
		}
		if p.sess, err = rollstep.NewSession(lc, core.Game[State, Command](p.game), initial, p.ep); err != nil {
			return nil, fmt.Errorf("peer %d: %w", i, err)
		}
	}
	tick := cfg.TurnPeriod / 20
	limit := time.Duration(cfg.Turns)*cfg.TurnPeriod*20 + time.Minute
	var now time.Duration
	for done := false; !done; now += tick {
		if now > limit {
			return nil, fmt.Errorf("%w: %d turns in %v", ErrTooSlow, cfg.Turns, limit)
		}
		netw.RunUntil(now)
		done = true
		for i, p := range peers {
			if err := p.host(i, now); err != nil {
				return nil, fmt.Errorf("peer %d at %v: %w", i, now, err)
			}
			done = done && p.game.Done
		}
	}
	res := &SimResult{Elapsed: now, Final: peers[0].game.Final}
	if h := peers[0].game; h.Rec != nil {
		if h.Err != nil {
			return nil, h.Err
		}
		res.Replay = h.Rec.Bytes()
	}
	for _, p := range peers {
		st := p.sess.Stats()
		res.Peers = append(res.Peers, PeerResult{
			Upload: float64(netw.Outbound(p.ep.ID()).Sent.Bytes) / now.Seconds(),
			Stall:  st.Stall, StalledTurns: st.StalledFrames, Delay: st.Delay,
			Checksum: state.Checksum(&p.game.Final), Desyncs: st.Desyncs,
		})
		p.sess.Close()
	}
	return res, nil
}

// host runs peer i's game loop once at now: the bot's command for a new
// turn, then Update.
func (p *simPeer) host(i int, now time.Duration) error {
	if f := p.sess.Frame(); f >= p.fed {
		err := p.sess.AddLocalInput(core.PlayerHandle(i), p.bot.Next(p.sess.State()))
		if err != nil && !errors.Is(err, rollstep.ErrQueueFull) {
			return err
		}
		p.fed = f + 1
	}
	return p.sess.Update(now)
}
