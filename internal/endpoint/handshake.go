package endpoint

import (
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/wire"
)

// The handshake, per peer. Each side sends a Hello with its own nonce,
// repeated every HelloInterval until a HelloReply echoing that nonce
// arrives; each side answers every Hello (at most once per half
// HelloInterval) with a HelloReply that accepts or refuses it and carries
// its own protocol and digest. A peer is connected once our Hello was
// accepted (helloAcked) and we accepted its Hello (helloSeen). A refusal,
// seen from either side, is final and raises EventRefused once, with the
// same field on both sides because both run wire.Compare on the same two
// digests. A Hello naming another seat than the peer's (Config.Seats) is
// dropped and counted in PeerStats.WrongSeat. A HelloReply (at most 63
// bytes) is never larger than the Hello (96 bytes) it answers, and nothing
// else is sent to a peer before it is connected, so an unvalidated source
// is never amplified.

// onHello answers a Hello from peer i.
func (ep *Endpoint[I]) onHello(now time.Duration, i int, h wire.Header, p []byte) error {
	q := &ep.peers[i]
	var hello wire.Hello
	if _, err := wire.DecodeHello(p, ep.key, &q.window, &hello); err != nil {
		q.st.Malformed++
		return nil
	}
	if ep.rejoining(q) && (!q.helloSeen || hello.Nonce != q.theirNonce) {
		// A new process comes back only through restart replies: a
		// survivor's Hello (it repeats them while it misses the old
		// process) names a nonce of the old session, and answering it
		// would make the survivor hear the old process again.
		q.st.Stale++
		return nil
	}
	if !q.seatFits(hello.Seat) {
		// Another participant's Hello (replayed from this address, or
		// the peers disagree on who owns what): not this peer's, so not
		// answered, and no refusal a replay could force on the peer.
		q.st.WrongSeat++
		return nil
	}
	if q.replied && now-q.lastReply < ep.cfg.HelloInterval/2 {
		// Not accepted into the window: a legitimate copy may come later.
		q.st.Limited++
		return nil
	}
	q.window.Accept(h.Seq)
	if q.state != StateRefused {
		ep.heard(now, i)
	}
	reply := wire.HelloReply{Status: wire.ReplyAccept, Protocol: wire.Protocol, Nonce: hello.Nonce, Config: ep.cfg.Digest}
	var mismatch error
	if err := wire.CheckProtocol(hello.Protocol); err != nil {
		reply.Status, mismatch = wire.ReplyRefuseProtocol, err
	} else if err := wire.Compare(ep.cfg.Digest, hello.Config); err != nil {
		reply.Status, mismatch = wire.ReplyRefuseConfig, err
	}
	switch {
	case mismatch != nil:
		ep.refuse(now, i, false, mismatch)
	case q.state == StateRefused:
		// Refused earlier (by the peer's reply): keep saying so.
		reply.Status = wire.ReplyRefuseConfig
	default:
		if !q.helloSeen {
			q.helloSeen, q.theirNonce = true, hello.Nonce
			q.txKey = wire.DirectionKey(ep.cfg.Token, ep.cfg.Seat, hello.Seat, q.nonce, hello.Nonce)
			q.rxKey = wire.DirectionKey(ep.cfg.Token, hello.Seat, ep.cfg.Seat, hello.Nonce, q.nonce)
		}
		ep.maybeConnect(now, i)
	}
	out, err := wire.AppendHelloReply(ep.sbuf[:0], ep.key, q.seq, &reply)
	if err != nil {
		return nil // unreachable: the status is valid
	}
	q.replied, q.lastReply = true, now
	q.st.RepliesSent++
	return ep.send(now, i, out)
}

// onHelloReply takes the answer to our Hello.
func (ep *Endpoint[I]) onHelloReply(now time.Duration, i int, h wire.Header, p []byte) error {
	q := &ep.peers[i]
	var hr wire.HelloReply
	if _, err := wire.DecodeHelloReply(p, ep.key, &q.window, &hr); err != nil {
		q.st.Malformed++
		return nil
	}
	if hr.Nonce != q.nonce {
		q.st.Stale++
		return nil
	}
	q.window.Accept(h.Seq)
	ep.heard(now, i)
	// Run the replier's checks ourselves, so that both sides name the same
	// field, whatever the status says.
	err := wire.CheckProtocol(hr.Protocol)
	if err == nil {
		err = wire.Compare(ep.cfg.Digest, hr.Config)
	}
	if err == nil && hr.Status != wire.ReplyAccept {
		err = ErrRefused // the peer refused for a reason we cannot see
	}
	if err != nil {
		ep.refuse(now, i, true, err)
		return nil
	}
	q.helloAcked = true
	if hr.Replier != 0 && q.state == StateHandshaking && (!q.helloSeen || hr.Replier != q.theirNonce) {
		// A restart handshake (restart.go), of a restarted process or an
		// open peer's: the reply carries the replier's nonce instead of a
		// Hello of its own, and it replaces the nonce of a Hello of the
		// replier's that arrived earlier (one sent before the replier gave
		// up on its first handshake with us). Our first packet
		// under the keys proves to it that we are its peer's new process.
		q.helloSeen, q.theirNonce = true, hr.Replier
		q.txKey = wire.DirectionKey(ep.cfg.Token, ep.cfg.Seat, q.seat, q.nonce, hr.Replier)
		q.rxKey = wire.DirectionKey(ep.cfg.Token, q.seat, ep.cfg.Seat, hr.Replier, q.nonce)
		ep.maybeConnect(now, i)
		return ep.sendKeepAlive(now, i)
	}
	ep.maybeConnect(now, i)
	return nil
}

// refuse makes a handshaking peer i refused and raises EventRefused. A
// peer that is already connected stays connected: its configuration cannot
// change within a match, so a mismatching Hello or reply then is a stray
// (a restarted peer process, or a token holder's forgery) that only gets
// its refusal.
func (ep *Endpoint[I]) refuse(now time.Duration, i int, byPeer bool, err error) {
	q := &ep.peers[i]
	if q.state != StateHandshaking {
		return
	}
	q.state = StateRefused
	ep.event(Event{Kind: EventRefused, Peer: core.PeerID(i), At: now,
		Err: &HandshakeError{Peer: core.PeerID(i), ByPeer: byPeer, Err: err}})
}

// maybeConnect connects peer i once both directions are validated.
func (ep *Endpoint[I]) maybeConnect(now time.Duration, i int) {
	q := &ep.peers[i]
	if q.state != StateHandshaking || !q.helloAcked || !q.helloSeen {
		return
	}
	q.state = StateConnected
	q.lastSent = now // the keep-alive timer starts now
	ep.event(Event{Kind: EventConnected, Peer: core.PeerID(i), At: now})
}

// sendHello sends our Hello to peer i.
func (ep *Endpoint[I]) sendHello(now time.Duration, i int) error {
	q := &ep.peers[i]
	hello := wire.Hello{Protocol: wire.Protocol, Nonce: q.nonce, Config: ep.cfg.Digest, Seat: ep.cfg.Seat, Rejoin: ep.rejoining(q)}
	out, err := wire.AppendHello(ep.sbuf[:0], ep.key, q.seq, &hello)
	if err != nil {
		return err
	}
	q.helloSent, q.lastHello = true, now
	q.st.HellosSent++
	return ep.send(now, i, out)
}
