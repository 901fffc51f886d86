// Package negotiate lets the peers of a match agree on its configuration
// before their sessions start: the authority (player 0) offers a
// MatchConfig (players, tick rate, seed, game build, opaque parameters),
// every follower adopts it and builds its initial state from it, and the
// sessions built next use the config's Digest as Config.Game, so the
// handshake refuses a peer that adopted another one. It is internal until
// the lobby server hands matches out.
package negotiate

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
)

// MaxParams is the most bytes of opaque game parameters a MatchConfig
// carries, so that an offer fits one datagram: wire.MaxMatchParams.
const MaxParams = wire.MaxMatchParams

// Defaults for the zero fields of a NegotiationConfig.
const (
	// DefaultOfferInterval is how often an unacknowledged offer is sent
	// again.
	DefaultOfferInterval = 100 * time.Millisecond
	// DefaultNegotiationTimeout bounds a negotiation.
	DefaultNegotiationTimeout = 10 * time.Second
)

// ErrNegotiationTimeout is returned by Negotiation.Update when the
// negotiation has not completed within NegotiationConfig.Timeout.
var ErrNegotiationTimeout = errors.New("rollstep: match negotiation timed out")

// ErrOfferRefused is matched by the error Negotiation.Update returns on
// the authority when a follower's adopt callback refused the offer.
var ErrOfferRefused = errors.New("rollstep: match offer refused")

// ErrBadMatchConfig is returned by NewOffer for a MatchConfig out of
// range.
var ErrBadMatchConfig = errors.New("rollstep: bad match config")

// MatchConfig is the part of a match the authority (player 0) may decide
// and offer instead of every peer pre-agreeing on it: the initial state of
// every peer is built from it.
type MatchConfig struct {
	Players  int      // players in the match, 1 to core.MaxPlayers
	TickRate int      // frames (or turns) per second, 1 to 65535
	Seed     uint64   // the match's random seed
	Game     [16]byte // the game build
	Params   []byte   // opaque game parameters (map, rules), at most MaxParams bytes
}

// Digest returns a hash of the canonical encoding of m. Use it as
// Config.Game of the session built after the negotiation: the session
// handshake then refuses any peer that adopted another config.
func (m MatchConfig) Digest() [16]byte {
	sum := sha256.Sum256(appendMatch(nil, &m))
	var d [16]byte
	copy(d[:], sum[:])
	return d
}

func (m MatchConfig) validate() error {
	switch {
	case m.Players < 1 || m.Players > core.MaxPlayers:
		return fmt.Errorf("%w: Players %d is outside 1..%d", ErrBadMatchConfig, m.Players, core.MaxPlayers)
	case m.TickRate < 1 || m.TickRate > 65535:
		return fmt.Errorf("%w: TickRate %d is outside 1..65535", ErrBadMatchConfig, m.TickRate)
	case len(m.Params) > MaxParams:
		return fmt.Errorf("%w: %d bytes of Params, more than %d", ErrBadMatchConfig, len(m.Params), MaxParams)
	}
	return nil
}

// NegotiationConfig configures a Negotiation. The zero value is useful.
type NegotiationConfig struct {
	// Token is the match's session token (the session's
	// Config.Transport.Token); packets with another token are ignored.
	Token uint64
	// Interval is how often the authority repeats its offer to followers
	// that have not acknowledged it; 0 means DefaultOfferInterval.
	Interval time.Duration
	// Timeout bounds the negotiation, from the first Update; 0 means
	// DefaultNegotiationTimeout.
	Timeout time.Duration
}

