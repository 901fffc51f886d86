package skirmish

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/rts"
	"github.com/rollstep/rollstep/replay"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

// Human is the player the person at the keyboard plays.
const Human = 0

// MatchConfig describes a local Match: the human against bots, every
// player a peer of its own over a simulated network in this process.
type MatchConfig struct {
	Players, Units int           // as rts.New takes them
	Seed           uint64        // seeds the map, the bots and the network
	Turn           time.Duration // turn length, one tick (0: rts.DefaultTurn)
	Latency        time.Duration // one-way latency of every simulated link
	BotEvery       uint32        // the bots' mean turns between commands
	Record         bool          // record the human's peer in a replay (Replay)
}

// Match is a lockstep match of one session per player over transport/sim,
// the way separate machines would play it: player Human's session takes
// the human's commands (from Out), the others' their bots'. One goroutine
// runs it; Update drives the network and every session at a time the caller
// chooses.
type Match struct {
	netw   *sim.Network
	peers  []*matchPeer
	Out    Outbox             // the human's orders on their way
	deaths []core.FrameEffect // the EffectDied effects of the latest Update
}

// Deaths returns the EffectDied effects the human's session played in the
// latest Update; valid until the next.
func (m *Match) Deaths() []core.FrameEffect { return m.deaths }

// matchPeer is one player's host: its endpoint, session and, but for the
// Human's, its bot.
type matchPeer struct {
	ep   *sim.Endpoint
	sess *rollstep.Session[rts.State, rts.Command]
	game *rts.Host
	bot  *rts.Bot // nil for the Human
	fed  core.Frame
}

// NewMatch builds the Match: the same initial state (rts.New) and the
// lockstep configuration of rts.SessionConfig for every peer.
func NewMatch(cfg MatchConfig) (*Match, error) {
	initial, err := rts.New(cfg.Players, cfg.Units, cfg.Seed)
	if err != nil {
		return nil, err
	}
	netw, err := sim.New(sim.Config{Seed: cfg.Seed, Link: sim.LinkConfig{Latency: sim.Latency{Base: cfg.Latency}}})
	if err != nil {
		return nil, err
	}
	m := &Match{netw: netw}
	addrs := make([]transport.Addr, cfg.Players)
	for p := range cfg.Players {
		mp := &matchPeer{ep: netw.NewEndpoint(), game: &rts.Host{Last: -1}}
		if p != Human {
			mp.bot = rts.NewBot(p, cfg.BotEvery, cfg.Seed)
		}
		addrs[p] = mp.ep.ID()
		m.peers = append(m.peers, mp)
	}
	for p, mp := range m.peers {
		sc := rts.SessionConfig(cfg.Players, p, addrs, cfg.Turn)
		sc.Transport.Token = cfg.Seed | 1 // every peer is in this process; over a real network the token is a secret
		sc.Transport.Rand = rand.NewChaCha8([32]byte{byte(p), byte(cfg.Seed), byte(cfg.Seed >> 8)})
		if p == Human && cfg.Record {
			if mp.game.Rec, err = rts.NewRecorder(cfg.Players, cfg.Turn, cfg.Seed, &initial); err != nil {
				return nil, err
			}
		}
		if mp.sess, err = rollstep.NewSession(sc, core.Game[rts.State, rts.Command](mp.game), initial, mp.ep); err != nil {
			return nil, fmt.Errorf("player %d: %w", p, err)
		}
	}
	return m, nil
}

// Session returns the human's session: what the viewer renders.
func (m *Match) Session() *rollstep.Session[rts.State, rts.Command] { return m.peers[Human].sess }

// Update delivers the datagrams due by now, then runs every peer's host
// loop once: a command for each new turn (the human's next waiting order,
// or a bot's), then Update(now). It keeps the human's EffectDied effects.
func (m *Match) Update(now time.Duration) error {
	m.netw.RunUntil(now)
	m.deaths = m.deaths[:0]
	for p, mp := range m.peers {
		if f := mp.sess.Frame(); f >= mp.fed {
			var c rts.Command
			if mp.bot != nil {
				c = mp.bot.Next(mp.sess.State())
			} else if next, ok := m.Out.next(f, mp.sess.Stats().Delay); ok {
				c = next
			}
			if err := mp.sess.AddLocalInput(core.PlayerHandle(p), c); err != nil && !errors.Is(err, rollstep.ErrQueueFull) {
				return fmt.Errorf("player %d: %w", p, err)
			}
			mp.fed = f + 1
		}
		if err := mp.sess.Update(now); err != nil {
			return fmt.Errorf("player %d: %w", p, err)
		}
	}
	m.Out.forgetApplied(m.Session().State().Tick)
	play, _ := m.Session().Effects()
	for _, fx := range play {
		if fx.Effect.Kind == rts.EffectDied {
			m.deaths = append(m.deaths, fx)
		}
	}
	return m.peers[Human].game.Err
}

// Replay returns the human's recorded replay, or nil when not recording.
func (m *Match) Replay() []byte {
	if rec := m.peers[Human].game.Rec; rec != nil {
		return rec.Bytes()
	}
	return nil
}

// WriteReplay writes the recorded replay to name, if recording.
func (m *Match) WriteReplay(name string) error {
	data := m.Replay()
	if data == nil {
		return nil
	}
	return replay.WriteFile(name, data)
}

// Close closes every session.
func (m *Match) Close() {
	for _, mp := range m.peers {
		_ = mp.sess.Close()
	}
}
