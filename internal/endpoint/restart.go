package endpoint

import (
	"encoding/binary"
	"io"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/wire"
)

// Restarts
//
// A peer's process that restarted (crashed, killed, or cut off longer than
// the disconnect timeout and begun again) keeps nothing but its seat and
// the match token. Its endpoint has Config.Rejoin set, so its Hellos carry
// wire.Hello.Rejoin and a fresh nonce N. A peer that had a session with
// that seat answers such a Hello, when it names the seat, the protocol and
// the match's digest, with a HelloReply echoing N that carries a fresh
// nonce M of its own (HelloReply.Replier), and keeps a pending restart:
// the pair's direction keys of the two seats and N and M, and a replay
// window of its own. The new process derives the same keys from the
// reply and is connected; nothing changes on the other side until a
// packet tagged with a pending key arrives. That packet proves its sender
// holds the token and received M, which exists since this restart
// handshake began: only then does the old process stop counting (its
// keys, window and state are replaced, the peer is connected again) and
// EventRestarted is raised.
//
// So an attacker without the token cannot open a restart (the Hello's tag
// fails), and a replayed Hello, of the old process or of an earlier
// restart, opens one that never completes (its sender would need M and
// the token): the connected peer keeps its keys, and a pending restart
// changes nothing but itself. A later restart handshake of the same seat
// replaces a pending one. A Rejoin Hello from a peer (not open, below) still handshaking,
// refused or gone is dropped as stale; one that names another seat
// counts in PeerStats.WrongSeat. A restart comes from the address the
// peer had, or, with a Conn that rebinds (see "Address changes"), from
// another once the peer's old session ended: a NAT may map a new process
// elsewhere. A live peer is never moved by a Rejoin Hello. The HelloReply
// of a restart is 64 bytes, smaller than the Hello it answers, and is sent
// at most once per half HelloInterval, so it amplifies nothing.
//
// Open peers
//
// The peers of Config.Open (a session's spectators and open seats) come
// and go as they like. A Rejoin Hello from one opens a restart handshake
// as above at any time; a Hello without Rejoin (a spectator's) does once
// the first handshake timed out or the session with the peer ended (it
// left, was lost, was dropped, or was refused), and is otherwise the usual
// handshake. The restart's proof raises EventRestarted: the peer is there
// (again). A handshaking endpoint takes the replier's nonce from a restart
// reply, even over a Hello of the replier's it accepted before, so a
// spectator needs no Rejoin of its own. A replay of an earlier process's
// Hello still opens a restart that never completes.
//
// Both sides starting over
//
// Two endpoints may both start their session with each other over: the
// peers of two sides of a split that both yield to a third, or two
// processes that restarted together. Neither is a survivor then: each
// sends Rejoin Hellos and none has the other's old session to answer
// from. The endpoint with the lower seat answers as a survivor would (a
// restart reply carrying a nonce, then the proof); the other keeps
// ignoring its Hellos, as a new process ignores any Hello, and connects
// through the reply. An endpoint whose handshake with the other timed out
// meanwhile takes part all the same: with the lower seat it answers, with
// the higher it starts its handshake over when the other's Hello
// arrives. The answer's nonce is the one of the answering
// side's own Hellos, drawn when it started over, so that its Hellos still
// on the way when the other has connected through the answer name the
// session they connected, not a restart for the other to answer as a
// survivor: two crossed restart handshakes would leave each side with the
// keys of a different one. So the pair connects under one pair of keys,
// and a replayed Hello still opens a restart that never completes.
//
// A new endpoint meets a new process
//
// An endpoint in its first handshake with a peer, not starting over
// itself, may get the Rejoin Hellos of a new process of the peer: a
// spectator that starts while its host's process is down (it may even
// have taken a Hello of the dead process), and the host's new process
// comes up. The new process ignores the endpoint's plain Hellos (they
// could be a survivor's, of the old session) and connects only through a
// restart reply, so the endpoint answers with one, carrying its Hellos'
// nonce as an answering side that starts over does, and the pair
// connects through the new process's proof.

// restart is a pending restart handshake of a peer's new process.
type restart struct {
	theirs, ours uint64        // the new process's nonce, and ours
	at           time.Duration // when it was opened
	txKey, rxKey wire.Key      // the pair's keys for them
	window       wire.ReplayWindow
	replied      bool
	lastReply    time.Duration
}