// Negotiation agrees on a MatchConfig before a session exists, over the
// Conn the session will then own. The authority (NewOffer) sends its offer
// to every follower, again every Interval until each acknowledges it; a
// follower (NewAccept) adopts the first valid offer through its callback,
// acknowledges it and is done. A follower's session Hello also counts as
// its acknowledgement, since it only starts after adopting, so the
// authority completes even when every acknowledgement is lost. Like a
// session it is driven by Update(now), reads no clock and starts no
// goroutine. Its packets are wire.Match packets (internal/wire, type 7),
// authenticated with the token, which never travels; a session's endpoint
// drops late ones.
type Negotiation struct {
	conn      transport.Conn
	cfg       NegotiationConfig
	key       wire.Key
	authority bool
	peers     []transport.Addr // the followers, or the authority
	acked     []bool
	match     MatchConfig
	digest    [16]byte   // match.Digest(), once the authority offers or the follower adopted
	offer     wire.Match // the offer (authority)
	adopt     func(MatchConfig) error
	buf       []byte     // received datagrams
	out       []byte     // encoded packets
	in        wire.Match // the decoded packet, reused
	seq       uint64     // the sequence number of the next packet sent

	started   bool
	start     time.Duration
	offered   bool // an offer was sent, at lastOffer
	lastOffer time.Duration
	done      bool
	err       error
}

// NewOffer returns the authority's side of a negotiation of m with the
// followers at the given addresses. It returns an error matching
// ErrBadMatchConfig when m is out of range.
func NewOffer(conn transport.Conn, cfg NegotiationConfig, followers []transport.Addr, m MatchConfig) (*Negotiation, error) {
	if err := m.validate(); err != nil {
		return nil, err
	}
	m.Params = append([]byte(nil), m.Params...)
	n := newNegotiation(conn, cfg, followers)
	n.authority, n.match, n.digest = true, m, m.Digest()
	n.offer = wire.Match{Kind: wire.MatchOffered, Offer: wire.MatchOffer{Players: uint8(m.Players),
		TickRate: uint16(m.TickRate), Seed: m.Seed, Game: m.Game, Params: m.Params}}
	n.done = len(followers) == 0
	return n, nil
}

// NewAccept returns a follower's side of a negotiation with the authority
// at address authority. adopt is called once, from Update, with the
// offered config (its Params are the follower's to keep); a non-nil error
// refuses the offer, and Update returns it.
func NewAccept(conn transport.Conn, cfg NegotiationConfig, authority transport.Addr, adopt func(MatchConfig) error) (*Negotiation, error) {
	if adopt == nil {
		return nil, fmt.Errorf("%w: adopt is nil", rollstep.ErrInvalidConfig)
	}
	n := newNegotiation(conn, cfg, []transport.Addr{authority})
	n.adopt = adopt
	return n, nil
}

func newNegotiation(conn transport.Conn, cfg NegotiationConfig, peers []transport.Addr) *Negotiation {
	if cfg.Interval <= 0 {
		cfg.Interval = DefaultOfferInterval
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultNegotiationTimeout
	}
	return &Negotiation{conn: conn, cfg: cfg, key: wire.NewKey(cfg.Token), peers: append([]transport.Addr(nil), peers...),
		acked: make([]bool, len(peers)), buf: make([]byte, transport.MaxDatagram), out: make([]byte, 0, transport.MaxDatagram)}
}

// Config returns the agreed MatchConfig; it is valid once Update reported
// done.
func (n *Negotiation) Config() MatchConfig { return n.match }

// Update receives and answers negotiation packets and repeats the offer,
// at now. It returns done once the authority's every follower
// acknowledged, or once the follower adopted the offer; then build the
// initial state from Config and the session over the same Conn (with
// Config.Game set to Config().Digest()). It returns ErrNegotiationTimeout,
// an error matching ErrOfferRefused, the adopt callback's error or the
// Conn's error; errors are final. A follower may go on calling Update
// after done, until its session takes the Conn, to acknowledge the
// authority's repeated offers again.
func (n *Negotiation) Update(now time.Duration) (done bool, err error) {
	if n.err != nil || (n.done && n.authority) {
		return n.done, n.err
	}
	if !n.started {
		n.started, n.start = true, now
	}
	for n.err == nil && (!n.done || !n.authority) {
		size, from, ok, rerr := n.conn.Receive(n.buf)
		if rerr != nil {
			n.err = rerr
			break
		}
		if !ok {
			break
		}
		n.handle(from, n.buf[:size])
	}
	if n.err == nil && !n.done && n.authority && (!n.offered || now-n.lastOffer >= n.cfg.Interval) {
		n.offered, n.lastOffer = true, now
		for i, a := range n.peers {
			if !n.acked[i] {
				if serr := n.send(a, &n.offer); serr != nil && n.err == nil {
					n.err = serr
				}
			}
		}
	}
	if n.err == nil && !n.done && now-n.start >= n.cfg.Timeout {
		n.err = ErrNegotiationTimeout
	}
	return n.done, n.err
}

