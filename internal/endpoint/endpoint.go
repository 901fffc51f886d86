package endpoint

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/connhook"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/rtt"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
)

// Receiver takes the input messages an Endpoint decodes. *core.Engine
// implements it, so a front end passes its engine to Poll. Receive must not
// retain m: the endpoint reuses it for the next packet.
type Receiver[I comparable] interface {
	Receive(now time.Duration, from core.PeerID, m *engine.Message[I]) error
}

// TransferReceiver is implemented by a Receiver that takes the payloads
// of Transfer packets (state transfers to a returning peer, see
// internal/transfer). ReceiveTransfer must not retain payload: it aliases
// the endpoint's receive buffer.
type TransferReceiver interface {
	ReceiveTransfer(now time.Duration, from core.PeerID, payload []byte)
}

// Endpoint owns one transport.Conn and every remote peer of one local
// engine: the handshake, packet sequence numbers and replay windows,
// keep-alives, round-trip times, silence timers and counters. It is
// sans-IO at heart: it reads no clock, starts no goroutine and draws no
// random number after New; time is the now argument of every call. It is
// not safe for concurrent use. See the package documentation for the host
// loop.
type Endpoint[I comparable] struct {
	cfg   Config
	key   wire.Key // derived from cfg.Token once, in New
	conn  transport.Conn
	codec *wire.Codec[I]
	peers []peer
	// forgetter and rebinder manage conn's peer table, if it has one
	// (see Forgetter, Rebinder); nil otherwise.
	forgetter Forgetter
	rebinder  Rebinder
	// batch holds conn's sends between Hold and Flush, if conn can batch;
	// onRefused is ep.refused, made once so that Hold allocates nothing;
	// batchErr is the first refusal Flush returns.
	batch     connhook.Batch
	onRefused func(to transport.Addr, n int, err error)
	batchErr  error
	rand      io.Reader // cfg.Rand, or crypto/rand: nonces of restart handshakes

	msg  engine.Message[I] // decode target, reused for every input packet
	lean engine.Message[I] // leanAck's shallow copy; zeroed after each use
	// everyAck makes leanAck send every ChecksumAck: only tests set it,
	// to compare the ack policy with a baseline.
	everyAck bool
	rbuf     []byte // receive buffer, MaxDatagram bytes
	sbuf     []byte // send buffer, capacity MaxDatagram
	events   []Event

	started bool          // Tick has run once
	start   time.Duration // the now of the first Tick
	closed  bool

	unknown      uint64 // datagrams from transport peers not in the table
	unknownBytes uint64
	ambiguous    uint64 // first-contact Hellos while several peers waited
	wrongSeat    uint64 // first-contact Hellos naming a seat no waiting peer has
	polls        uint64
	pollLimited  uint64
	statsBuf     []PeerStats
}

