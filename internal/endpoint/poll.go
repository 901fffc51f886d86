package endpoint

import (
	"errors"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/connhook"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
)

// Poll reads up to Config.MaxPoll datagrams from the Conn, at now, and
// handles each: Hellos are answered, HelloReplies complete or refuse the
// handshake, KeepAlives are recorded (and answered when the peer was sent
// nothing for half the keep-alive interval), Leaves and quality reports
// are recorded, and input packets of connected peers are decoded and handed
// to r (which may be nil to discard them). Datagrams from unknown
// addresses, with another token, malformed, replayed or early are dropped
// and counted (see PeerStats); they change no other state and are never
// answered. Every valid packet marks its peer heard at now and resumes an
// interrupted peer.
//
// Poll returns the number of datagrams read and an error: the Conn's
// Receive error, which stops it (ErrClosed, for example), or else the first
// error of the Conn's Send while answering, which does not (the failure is
// also counted in PeerStats.SendErrors). Errors of r.Receive are counted in
// PeerStats.Rejected, not returned. In steady state Poll allocates
// nothing.
func (ep *Endpoint[I]) Poll(now time.Duration, r Receiver[I]) (int, error) {
	if ep.closed {
		return 0, ErrClosed
	}
	ep.polls++
	var sendErr error // the first failed answer; it does not stop Poll
	for n := 0; n < ep.cfg.MaxPoll; n++ {
		size, from, ok, err := ep.conn.Receive(ep.rbuf)
		if err != nil {
			return n, err
		}
		if !ok {
			return n, sendErr
		}
		i, known := ep.lookup(from)
		if !known {
			ep.unknown++
			ep.unknownBytes += uint64(size)
			if i, ok := ep.stranger(now, from, ep.rbuf[:size]); ok {
				if err := ep.handle(now, i, ep.rbuf[:size], r); err != nil && sendErr == nil {
					sendErr = err
				}
			}
			continue
		}
		if err := ep.handle(now, i, ep.rbuf[:size], r); err != nil && sendErr == nil {
			sendErr = err
		}
	}
	ep.pollLimited++
	return ep.cfg.MaxPoll, sendErr
}

// handle processes datagram p from peer i. It returns only Conn errors.
func (ep *Endpoint[I]) handle(now time.Duration, i int, p []byte, r Receiver[I]) error {
	q := &ep.peers[i]
	q.st.PacketsReceived++
	q.st.BytesReceived += uint64(len(p))
	key := ep.key
	if !wire.PacketType(p).Handshake() {
		// Tagged with the pair's key for this direction, which exists
		// once we have the peer's Hello (a packet reflected back to us,
		// or replayed from another peer or an earlier match, fails it),
		// or, for an open peer's first session, a pending restart's.
		if !q.helloSeen && q.restart == nil {
			q.st.Early++
			return nil
		}
		key = q.rxKey
	}
	h, err := wire.ParseHeader(p, key, &q.window)
	if err != nil && errors.Is(err, wire.ErrWrongToken) && q.restart != nil && ep.restartProof(now, i, p) {
		h, err = wire.ParseHeader(p, q.rxKey, &q.window) // the peer's new process
	}
	if err != nil {
		if errors.Is(err, wire.ErrWrongToken) {
			q.st.WrongToken++
		} else {
			q.st.Malformed++
		}
		return nil
	}
	if h.Type == wire.TypeHello {
		if done, err := ep.restartHello(now, i, h, p); done {
			return err
		}
	}
	// A disconnected or departed peer is finished: nothing it sends counts,
	// but a lost one heard again is reported (probeLost). A refused peer
	// still gets its Hellos answered (with the refusal).
	lost := q.state == StateDisconnected && q.lost && h.Type != wire.TypeHello && h.Type != wire.TypeHelloReply
	if !lost && (q.state == StateDisconnected || q.state == StateLeft ||
		(q.state == StateRefused && h.Type != wire.TypeHello)) {
		q.st.Stale++
		return nil
	}
	if q.jumps(h.Seq) {
		q.st.Jumped++
		return nil
	}
	if q.window.Check(h.Seq) != nil {
		q.st.Replayed++
		return nil
	}
	if lost {
		return ep.probeLost(now, i, h)
	}
	switch h.Type {
	case wire.TypeHello:
		return ep.onHello(now, i, h, p)
	case wire.TypeHelloReply:
		return ep.onHelloReply(now, i, h, p)
	case wire.TypeInput:
		return ep.onInput(now, i, h, p, r)
	case wire.TypeKeepAlive:
		return ep.onKeepAlive(now, i, h, p)
	case wire.TypeLeave:
		var l wire.Leave
		if _, err := wire.DecodeLeave(p, key, &q.window, &l); err != nil {
			q.st.Malformed++
			return nil
		}
		q.window.Accept(h.Seq)
		q.heard, q.lastHeard = true, now
		q.state = StateLeft
		ep.event(Event{Kind: EventLeft, Peer: core.PeerID(i), At: now, Reason: l.Reason, Frame: l.Frame})
	case wire.TypeTransfer:
		if !live(q.state) {
			q.st.Early++
			return nil
		}
		_, payload, err := wire.DecodeTransfer(p, key, &q.window)
		if err != nil {
			q.st.Malformed++
			return nil
		}
		q.window.Accept(h.Seq)
		ep.heard(now, i)
		q.st.Transfers++
		if tr, ok := r.(TransferReceiver); ok {
			tr.ReceiveTransfer(now, core.PeerID(i), payload)
		}
	default:
		q.st.Malformed++
	}
	return nil
}