// handle processes one datagram from address from.
func (n *Negotiation) handle(from transport.Addr, p []byte) {
	i := -1
	for j, a := range n.peers {
		if a == from {
			i = j
		}
	}
	if i < 0 {
		return
	}
	h, err := wire.ParseHeader(p, n.key, nil)
	if err != nil {
		return
	}
	if h.Type == wire.TypeHello {
		// A follower's session Hello means it adopted the offer.
		if n.authority {
			n.ack(i)
		}
		return
	}
	if h.Type != wire.TypeMatch {
		return
	}
	if _, err := wire.DecodeMatch(p, n.key, nil, &n.in); err != nil {
		return
	}
	switch k := n.in.Kind; {
	case n.authority && k == wire.MatchAccepted && n.in.Digest == n.digest:
		n.ack(i)
	case n.authority && k == wire.MatchRefused && n.in.Digest == n.digest:
		n.err = fmt.Errorf("%w by %v", ErrOfferRefused, from)
	case !n.authority && k == wire.MatchOffered:
		o := &n.in.Offer
		m := MatchConfig{Players: int(o.Players), TickRate: int(o.TickRate), Seed: o.Seed, Game: o.Game, Params: o.Params}
		if m.validate() != nil {
			return
		}
		digest := m.Digest()
		reply := wire.MatchAccepted
		if n.done { // a repeated offer: our acknowledgement was lost
			if digest != n.digest {
				return
			}
		} else {
			m.Params = nil
			if len(o.Params) > 0 { // the follower's to keep: n.in is reused
				m.Params = append([]byte(nil), o.Params...)
			}
			if aerr := n.adopt(m); aerr != nil {
				n.err, reply = aerr, wire.MatchRefused
			} else {
				n.match, n.digest, n.done = m, digest, true
			}
		}
		// Redundancy (the session's Hellos back it up), within the offer's
		// length: a replayed offer must not make this an amplifier.
		r := wire.Match{Kind: reply, Digest: digest}
		for range min(3, len(p)/wire.MatchReplySize) {
			if serr := n.send(from, &r); serr != nil {
				break
			}
		}
	}
}

// send encodes m with the next sequence number and sends it to addr.
func (n *Negotiation) send(addr transport.Addr, m *wire.Match) error {
	out, err := wire.AppendMatch(n.out[:0], n.key, n.seq, m)
	if err != nil {
		return err // unreachable: Kind is known and Params are validated
	}
	n.out, n.seq = out, n.seq+1
	return n.conn.Send(addr, out)
}

func (n *Negotiation) ack(i int) {
	n.acked[i] = true
	for _, a := range n.acked {
		if !a {
			return
		}
	}
	n.done = true
}

// appendMatch appends the canonical encoding of m that Digest hashes:
// players (1), tick rate (2), seed (8), game (16), params length (2),
// params.
func appendMatch(dst []byte, m *MatchConfig) []byte {
	dst = append(dst, byte(m.Players))
	dst = binary.LittleEndian.AppendUint16(dst, uint16(m.TickRate))
	dst = binary.LittleEndian.AppendUint64(dst, m.Seed)
	dst = append(dst, m.Game[:]...)
	dst = binary.LittleEndian.AppendUint16(dst, uint16(len(m.Params)))
	return append(dst, m.Params...)
}