// peer is one remote peer. Invariants: state is never StateUnknown;
// helloAcked and helloSeen only become true, and both are true exactly
// when state has left StateHandshaking for a live state (or a final state
// was reached later); seq is the sequence number of the next packet sent.
type peer struct {
	addr   transport.Addr
	seat   wire.Seat // Config.Seats' entry, or NoSeat: not known
	open   bool      // in Config.Open
	state  PeerState
	nonce  uint64 // our Hello's nonce to this peer
	seq    uint64
	window wire.ReplayWindow

	helloAcked bool   // the peer accepted our Hello (echoing nonce)
	helloSeen  bool   // we accepted the peer's Hello
	theirNonce uint64 // the nonce of the first Hello we accepted, if helloSeen
	// txKey and rxKey tag what we send the peer and what it sends us,
	// but for Hellos and HelloReplies: wire.DirectionKeys of the two
	// seats and nonces, set with helloSeen (see keyed).
	txKey, rxKey wire.Key
	helloSent    bool
	lastHello    time.Duration // when our last Hello was sent
	replied      bool
	lastReply    time.Duration // when we last answered a Hello

	heard     bool
	lastHeard time.Duration // when the last valid packet arrived
	// jumpTo is the sequence number of a packet that jumped too far past
	// the window, pending confirmation by another (see jumps).
	jumpTo      uint64
	jumpPending bool
	lastSent    time.Duration // when the last packet under the session's keys was sent to the peer

	// echo is the newest Stamp received from the peer, at echoAt.
	echo, echoAt time.Duration
	hasEcho      bool

	srtt, rttvar time.Duration
	samples      int
	// unsampled counts the input and keep-alive packets received since
	// the last round-trip sample (see observeRTT).
	unsampled int

	// ackLast is the ChecksumAck of the last input message sent to the
	// peer, and ackAge the number of input packets sent since it changed
	// (saturating at ackRepeat); see leanAck.
	ackLast core.Frame
	ackAge  int

	// lost is set when a connected peer is disconnected (silence, or
	// Disconnect) rather than refused, left or never handshaken: its
	// probes say so (see droppedBy); split once it was heard again after
	// that (see probeLost).
	lost, split bool
	// rejoin: this endpoint restarted its own session with the peer (see
	// Restart), from hsStart: its Hellos say Rejoin, as Config.Rejoin
	// makes every peer's.
	rejoin  bool
	hsStart time.Duration
	// restart is the restart handshake a new process of the peer opened,
	// until a packet under its keys proves it (restart.go); nil if none.
	restart *restart
	st      PeerStats // counters; the other fields are filled by Stats
	sendErr error     // the newest error of a send to the peer
}

// New returns an Endpoint that talks over conn to the peers of one engine:
// peers[i] is the transport address of core.PeerID i (the engine's
// Config.Peers order). It reads one nonce per peer from cfg.Rand. It
// returns a *ConfigError for an invalid cfg, an empty or duplicated peer
// table or a Digest whose InputSize does not match I, the error of
// wire.NewCodec when I cannot be encoded, and the Rand's error.
func New[I comparable](cfg Config, conn transport.Conn, peers []transport.Addr) (*Endpoint[I], error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.fill()
	if conn == nil {
		return nil, &ConfigError{Field: "conn", Value: "nil", Reason: "is required"}
	}
	if len(peers) == 0 || len(peers) > core.MaxPlayers*4 {
		return nil, &ConfigError{Field: "peers", Value: itoa(len(peers)) + " peers", Reason: "must number 1 to 64"}
	}
	if len(cfg.Seats) != 0 && len(cfg.Seats) != len(peers) {
		return nil, &ConfigError{Field: "Seats", Value: itoa(len(cfg.Seats)) + " seats",
			Reason: "must be empty or one per peer (" + itoa(len(peers)) + ")"}
	}
	if len(peers) < 64 && cfg.Open>>uint(len(peers)) != 0 {
		return nil, &ConfigError{Field: "Open", Value: fmt.Sprintf("%#x", cfg.Open), Reason: "names a peer past the " + itoa(len(peers)) + " of the table"}
	}
	cfg.Seats = slices.Clone(cfg.Seats)
	codec, err := wire.NewCodec[I]()
	if err != nil {
		return nil, err
	}
	if s := int(cfg.Digest.InputSize); s != 0 && s != codec.InputSize() {
		return nil, &ConfigError{Field: "Digest.InputSize", Value: itoa(s),
			Reason: fmt.Sprintf("differs from the %d-byte input type", codec.InputSize())}
	}
	r := cfg.Rand
	if r == nil {
		r = rand.Reader
	}
	ep := &Endpoint[I]{
		cfg: cfg, key: wire.NewKey(cfg.Token), conn: conn, codec: codec,
		peers:    make([]peer, len(peers)),
		rbuf:     make([]byte, transport.MaxDatagram),
		sbuf:     make([]byte, 0, transport.MaxDatagram),
		events:   make([]Event, 0, 4*len(peers)),
		statsBuf: make([]PeerStats, len(peers)),
	}
	ep.forgetter, ep.rebinder = peerTable(conn)
	if ep.batch = batchOf(conn); ep.batch != nil {
		ep.onRefused = ep.refused
	}
	ep.rand = r
	var nb [8]byte
	for i, a := range peers {
		for j := range i {
			if peers[j] == a {
				return nil, &ConfigError{Field: "peers", Value: a.String(), Reason: "is listed twice"}
			}
		}
		if _, err := io.ReadFull(r, nb[:]); err != nil {
			return nil, fmt.Errorf("endpoint: reading a nonce: %w", err)
		}
		ep.peers[i] = peer{addr: a, state: StateHandshaking, nonce: binary.LittleEndian.Uint64(nb[:]), open: cfg.Open&(1<<uint(i)) != 0}
		if len(cfg.Seats) != 0 {
			ep.peers[i].seat = cfg.Seats[i]
		}
	}
	return ep, nil
}

