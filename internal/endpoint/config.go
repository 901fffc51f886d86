package endpoint

import (
	"io"
	"slices"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
)

// Defaults for the zero fields of a Config.
const (
	// DefaultKeepAliveInterval is how long a connected peer may go without a
	// packet from us before a KeepAlive is sent.
	DefaultKeepAliveInterval = 200 * time.Millisecond
	// DefaultInterruptTimeout is the silence after which a peer is reported
	// interrupted.
	DefaultInterruptTimeout = 500 * time.Millisecond
	// DefaultDisconnectTimeout is the silence after which a peer is reported
	// disconnected.
	DefaultDisconnectTimeout = 2500 * time.Millisecond
	// DefaultHelloInterval is how often an unanswered Hello is sent again.
	DefaultHelloInterval = 100 * time.Millisecond
	// DefaultHandshakeTimeout is how long a handshake may take before the
	// peer is reported disconnected.
	DefaultHandshakeTimeout = 10 * time.Second
	// DefaultMaxPoll is the most datagrams one Poll call reads.
	DefaultMaxPoll = 256
	// DefaultLeaveCopies is how many copies of a Leave are sent to each peer.
	DefaultLeaveCopies = 3
)

// Config configures an Endpoint. The zero value is useful: every zero field
// means its default, the zero Token and the zero Digest are valid values
// (they match only peers that use them too), and a nil Rand means
// crypto/rand. Every peer of a match must use the same Token and an equal
// Digest, or the handshake fails.
type Config struct {
	// Token is the per-match session token: the match's secret. It never
	// goes on the wire: New derives a wire.Key from it once, and every
	// packet carries a tag under that key. Packets with another token (or
	// forged) fail the tag and are dropped. Draw it from crypto/rand for
	// each match and hand it to the peers over a channel you trust (a
	// matchmaker, a DTLS key exchange); never derive it from anything
	// public, such as a seed or a room name. Anyone who learns it can
	// forge packets the peers accept: inputs under another player's name
	// (reported as equivocation, and a desync), timing that moves the
	// input delay, a Hello that cuts a link. Use DTLS (transport/dtls)
	// when the path itself is not trusted.
	Token uint64
	// Digest describes the match (players, input size, tick rate, checksum
	// interval, game build); build it with wire.DigestOf. The handshake
	// refuses a peer whose digest differs, naming the field. Digest.InputSize
	// must be 0 or the size of the endpoint's input type.
	Digest wire.ConfigDigest

	// Seat is this endpoint's seat in the match (wire.SeatOf of the
	// players its engine owns), sent in every Hello so that a peer that
	// does not know this endpoint's address can tell which of its peers
	// it is. wire.NoSeat (the zero value) sends none, as a spectator
	// does.
	Seat wire.Seat
	// Seats, when not empty, has one entry per peer of New's table:
	// Seats[i] is the seat of core.PeerID i (wire.SeatOf of the players
	// it owns), or wire.NoSeat for a peer without one (a spectator) or
	// not known. A Hello names its sender's seat, and first contact uses
	// it to tell several peers of unknown address apart; a peer's Hello
	// naming another seat than its entry is dropped (see "First contact"
	// in the package documentation). Nil gives every peer NoSeat. Seats
	// other than NoSeat must differ from each other and from Seat. New
	// copies the slice.
	Seats []wire.Seat

	// Rand supplies the 8-byte handshake nonces: one per peer, read in
	// New, and one for each restart handshake a peer's new process opens.
	// Nil means crypto/rand.Reader. Tests pass a seeded reader, such as a
	// math/rand/v2 ChaCha8, so that every byte sent is reproducible.
	Rand io.Reader

	// Rejoin marks this endpoint's process as new to a running match: its
	// Hellos carry wire.Hello.Rejoin, and its peers answer with a restart
	// handshake (see "Restarts" in the package documentation).
	Rejoin bool

	// Open has bit i for peer i of New's table that may come, go and come
	// back at any time in the match (a session's spectators, and its
	// open seats): its handshake never fails the match (after
	// HandshakeTimeout it raises its EventDisconnected and this endpoint
	// stops sending it Hellos, but still answers), and a new process at
	// its address comes in through a restart handshake (EventRestarted):
	// at once with Hello.Rejoin, and without once its first handshake
	// timed out or its session ended (see "Open peers" in the package
	// documentation and restart.go).
	Open uint64

	// KeepAliveInterval: a connected peer that was sent nothing for this
	// long gets a KeepAlive. 0 means DefaultKeepAliveInterval. It must be
	// below InterruptTimeout.
	KeepAliveInterval time.Duration
	// InterruptTimeout: a connected peer silent for this long raises
	// EventInterrupted. 0 means DefaultInterruptTimeout.
	InterruptTimeout time.Duration
	// DisconnectTimeout: a connected peer silent for this long raises
	// EventDisconnected. 0 means DefaultDisconnectTimeout. It must be above
	// InterruptTimeout.
	DisconnectTimeout time.Duration
	// HelloInterval is how often an unanswered Hello is repeated; a peer's
	// Hellos are answered at most once per half of it. 0 means
	// DefaultHelloInterval.
	HelloInterval time.Duration
	// HandshakeTimeout: a peer whose handshake has not completed this long
	// after the first Tick raises EventDisconnected with
	// ErrHandshakeTimeout. 0 means DefaultHandshakeTimeout.
	HandshakeTimeout time.Duration

	// MaxPoll bounds the datagrams one Poll reads, so that a flood costs
	// bounded work per call; the rest wait in the Conn. 0 means
	// DefaultMaxPoll.
	MaxPoll int
	// LeaveCopies is how many copies of a Leave go to each peer, for
	// redundancy on a lossy link. 0 means DefaultLeaveCopies; at most 16.
	LeaveCopies int
}