// probeLost handles an authenticated, fresh packet from peer i after the
// endpoint lost it: the first one raises EventSplit, since both sides
// then played on without each other; none reaches the engine. A lost
// peer is sent a KeepAlive now and then (see Tick) so that the other side
// of a split hears this one too, and one at once when the split is
// found.
func (ep *Endpoint[I]) probeLost(now time.Duration, i int, h wire.Header) error {
	q := &ep.peers[i]
	q.window.Accept(h.Seq)
	q.st.Stale++
	if q.split {
		return nil
	}
	q.split = true
	ep.event(Event{Kind: EventSplit, Peer: core.PeerID(i), At: now})
	// The peer may have lost us later than we lost it, and so not be
	// probing yet: answer at once, so that it learns of the split too.
	return ep.sendKeepAlive(now, i)
}

// droppedBy handles a probe from live peer i: it lost this endpoint to
// silence and plays on without it, though this one still hears it (the
// other direction of the link failed) or had not noticed the silence
// yet. Left alone, this side could wait for the peer's inputs for good,
// the probes keeping it alive: EventDropped tells the front end, which
// decides (see EventDropped). The probe counts as heard.
func (ep *Endpoint[I]) droppedBy(now time.Duration, i int) error {
	ep.heard(now, i)
	ep.event(Event{Kind: EventDropped, Peer: core.PeerID(i), At: now, Err: ErrDropped})
	return nil
}

// heard marks peer i heard at now and resumes it if it was interrupted.
func (ep *Endpoint[I]) heard(now time.Duration, i int) {
	q := &ep.peers[i]
	q.heard, q.lastHeard = true, now
	if q.state == StateInterrupted {
		q.state = StateConnected
		ep.event(Event{Kind: EventResumed, Peer: core.PeerID(i), At: now})
	}
}

// onInput decodes an input packet of a connected peer and hands it to r.
func (ep *Endpoint[I]) onInput(now time.Duration, i int, h wire.Header, p []byte, r Receiver[I]) error {
	q := &ep.peers[i]
	if !live(q.state) {
		q.st.Early++
		return nil
	}
	if err := ep.codec.DecodeInputBody(p, h, &ep.msg); err != nil { // handle verified the tag
		q.st.Malformed++
		return nil
	}
	q.window.Accept(h.Seq)
	ep.heard(now, i)
	m := &ep.msg
	q.stamp(now, m.Stamp)
	q.sampled(now, m.HasEcho, m.Echo, m.EchoDelay)
	q.st.InputsReceived++
	if r != nil {
		if err := r.Receive(now, core.PeerID(i), m); err != nil {
			q.st.Rejected++
		}
	}
	return nil
}

// onKeepAlive records a connected peer's KeepAlive and answers it when
// the peer was sent nothing for half the keep-alive interval.
func (ep *Endpoint[I]) onKeepAlive(now time.Duration, i int, h wire.Header, p []byte) error {
	q := &ep.peers[i]
	if !live(q.state) {
		q.st.Early++
		return nil
	}
	var k wire.KeepAlive
	if _, err := wire.DecodeKeepAlive(p, q.rxKey, &q.window, &k); err != nil {
		q.st.Malformed++
		return nil
	}
	q.window.Accept(h.Seq)
	if k.Lost {
		return ep.droppedBy(now, i)
	}
	ep.heard(now, i)
	q.stamp(now, k.Stamp)
	q.sampled(now, k.HasEcho, k.Echo, k.EchoDelay)
	if now-q.lastSent >= ep.cfg.KeepAliveInterval/2 {
		return ep.sendKeepAlive(now, i)
	}
	return nil
}

// Forgetter is implemented by Conns that give a datagram from a new source
// address a provisional PeerID until the layer above vouches for it, such
// as transport/udp with AcceptUnknown, or that let the layer above end a
// peer's channel, such as transport/dtls. Forget drops such a peer.
type Forgetter interface {
	Forget(id transport.Addr) error
}