// restartHello reports whether the Hello in p from peer i opens or
// repeats a restart handshake, and if so handles it. It is called for a
// Hello that passed the token's tag, before the peer's replay window and
// state are consulted: a new process numbers its packets from scratch.
func (ep *Endpoint[I]) restartHello(now time.Duration, i int, h wire.Header, p []byte) (bool, error) {
	q := &ep.peers[i]
	// This side starts over too (its handshake may have timed out
	// already): see "Both sides starting over".
	over := !q.helloSeen && (q.state == StateHandshaking || q.state == StateDisconnected) &&
		ep.rejoining(q) && !q.open && ep.cfg.Seat != wire.NoSeat && q.seat != wire.NoSeat
	both := over && ep.cfg.Seat < q.seat // and it answers
	// This side is in its first handshake with the peer and does not start
	// over: it answers a new process of the peer as a survivor would (see
	// "A new endpoint meets a new process").
	fresh := q.state == StateHandshaking && !ep.rejoining(q)
	if !q.helloSeen && !q.open && !over && !fresh {
		return false, nil
	}
	var hello wire.Hello
	if _, err := wire.DecodeHello(p, ep.key, nil, &hello); err != nil {
		return false, nil
	}
	if over && !both {
		// The higher seat ignores the lower's Hellos, as a new process
		// ignores any, unless its handshake timed out: then it starts it
		// over, for the lower one to answer.
		if q.state == StateDisconnected && hello.Rejoin && q.seatFits(hello.Seat) {
			return true, ep.Restart(now, core.PeerID(i))
		}
		return false, nil
	}
	// An open peer takes a new process this way at once when it says
	// Rejoin (a player taking an open seat), and past its first handshake
	// whether it says so or not: a spectator does not know it had a
	// predecessor.
	open := q.open && (q.state != StateHandshaking || hello.Rejoin)
	if (!hello.Rejoin && !open) || (!q.helloSeen && !open && !both && !fresh) || (q.helloSeen && hello.Nonce == q.theirNonce) {
		return false, nil
	}
	switch {
	case !q.seatFits(hello.Seat):
		q.st.WrongSeat++
		return true, nil
	case (!open && !both && !fresh && (q.state == StateHandshaking || q.state == StateRefused || q.state == StateLeft)) ||
		wire.CheckProtocol(hello.Protocol) != nil || wire.Compare(ep.cfg.Digest, hello.Config) != nil:
		// Nothing to come back to, or another match: the new process's
		// handshake times out, and a replay of its Hello cannot refuse
		// anything here.
		q.st.Stale++
		return true, nil
	}
	r := q.restart
	if r == nil || r.theirs != hello.Nonce {
		ours := q.nonce // both sides start over, or this one is new: our Hellos' (see above)
		if !both && !fresh {
			var err error
			if ours, err = ep.drawNonce(); err != nil {
				return true, err
			}
		}
		seat, mine := hello.Seat, ep.cfg.Seat
		if seat == wire.NoSeat {
			seat = q.seat
		}
		if q.open && q.seat == wire.NoSeat {
			// A spectator may never have had a Hello of ours, so it cannot
			// know our seat: the keys name none. An open seat's player
			// knows every seat from its configuration.
			mine = wire.NoSeat
		}
		r = &restart{theirs: hello.Nonce, ours: ours, at: now,
			txKey: wire.DirectionKey(ep.cfg.Token, mine, seat, ours, hello.Nonce),
			rxKey: wire.DirectionKey(ep.cfg.Token, seat, mine, hello.Nonce, ours)}
		q.restart = r
	}
	if r.window.Check(h.Seq) != nil {
		q.st.Replayed++
		return true, nil
	}
	if r.replied && now-r.lastReply < ep.cfg.HelloInterval/2 {
		q.st.Limited++
		return true, nil
	}
	r.window.Accept(h.Seq)
	reply := wire.HelloReply{Status: wire.ReplyAccept, Protocol: wire.Protocol, Nonce: hello.Nonce, Config: ep.cfg.Digest, Replier: r.ours}
	out, err := wire.AppendHelloReply(ep.sbuf[:0], ep.key, q.seq, &reply)
	if err != nil {
		return true, nil // unreachable: the status is valid
	}
	r.replied, r.lastReply = true, now
	q.st.RepliesSent++
	return true, ep.send(now, i, out)
}

// restartProof checks a packet that failed peer i's receive key against
// the pending restart's, and on success makes the restart the peer's
// session: the new keys, nonces and window, connected, with
// EventRestarted. It reports whether it did; the caller then handles the
// packet as any other.
func (ep *Endpoint[I]) restartProof(now time.Duration, i int, p []byte) bool {
	q := &ep.peers[i]
	r := q.restart
	if r == nil {
		return false
	}
	h, err := wire.ParseHeader(p, r.rxKey, &r.window)
	if err != nil || r.window.Check(h.Seq) != nil {
		return false
	}
	q.restart = nil
	q.nonce, q.theirNonce = r.ours, r.theirs
	q.txKey, q.rxKey = r.txKey, r.rxKey
	q.window = r.window
	q.jumpPending = false
	q.state, q.lost, q.split = StateConnected, false, false
	q.helloSeen, q.helloAcked = true, true // an open peer's first session may start here
	q.hasEcho, q.unsampled = false, 0
	q.srtt, q.rttvar, q.samples = 0, 0, 0 // the old process's round trips say nothing of the new one's
	q.ackLast, q.ackAge = 0, 0
	q.heard, q.lastHeard, q.lastSent = true, now, now
	q.st.Restarts++
	ep.event(Event{Kind: EventRestarted, Peer: core.PeerID(i), At: now})
	return true
}

// drawNonce reads a nonce from the configured random source.
func (ep *Endpoint[I]) drawNonce() (uint64, error) {
	var b [8]byte
	if _, err := io.ReadFull(ep.rand, b[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}