// Config returns the configuration in use, with defaults filled in. Its
// Seats is a copy.
func (ep *Endpoint[I]) Config() Config {
	c := ep.cfg
	c.Seats = slices.Clone(c.Seats)
	return c
}

// Peers returns the number of remote peers.
func (ep *Endpoint[I]) Peers() int { return len(ep.peers) }

// State returns the state of peer p, or StateUnknown if p is not in the
// table.
func (ep *Endpoint[I]) State(p core.PeerID) PeerState {
	if p < 0 || int(p) >= len(ep.peers) {
		return StateUnknown
	}
	return ep.peers[p].state
}

// Handshaken reports whether no peer is still handshaking: each one is
// connected, or in a final state the front end has been told about.
func (ep *Endpoint[I]) Handshaken() bool {
	for i := range ep.peers {
		if ep.peers[i].state == StateHandshaking {
			return false
		}
	}
	return true
}

// Disconnect makes peer p disconnected at the caller's request, without an
// event: for a peer the engine dropped by agreement with the other peers
// (core.DisconnectEvent) while the endpoint still hears it. The endpoint no
// longer sends p anything but probes, and only notices whether it hears p
// again (EventSplit). It returns ErrUnknownPeer for
// a peer outside the table.
func (ep *Endpoint[I]) Disconnect(p core.PeerID) error {
	if p < 0 || int(p) >= len(ep.peers) {
		return ErrUnknownPeer
	}
	if q := &ep.peers[p]; !final(q.state) {
		q.lost = live(q.state)
		q.state = StateDisconnected
	}
	return nil
}

// Resume takes peer p back on the session it had when it was lost: it is
// connected again and its packets count, keys and sequence numbers as
// they were. It does so only for a peer lost while still alive, which
// was heard again on that session since (EventSplit), and with no restart
// of the peer under way, and reports whether it did. A pending restart
// whose new process has sent no Hello for HandshakeTimeout is not under
// way: it is dropped (a process that gave its handshake up, or a replayed
// Hello, would otherwise hold the peer lost for good). A session calls it
// when the match brought the peer back (its return settled) and the peer
// never restarted its session with this endpoint: it yielded a split, say,
// to a side this endpoint had joined in dropping it.
func (ep *Endpoint[I]) Resume(now time.Duration, p core.PeerID) bool {
	if p < 0 || int(p) >= len(ep.peers) {
		return false
	}
	q := &ep.peers[p]
	if r := q.restart; r != nil && now-max(r.at, r.lastReply) >= ep.cfg.HandshakeTimeout {
		q.restart = nil // a new process that stopped its handshake, or a replayed Hello
	}
	if q.state != StateDisconnected || !q.lost || !q.split || q.restart != nil {
		return false
	}
	q.state, q.lost, q.split = StateConnected, false, false
	q.lastHeard = max(q.lastHeard, now)
	return true
}

// Restart starts this endpoint's session with peer p over as a restarted
// process would (see "Restarts"): a fresh nonce, Rejoin Hellos, and a
// handshake timed from now, in which only a restart reply connects. A
// session that yields a split (it played apart from p and gives up its
// side) calls it before it takes the match's state from p's side. It
// returns ErrUnknownPeer for a peer outside the table, and the random
// source's error.
func (ep *Endpoint[I]) Restart(now time.Duration, p core.PeerID) error {
	if p < 0 || int(p) >= len(ep.peers) {
		return ErrUnknownPeer
	}
	nonce, err := ep.drawNonce()
	if err != nil {
		return err
	}
	q := &ep.peers[p]
	*q = peer{addr: q.addr, seat: q.seat, open: q.open, state: StateHandshaking, nonce: nonce, seq: q.seq,
		rejoin: true, hsStart: now, st: q.st, srtt: q.srtt, rttvar: q.rttvar, samples: q.samples}
	return nil
}

