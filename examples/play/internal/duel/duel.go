package duel

import (
	"errors"
	"fmt"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/examples/play/internal/netstats"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

// Session is a fighter session.
type Session = rollstep.Session[fighter.State, fighter.Input]

// TickRate is the match's frame rate.
const TickRate = 60

// Seat is one player's session on this machine, driven by a person's keys
// or by a bot.
type Seat struct {
	// Player is the seat's player, 0 or 1.
	Player core.PlayerHandle
	// Session is the seat's session.
	Session *Session
	// Bot plays the seat when it is not a person's (Human false).
	Bot   *fighter.Bot
	Human bool
	// Err is the error that ended the seat's session, if any: the seat
	// is not updated after it.
	Err error
}

// Duel is a fighter match as this machine sees it: one or two seats, the
// simulated network between them if both are here, the history of the
// shown seat's network for the overlay and the effects on screen.
type Duel struct {
	// Seats are the players on this machine; Seats[Shown] is the one
	// whose view the screen shows (its state, effects and network).
	Seats []*Seat
	Shown int
	// History is the shown seat's network history.
	History *netstats.History
	// Effects are the shown seat's effects being played.
	Effects Effects

	net *sim.Network
}

// LocalConfig describes a match between two seats on this machine over a
// simulated link.
type LocalConfig struct {
	// Humans says which players a person plays; the others are bots.
	Humans [2]bool
	// Latency and Jitter are each direction's one-way latency profile, and
	// Loss the probability that a datagram is lost.
	Latency, Jitter time.Duration
	Loss            float64
	// Seed seeds the initial state, the bots and the link.
	Seed uint64
}

// Local returns a match of two sessions over a simulated network, player
// 0's shown. Each session knows only its own player's inputs: the other's
// cross the link, late by its latency, so the shown session predicts and
// rolls back as it would over the internet.
func Local(cfg LocalConfig, voices Voices) (*Duel, error) {
	if cfg.Jitter > cfg.Latency {
		return nil, fmt.Errorf("duel: jitter %v exceeds latency %v", cfg.Jitter, cfg.Latency)
	}
	link := sim.LinkConfig{Latency: sim.Latency{Base: cfg.Latency, Jitter: cfg.Jitter}, Loss: cfg.Loss}
	nw, err := sim.New(sim.Config{Seed: cfg.Seed, Link: link})
	if err != nil {
		return nil, err
	}
	eps := [2]*sim.Endpoint{nw.NewEndpoint(), nw.NewEndpoint()}
	d := &Duel{net: nw, History: netstats.New(1), Effects: Effects{voices: voices}}
	token := cfg.Seed*0x9e3779b97f4a7c15 | 1 // a local match's token keys nothing secret
	for p := range 2 {
		s, err := NewSession(p, eps[1-p].ID(), token, cfg.Seed, eps[p])
		if err != nil {
			d.Close()
			return nil, err
		}
		d.Seats = append(d.Seats, &Seat{Player: core.PlayerHandle(p), Session: s, Bot: fighter.NewBot(p, cfg.Seed), Human: cfg.Humans[p]})
	}
	return d, nil
}

// Remote returns a match of one seat, player's, over conn to the other
// player at addr on it, with the match's token and seed.
func Remote(player int, human bool, conn transport.Conn, addr transport.Addr, token, seed uint64, voices Voices) (*Duel, error) {
	if player != 0 && player != 1 {
		return nil, fmt.Errorf("duel: player %d: a fighter match has players 0 and 1", player)
	}
	s, err := NewSession(player, addr, token, seed, conn)
	if err != nil {
		return nil, err
	}
	seat := &Seat{Player: core.PlayerHandle(player), Session: s, Bot: fighter.NewBot(player, seed), Human: human}
	return &Duel{Seats: []*Seat{seat}, History: netstats.New(1), Effects: Effects{voices: voices}}, nil
}

// NewSession returns player's Rollback session of a fighter match over
// conn, whose other player is at addr: the configuration every peer of a
// fighter match uses.
func NewSession(player int, addr transport.Addr, token, seed uint64, conn transport.Conn) (*Session, error) {
	other := core.PlayerHandle(1 - player)
	cfg := rollstep.Config{
		Mode: rollstep.Rollback, Players: 2, TickRate: TickRate, Inputs: rollstep.Held,
		Local: []core.PlayerHandle{core.PlayerHandle(player)},
		Peers: []rollstep.Peer{{Addr: addr, Players: []core.PlayerHandle{other}}},
		Game:  fighter.GameID,
	}
	cfg.Transport.Token = token
	return rollstep.NewSession[fighter.State, fighter.Input](cfg, fighter.Game{}, fighter.New(seed), conn)
}

// View returns the shown seat's session.
func (d *Duel) View() *Session { return d.Seats[d.Shown].Session }

// Update runs one iteration of the game loop at now, the time since the
// match began: it delivers the simulated link's due datagrams, gives
// every seat its input for this iteration (held[player] for a person's
// seat, the bot's choice otherwise; read once per rendered frame, never
// per simulated frame), updates the sessions, samples the shown seat's
// network and plays and cancels its effects. It returns the shown seat's
// error, after which the match is over on screen; another seat's error
// is kept in its Err.
func (d *Duel) Update(now time.Duration, held [2]fighter.Input) error {
	if d.net != nil {
		d.net.RunUntil(now)
	}
	for i, seat := range d.Seats {
		if seat.Err != nil {
			continue
		}
		s := seat.Session
		in := held[seat.Player]
		if !seat.Human {
			in = seat.Bot.Next(s.State())
		}
		if err := s.AddLocalInput(seat.Player, in); err != nil && !errors.Is(err, rollstep.ErrClosed) {
			seat.Err = err
		}
		if err := s.Update(now); err != nil && seat.Err == nil {
			seat.Err = err
		}
		events := s.Events()
		if i != d.Shown {
			continue
		}
		d.History.Sample(now, s.Stats(), events)
		play, cancel := s.Effects()
		d.Effects.apply(play, cancel)
	}
	return d.Seats[d.Shown].Err
}

// Close closes every seat's session, telling the peers this machine
// left.
func (d *Duel) Close() {
	for _, seat := range d.Seats {
		_ = seat.Session.Close()
	}
	d.Effects.stopAll()
}