// Rebinder is implemented by Conns whose peers' addresses can change, such
// as transport/udp behind a NAT, or can be learnt at first contact, such as
// a transport/udp peer listed without an address. Rebind moves peer id to
// the address from which provisional peer from sent, and forgets from.
type Rebinder interface {
	Rebind(id, from transport.Addr) error
}

// peerTable returns what manages c's peers: c itself, as far as it
// implements Forgetter and Rebinder, or else the peer table of a
// transport/udp Conn, which does not export its Forget and Rebind (see
// internal/connhook).
func peerTable(c transport.Conn) (Forgetter, Rebinder) {
	f, _ := c.(Forgetter)
	rb, _ := c.(Rebinder)
	if f == nil && rb == nil && connhook.UDPPeers != nil {
		if p, ok := connhook.UDPPeers(c); ok {
			return p, p
		}
	}
	return f, rb
}

// stranger handles datagram p from address from, which is not in the
// table, and returns the index of the peer it turns out to be, if any, so
// that the datagram is handled as that peer's. With a Rebinder Conn, a
// Hello of this match is that of a peer at a new address in three cases,
// and the endpoint rebinds the peer there:
//
//   - it repeats the nonce of an interrupted peer's first Hello, names no
//     other seat than the peer's, and its sequence number is newer than
//     anything accepted from the peer: the peer's NAT mapping changed (a
//     peer repeats its Hello while it hears nothing, see Tick). A
//     connected peer is heard where it is, and a captured Hello replayed
//     from elsewhere is older than what followed it, so neither moves the
//     peer (Stats.RebindsRefused);
//   - a restarted process: a Rejoin Hello of this match naming the seat
//     of a peer whose session ended, or a seatless Hello while a
//     spectator's place is free (see returning); the restart handshake
//     (or, for a place still waiting, the first one) then runs at the new
//     address;
//   - first contact: it carries this match's protocol and configuration
//     digest, its nonce is no known peer's, and claimant finds the peer
//     still waiting for a first Hello (handshaking, none accepted yet)
//     whose seat it names, or the one it must be.
//
// Every other stranger is counted, never answered, and, with a Forgetter
// Conn, forgotten, which frees its provisional slot whether or not its
// datagram carried this match's tag.
func (ep *Endpoint[I]) stranger(now time.Duration, from transport.Addr, p []byte) (int, bool) {
	if i, ok := ep.adopt(now, from, p); ok {
		return i, true
	}
	if ep.forgetter != nil {
		_ = ep.forgetter.Forget(from)
	}
	return 0, false
}

// adopt returns the peer that stranger from turns out to be, by the rules
// of stranger, having rebound it to from.
func (ep *Endpoint[I]) adopt(now time.Duration, from transport.Addr, p []byte) (int, bool) {
	rb := ep.rebinder
	if rb == nil {
		return 0, false
	}
	// A stranger has no replay window: only a Hello, which carries its
	// full sequence number, can pass the tag; any other packet from an
	// unknown address is treated as not carrying this match's token.
	h, err := wire.ParseHeader(p, ep.key, nil)
	if err != nil || h.Type != wire.TypeHello {
		return 0, false
	}
	var hello wire.Hello
	if _, err := wire.DecodeHello(p, ep.key, nil, &hello); err != nil {
		return 0, false
	}
	waiting := false
	for i := range ep.peers {
		q := &ep.peers[i]
		if q.helloSeen && q.theirNonce == hello.Nonce {
			// A known peer's Hello; any other use of its nonce is no
			// first contact.
			if q.state != StateInterrupted || !q.seatFits(hello.Seat) || !newer(&q.window, h.Seq) ||
				rb.Rebind(q.addr, from) != nil {
				q.st.RebindsRefused++
				return 0, false
			}
			q.st.Rebinds++
			return i, true
		}
		waiting = waiting || q.waiting()
	}
	if wire.CheckProtocol(hello.Protocol) != nil || wire.Compare(ep.cfg.Digest, hello.Config) != nil {
		return 0, false
	}
	if i, ok := ep.returning(now, hello); ok {
		if rb.Rebind(ep.peers[i].addr, from) != nil {
			return 0, false
		}
		ep.peers[i].st.Rebinds++
		return i, true
	}
	if !waiting {
		return 0, false
	}
	i, ok := ep.claimant(hello.Seat)
	if !ok {
		return 0, false
	}
	q := &ep.peers[i]
	if rb.Rebind(q.addr, from) != nil {
		return 0, false
	}
	q.st.FirstContacts++
	return i, true
}