// rejoining reports whether the endpoint's session with q is a restarted
// process's.
func (ep *Endpoint[I]) rejoining(q *peer) bool { return ep.cfg.Rejoin || q.rejoin }

// Events returns the events raised since the previous call, in order, and
// forgets them. The slice is owned by the endpoint and valid until its next
// method call.
func (ep *Endpoint[I]) Events() []Event {
	ev := ep.events
	ep.events = ep.events[:0]
	return ev
}

// Close closes the Conn. Later calls return ErrClosed.
func (ep *Endpoint[I]) Close() error {
	if ep.closed {
		return ErrClosed
	}
	ep.closed = true
	return ep.conn.Close()
}

// event records an event.
func (ep *Endpoint[I]) event(e Event) { ep.events = append(ep.events, e) }

// seatFits reports whether a Hello naming seat s may be peer q's: it names
// no seat, or q's, or q's seat is not known.
func (q *peer) seatFits(s wire.Seat) bool {
	return s == wire.NoSeat || q.seat == wire.NoSeat || s == q.seat
}

// lookup returns the index of the peer with transport address a.
func (ep *Endpoint[I]) lookup(a transport.Addr) (int, bool) {
	for i := range ep.peers {
		if ep.peers[i].addr == a {
			return i, true
		}
	}
	return 0, false
}

// maxSampleWeight bounds how many packets one round-trip sample stands
// for, so that a sample after a long silence (or a long run of packets
// whose echo was lost) does not replace the estimate outright: 16, as
// core's, twice the average gap between the packets that carry timing
// (wire.StampEvery) and above the largest gap wire.StampDue leaves between
// them (13 packets). A sample of weight 16 moves the smoothed RTT 88 % of
// the way to itself.
const maxSampleWeight = 16

// observeRTT folds one round-trip sample into the smoothed RTT and its
// mean deviation (RFC 6298 §2), weighted by k, the number of packets
// received from the peer since the previous sample (this one included),
// at least 1 and at most maxSampleWeight: the update is applied k times,
// as if each of those packets had carried the sample. Only one input
// packet in wire.StampEvery carries timing, so without the weight the
// estimate would follow a change of the link StampEvery times slower
// while inputs flow than while keep-alives (each a sample) do; with it,
// it follows at the rate of packets, as core's estimate of the same peer
// does (core's peer.observeRTT weights by messages the same way).
func (q *peer) observeRTT(r time.Duration, k int) {
	r = max(r, 0)
	if q.samples == 0 {
		q.srtt, q.rttvar = r, r/2
	} else {
		if bound := rtt.Outlier(q.srtt); r > bound {
			r, k = bound, 1 // one sample far above the estimate counts once, bounded
		}
		for range min(max(k, 1), maxSampleWeight) {
			d := q.srtt - r
			if d < 0 {
				d = -d
			}
			q.rttvar = (3*q.rttvar + d) / 4
			q.srtt = (7*q.srtt + r) / 8
		}
	}
	q.samples++
}

// sampled counts one more timed packet (input or keep-alive) received from
// the peer and, when it echoes a stamp, folds the round trip it measures,
// weighted by the packets since the previous sample.
func (q *peer) sampled(now time.Duration, hasEcho bool, echo, echoDelay time.Duration) {
	q.unsampled++
	if hasEcho {
		if r, ok := rtt.Sample(now, echo, echoDelay); ok {
			q.observeRTT(r, q.unsampled)
		}
		q.unsampled = 0
	}
}

// stamp records a Stamp received from the peer at now, for echoes.
func (q *peer) stamp(now, s time.Duration) {
	if !q.hasEcho || s > q.echo {
		q.echo, q.echoAt, q.hasEcho = s, now, true
	}
}
