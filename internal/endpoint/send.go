package endpoint

import (
	"errors"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
)

// Send encodes each of the engine's messages (core.Ready.Messages) with the
// peer's next sequence number and sends it, at now. Messages to peers that
// are not connected (handshaking, refused, disconnected, left) are not sent
// and are counted in PeerStats.Unsent: core repeats every unacknowledged
// input in every message, so nothing is lost by skipping one. An input
// packet that cannot carry the whole message carries its oldest inputs
// (see wire.Fit) and is counted in PeerStats.Truncated. Send tries every
// message and returns the first error: ErrUnknownPeer for a message to a
// peer outside the table, an encoding error (a message core would never
// produce), or the Conn's, except the Conn errors that may pass
// (transport.Transient, or a peer the Conn does not know yet or any
// more), which are only counted in PeerStats.SendErrors. In steady state
// it allocates nothing.
func (ep *Endpoint[I]) Send(now time.Duration, msgs []engine.Outgoing[I]) error {
	if ep.closed {
		return ErrClosed
	}
	var first error
	for _, o := range msgs {
		if err := ep.sendMessage(now, o.To, o.Message); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func (ep *Endpoint[I]) sendMessage(now time.Duration, to core.PeerID, m *engine.Message[I]) error {
	if to < 0 || int(to) >= len(ep.peers) {
		return ErrUnknownPeer
	}
	q := &ep.peers[to]
	if !live(q.state) {
		q.st.Unsent++
		return nil
	}
	lean := ep.leanAck(q, m)
	out, fit, err := ep.codec.AppendInput(ep.sbuf[:0], q.sendKey(ep.key), q.seq, lean)
	if lean != m {
		ep.lean = engine.Message[I]{} // do not retain the engine's slices
	}
	if err != nil {
		return err
	}
	if !fit.Complete() {
		q.st.Truncated++
	}
	q.st.InputsSent++
	return ep.send(now, int(to), out)
}

// ackRepeat is the number of input packets after a change of ChecksumAck
// that carry it; after them it rides only in the packets ackDue picks.
const ackRepeat = 4

// ackDue reports whether the input packet with sequence number seq carries
// an unchanged ChecksumAck: the packets that carry the round-trip timing
// (wire.StampDue, one in 8 after the first 32). Riding in packets that are
// already 10 bytes larger, the resent ack adds 2 bytes to them instead of
// making one more packet in 8 larger than the common size.
func ackDue(seq uint64) bool { return wire.StampDue(seq) }

// leanAck returns the message to encode for m to peer q: m itself when its
// ChecksumAck changed within the last ackRepeat input packets to q, or
// ackDue picks the packet (so a lost ack is resent within about 8 packets),
// and otherwise a shallow copy with ChecksumAck 0, which acknowledges
// nothing (core keeps the largest ack it received) and saves 1 or 2 bytes.
// It never modifies m, which the engine owns. The copy is ep.lean, which
// the caller zeroes after encoding.
func (ep *Endpoint[I]) leanAck(q *peer, m *engine.Message[I]) *engine.Message[I] {
	if m.ChecksumAck != q.ackLast {
		q.ackLast, q.ackAge = m.ChecksumAck, 0
	}
	fresh := q.ackAge < ackRepeat
	if fresh {
		q.ackAge++
	}
	if fresh || m.ChecksumAck == 0 || ackDue(q.seq) || ep.everyAck {
		return m
	}
	ep.lean = *m
	ep.lean.ChecksumAck = 0
	return &ep.lean
}

// send sends datagram p to peer i, consuming a sequence number. A send
// error that may pass (transport.Transient, or a peer the Conn does not
// know yet or any more, as a DTLS listener's before and after the
// association) is counted (PeerStats.SendErrors, and kept for the
// peer's HandshakeTimeoutError) and not returned: the protocol repeats
// what matters, and the peer's timeouts end what does not recover.
func (ep *Endpoint[I]) send(now time.Duration, i int, p []byte) error {
	q := &ep.peers[i]
	q.seq++
	if !wire.PacketType(p).Handshake() {
		// Only a packet under the session's keys puts the keep-alive off:
		// a Hello or a reply proves nothing of the session to the peer,
		// nor, to one that restarted, that this is its peer's new process.
		q.lastSent = now
	}
	if err := ep.conn.Send(q.addr, p); err != nil {
		q.st.SendErrors++
		q.sendErr = err
		if transport.Transient(err) || errors.Is(err, transport.ErrUnknownPeer) {
			return nil
		}
		return err
	}
	q.st.PacketsSent++
	q.st.BytesSent += uint64(len(p))
	return nil
}

// Tick runs the timers at now, peer by peer: it sends (or repeats) the
// Hello of a handshaking or interrupted peer every HelloInterval (the
// latter so that a peer can rebind us if our address changed), sends a
// KeepAlive to a
// connected peer that was sent nothing for KeepAliveInterval, raises
// EventInterrupted after InterruptTimeout and EventDisconnected after
// DisconnectTimeout of silence (after which it sends the lost peer a
// KeepAlive every DisconnectTimeout/2, so that each side of a healed
// split hears the other: EventSplit), and EventDisconnected with
// ErrHandshakeTimeout when a handshake outlasts HandshakeTimeout, counted
// from the first Tick. A timer of length d armed at t fires in the first
// Tick with now >= t+d. Tick returns the first error of the Conn's Send
// that does not pass (see Send), after trying every peer. In steady state it allocates nothing.
func (ep *Endpoint[I]) Tick(now time.Duration) error {
	if ep.closed {
		return ErrClosed
	}
	if !ep.started {
		ep.started, ep.start = true, now
	}
	var first error
	keep := func(err error) {
		if err != nil && first == nil {
			first = err
		}
	}
	for i := range ep.peers {
		q := &ep.peers[i]
		switch q.state {
		case StateHandshaking:
			if began := max(ep.start, q.hsStart); now-began >= ep.cfg.HandshakeTimeout {
				q.state = StateDisconnected
				err := &HandshakeTimeoutError{Peer: core.PeerID(i), After: now - began, Received: q.st.PacketsReceived,
					Unauthenticated: q.st.WrongToken + q.st.Malformed, Heard: q.heard, SendErrors: q.st.SendErrors, SendError: q.sendErr}
				ep.event(Event{Kind: EventDisconnected, Peer: core.PeerID(i), At: now, Err: err})
				continue
			}
			if !q.helloAcked && (!q.helloSent || now-q.lastHello >= ep.cfg.HelloInterval) {
				keep(ep.sendHello(now, i))
			}
		case StateDisconnected:
			if q.lost && now-q.lastSent >= ep.cfg.DisconnectTimeout/2 {
				keep(ep.sendKeepAlive(now, i)) // a probe: see probeLost
			}
		case StateConnected, StateInterrupted:
			silence := now - q.lastHeard
			if silence >= ep.cfg.DisconnectTimeout {
				q.state, q.lost = StateDisconnected, true
				ep.event(Event{Kind: EventDisconnected, Peer: core.PeerID(i), At: now})
				continue
			}
			if q.state == StateConnected && silence >= ep.cfg.InterruptTimeout {
				q.state = StateInterrupted
				ep.event(Event{Kind: EventInterrupted, Peer: core.PeerID(i), At: now})
			}
			// While interrupted, repeat our Hello (same nonce): if our
			// address changed, it lets the peer find us (see Rebinder).
			if q.state == StateInterrupted && now-q.lastHello >= ep.cfg.HelloInterval {
				keep(ep.sendHello(now, i))
			}
			if now-q.lastSent >= ep.cfg.KeepAliveInterval {
				keep(ep.sendKeepAlive(now, i))
			}
		}
	}
	return first
}

// Deadline returns the earliest time at which Tick has something to do
// (a Hello, a KeepAlive or a timeout), so a host or a test can sleep or
// jump virtual time until then; ok is false when no timer is armed. Before
// the first Tick it returns 0 and true.
func (ep *Endpoint[I]) Deadline() (at time.Duration, ok bool) {
	if !ep.started {
		return 0, true
	}
	set := func(t time.Duration) {
		if !ok || t < at {
			at, ok = t, true
		}
	}
	for i := range ep.peers {
		q := &ep.peers[i]
		switch q.state {
		case StateHandshaking:
			set(ep.start + ep.cfg.HandshakeTimeout)
			if !q.helloAcked {
				set(q.lastHello + ep.cfg.HelloInterval)
			}
		case StateConnected:
			set(q.lastHeard + ep.cfg.InterruptTimeout)
			set(q.lastSent + ep.cfg.KeepAliveInterval)
		case StateInterrupted:
			set(q.lastHeard + ep.cfg.DisconnectTimeout)
			set(q.lastSent + ep.cfg.KeepAliveInterval)
			set(q.lastHello + ep.cfg.HelloInterval)
		}
	}
	return at, ok
}

// sendKeepAlive sends a KeepAlive to peer i, echoing the newest stamp
// received from it.
func (ep *Endpoint[I]) sendKeepAlive(now time.Duration, i int) error {
	q := &ep.peers[i]
	// A probe of a lost peer says so, whether this endpoint lost it to
	// silence or the match agreed to drop it (Disconnect): the peer may
	// hear this one and not know, and would wait for its inputs for good.
	k := wire.KeepAlive{Stamp: max(now, 0), Lost: q.state == StateDisconnected && q.lost}
	if q.hasEcho {
		k.Echo, k.EchoDelay, k.HasEcho = q.echo, max(now-q.echoAt, 0), true
	}
	out, err := wire.AppendKeepAlive(ep.sbuf[:0], q.sendKey(ep.key), q.seq, &k)
	if err != nil {
		return err
	}
	q.st.KeepAlivesSent++
	return ep.send(now, i, out)
}

// Leave tells every connected or handshaking peer that we leave the match
// at frame, sending Config.LeaveCopies copies of a Leave to each (at once:
// a quitting host may not tick again). Peers stay in their state; the
// endpoint can still Poll and Close. It returns the first error, after
// trying every peer.
func (ep *Endpoint[I]) Leave(now time.Duration, reason wire.LeaveReason, frame core.Frame) error {
	if ep.closed {
		return ErrClosed
	}
	l := wire.Leave{Reason: reason, Frame: frame}
	var first error
	for i := range ep.peers {
		q := &ep.peers[i]
		if final(q.state) {
			continue
		}
		for range ep.cfg.LeaveCopies {
			out, err := wire.AppendLeave(ep.sbuf[:0], q.sendKey(ep.key), q.seq, &l)
			if err == nil {
				err = ep.send(now, i, out)
			}
			if err != nil {
				if first == nil {
					first = err
				}
				break
			}
		}
	}
	return first
}

// SendTransfer sends payload, one message of a state transfer, to
// connected peer p in a Transfer packet. It returns ErrUnknownPeer for a
// peer outside the table, the *wire.EncodeError of an empty or oversized
// payload, and does nothing for a peer that is not connected.
func (ep *Endpoint[I]) SendTransfer(now time.Duration, p core.PeerID, payload []byte) error {
	if ep.closed {
		return ErrClosed
	}
	if p < 0 || int(p) >= len(ep.peers) {
		return ErrUnknownPeer
	}
	q := &ep.peers[p]
	if !live(q.state) || q.lost {
		return nil
	}
	out, err := wire.AppendTransfer(ep.sbuf[:0], q.sendKey(ep.key), q.seq, payload)
	if err != nil {
		return err
	}
	return ep.send(now, int(p), out)
}

// sendKey returns the key of what we send q but Hellos and HelloReplies:
// the pair's direction key once we have q's Hello, and until then (a
// Leave during the handshake) the token's key base, which q does not
// accept after it has our Hello: such a Leave is lost, and q times out.
func (q *peer) sendKey(base wire.Key) wire.Key {
	if q.helloSeen {
		return q.txKey
	}
	return base
}

// PeerKeys returns the keys that tag the packets, but Hellos and
// HelloReplies, that this endpoint sends peer p and that p sends it: the
// pair's wire.DirectionKeys, once p's Hello has been accepted (ok is false
// before, and for a peer outside the table). They are for tools that
// speak the protocol on this endpoint's behalf, such as a test that
// forges what a dishonest peer would send; a game never needs them.
func (ep *Endpoint[I]) PeerKeys(p core.PeerID) (send, recv wire.Key, ok bool) {
	if p < 0 || int(p) >= len(ep.peers) || !ep.peers[p].helloSeen {
		return wire.Key{}, wire.Key{}, false
	}
	q := &ep.peers[p]
	return q.txKey, q.rxKey, true
}