// returning returns the peer whose new process a Rejoin Hello from an
// unknown address is: the one whose seat it names, if that peer's session
// ended as restartHello takes a restart for (lost; an open seat also
// after it left or its first handshake timed out).
// Only the restart handshake's proof makes the new process the peer's, so
// a replayed Rejoin Hello moves where a gone peer is probed and answered,
// never a live one.
func (ep *Endpoint[I]) returning(now time.Duration, h wire.Hello) (int, bool) {
	if h.Seat == wire.NoSeat {
		return ep.freeSpectator(now)
	}
	if !h.Rejoin {
		return 0, false
	}
	for i := range ep.peers {
		q := &ep.peers[i]
		if q.seat != h.Seat {
			continue
		}
		if (q.state == StateDisconnected && (q.helloSeen || q.open)) || (q.state == StateLeft && q.open) {
			return i, true
		}
		return 0, false
	}
	return 0, false
}

// freeSpectator returns the first free place of a spectator (an open
// peer without a seat): one still waiting for its first Hello, or whose
// session ended and that no restart handshake younger than
// HandshakeTimeout is under way for. A seatless Hello from an unknown
// address is a spectator there, perhaps behind a NAT, and any free place
// will do: spectators are alike.
func (ep *Endpoint[I]) freeSpectator(now time.Duration) (int, bool) {
	for i := range ep.peers {
		q := &ep.peers[i]
		if !q.open || q.seat != wire.NoSeat {
			continue
		}
		ended := (q.state == StateDisconnected || q.state == StateLeft) &&
			(q.restart == nil || now-q.restart.at >= ep.cfg.HandshakeTimeout)
		if q.waiting() || ended {
			return i, true
		}
	}
	return 0, false
}

// maxSeqJump is as far past the newest accepted sequence number as a
// short header's 16 bits reach (wire's Expand). Only a Hello or
// HelloReply, which carry all 64 bits, can jump further; an honest one
// does after a long silence (a paused peer whose sends were all lost
// repeats its Hello to resynchronize), a forged one would slide the replay
// window past every genuine packet and cut the link.
const maxSeqJump = 1 << 15

// jumps reports whether the packet with sequence number seq must be
// dropped because it jumps further than maxSeqJump past the newest number
// accepted from q, without a second packet to confirm it: the first such
// packet only records where it jumped (q.jumpTo), and a later one within
// maxSeqJump past it confirms the jump and is handled. An honest peer's
// repeated Hellos confirm each other; one forged packet moves nothing.
func (q *peer) jumps(seq uint64) bool {
	newest, ok := q.window.Newest()
	if !ok || seq <= newest || seq-newest <= maxSeqJump {
		return false
	}
	if q.jumpPending && seq > q.jumpTo && seq-q.jumpTo <= maxSeqJump {
		q.jumpPending = false
		return false
	}
	q.jumpTo, q.jumpPending = seq, true
	return true
}

// newer reports whether seq is newer than every sequence number w has
// accepted.
func newer(w *wire.ReplayWindow, seq uint64) bool {
	newest, ok := w.Newest()
	return !ok || seq > newest
}

// waiting reports whether q is still waiting for its first Hello.
func (q *peer) waiting() bool { return q.state == StateHandshaking && !q.helloSeen }

// claimant returns the peer a first-contact Hello naming seat s comes
// from, while at least one peer is waiting:
//
//   - the peer whose seat is s, if one has it (Config.Seats), provided it
//     is waiting; if it is not, or s is this endpoint's own Seat, the
//     seat is taken and the Hello is dropped (Stats.WrongSeat);
//   - otherwise the waiting peer without a seat, if exactly one waits (a
//     spectator, or any peer of an endpoint configured without Seats);
//   - otherwise, for a Hello naming no seat, the waiting peer, if exactly
//     one waits: the rule from before Hellos named seats.
//
// When several peers could have sent it, the Hello is dropped and counted
// in Stats.Ambiguous; when none could (it names a seat that no peer has,
// and no peer without a seat waits), in Stats.WrongSeat.
func (ep *Endpoint[I]) claimant(s wire.Seat) (int, bool) {
	if s != wire.NoSeat {
		if s == ep.cfg.Seat {
			ep.wrongSeat++
			return 0, false
		}
		for i := range ep.peers {
			if q := &ep.peers[i]; q.seat == s {
				if q.waiting() {
					return i, true
				}
				ep.wrongSeat++
				return 0, false
			}
		}
	}
	i, n := ep.soleWaiting(true)
	if n == 0 && s == wire.NoSeat {
		i, n = ep.soleWaiting(false)
	}
	switch {
	case n == 1:
		return i, true
	case n > 1:
		ep.ambiguous++
	default:
		ep.wrongSeat++
	}
	return 0, false
}

// soleWaiting returns the number of waiting peers, counting only those
// without a seat if seatless is set, and the index of the last of them.
func (ep *Endpoint[I]) soleWaiting(seatless bool) (last, n int) {
	for i := range ep.peers {
		if q := &ep.peers[i]; q.waiting() && (!seatless || q.seat == wire.NoSeat) {
			last, n = i, n+1
		}
	}
	return last, n
}