// DefaultConfig returns the zero Config with every default filled in.
func DefaultConfig() Config {
	var c Config
	c.fill()
	return c
}

// fill replaces zero fields by their defaults.
func (c *Config) fill() {
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	def(&c.KeepAliveInterval, DefaultKeepAliveInterval)
	def(&c.InterruptTimeout, DefaultInterruptTimeout)
	def(&c.DisconnectTimeout, DefaultDisconnectTimeout)
	def(&c.HelloInterval, DefaultHelloInterval)
	def(&c.HandshakeTimeout, DefaultHandshakeTimeout)
	if c.MaxPoll == 0 {
		c.MaxPoll = DefaultMaxPoll
	}
	if c.LeaveCopies == 0 {
		c.LeaveCopies = DefaultLeaveCopies
	}
}

// Validate reports the first problem with c, with zero fields taken as
// their defaults, as a *ConfigError matching ErrInvalidConfig. It does not
// modify c.
func (c Config) Validate() error {
	c.fill()
	for _, d := range []struct {
		name string
		v    time.Duration
	}{
		{"KeepAliveInterval", c.KeepAliveInterval},
		{"InterruptTimeout", c.InterruptTimeout},
		{"DisconnectTimeout", c.DisconnectTimeout},
		{"HelloInterval", c.HelloInterval},
		{"HandshakeTimeout", c.HandshakeTimeout},
	} {
		if d.v < 0 {
			return &ConfigError{Field: d.name, Value: d.v.String(), Reason: "is negative"}
		}
	}
	switch {
	case c.KeepAliveInterval >= c.InterruptTimeout:
		return &ConfigError{Field: "KeepAliveInterval", Value: c.KeepAliveInterval.String(),
			Reason: "must be below InterruptTimeout " + c.InterruptTimeout.String()}
	case c.InterruptTimeout >= c.DisconnectTimeout:
		return &ConfigError{Field: "InterruptTimeout", Value: c.InterruptTimeout.String(),
			Reason: "must be below DisconnectTimeout " + c.DisconnectTimeout.String()}
	case c.MaxPoll < 0:
		return &ConfigError{Field: "MaxPoll", Value: itoa(c.MaxPoll), Reason: "is negative"}
	case c.LeaveCopies < 0 || c.LeaveCopies > maxLeaveCopies:
		return &ConfigError{Field: "LeaveCopies", Value: itoa(c.LeaveCopies), Reason: "is outside 0..16"}
	case c.Seat > core.MaxPlayers:
		return &ConfigError{Field: "Seat", Value: c.Seat.String(), Reason: "is not a seat"}
	}
	return c.validateSeats()
}

// validateSeats checks Seats: each a seat or NoSeat, and no seat twice,
// counting Seat.
func (c *Config) validateSeats() error {
	for i, s := range c.Seats {
		field := "Seats[" + itoa(i) + "]"
		switch {
		case s > core.MaxPlayers:
			return &ConfigError{Field: field, Value: s.String(), Reason: "is not a seat"}
		case s == wire.NoSeat:
		case s == c.Seat:
			return &ConfigError{Field: field, Value: s.String(), Reason: "is this endpoint's Seat"}
		case slices.Contains(c.Seats[:i], s):
			return &ConfigError{Field: field, Value: s.String(), Reason: "is listed twice"}
		}
	}
	return nil
}

const maxLeaveCopies = 16

// ConfigOf returns the endpoint configuration of t, the caller's part of
// it; the session adds Digest, Seat and Seats.
func ConfigOf(t transport.Config) Config {
	return Config{Token: t.Token, Rand: t.Rand, KeepAliveInterval: t.KeepAliveInterval,
		InterruptTimeout: t.InterruptTimeout, DisconnectTimeout: t.DisconnectTimeout, HelloInterval: t.HelloInterval,
		HandshakeTimeout: t.HandshakeTimeout, MaxPoll: t.MaxPoll, LeaveCopies: t.LeaveCopies}
}
