package rollstep

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/transfer"
	"github.com/rollstep/rollstep/internal/wire"
)

// ErrRejoin is matched by the error of a rejoin that failed: the one a
// core.RejoinEvent carries, and the one Update returns to a session with
// Config.Rejoin whose rejoin failed.
var ErrRejoin = errors.New("rollstep: rejoin failed")

// Rejoin
//
// A survivor's endpoint reports a restarted process of a peer's seat
// (EventRestarted) once it proved it holds the match token. Every
// survivor declares the old process disconnected. The sponsor, the
// survivor with the lowest player handle it still hears, waits until the
// disconnect is agreed and confirmed, sends the engine's Snapshot
// (compressed, paced, acknowledged: internal/transfer over Transfer
// packets), then queues the return (ReturnPeer, with a lead that covers a
// round trip and the input delay), and once the command is written sends
// the Handoff record. The new process resumes from both, replays to the
// handoff frame, checks the sponsor's checksum, fast-forwards to the
// others' frame and plays from the return frame. The survivors keep
// playing all along: the transfer is paced so their frames keep their
// time, and until the return frame the returning players' inputs are
// InputDisconnected, which the game already handles. A sponsor lost after
// the return is agreed and before the process has the handoff is replaced
// by the lowest survivor, which sends its own state and the handoff of
// that return (takeOver).

// Rejoin defaults and bounds.
const (
	defaultRejoinTimeout = 30 * time.Second
	rejoinLog            = 30 * time.Second // of frames the input log keeps so a handoff can be built
	maxHandoffSize       = transfer.MaxSize
	catchUpFrames        = 256 // frames a resumed session runs per Update until it has caught up
)

// A rejoin's snapshot has an odd transfer ID, its handoff the next.

// sponsorship is a survivor's side of one peer's rejoin, when it is the
// sponsor.
type sponsorship struct {
	peer      core.PeerID
	begun     time.Duration
	snapFrame core.Frame
	handFrame core.Frame
	id        uint32 // the snapshot's transfer ID; the handoff's is id+1
	stage     int    // stageAgree, stageSnapshot, stageReturn, stageHandoff
	takeover  bool   // the return is settled: its sponsor was lost before the handoff (takeOver)
	push      *transfer.Push
	sent      transfer.SenderStats
	ret       core.Frame
}

const (
	stageAgree = iota
	stageSnapshot
	stageReturn
	stageHandoff
)

// comeback is the session's own rejoin, with Config.Rejoin: the
// snapshot and the handoff, from the sponsor, from.
type comeback struct {
	active     bool
	clock      bool // begun is set
	begun      time.Duration
	from       core.PeerID
	snap, hand transfer.Pull
	err        error
	catchUp    bool
	ret        core.Frame
	discarded  core.Frame // a yielded split: the frames played apart
	yielded    bool       // the comeback is a yielded split's: the engine still holds this side's match
	below      uint64     // a yield's: the peers below its side, one of which it yields to
	// ended is set once a peer left with the match ended at endedAt: its
	// side reached the end, and no rejoin can complete any more.
	ended   bool
	endedAt core.Frame
	// lost has bit i while peer i, lost since the comeback began, is not
	// heard again: the engine it resumes declares it disconnected, as
	// this session would have. lostErr is the newest such loss's error.
	lost    uint64
	lostErr error
}

// received sums the transfers' counters.
func (me *comeback) received() (bytes int64, chunks, dups int) {
	return me.snap.Bytes + me.hand.Bytes, me.snap.Chunks + me.hand.Chunks, me.snap.Duplicates + me.hand.Duplicates
}

// rejoins is the rejoin state of a session.
type rejoins[S any, I comparable] struct {
	me      comeback
	sponsor *sponsorship
	// waiting has bit i while peer i's new process is back but its return
	// is not settled here; began[i] is when it came back.
	waiting uint64
	began   []time.Duration
	// restarts[i] is how many returns of peer i the engine must have
	// settled for its current process to be back: one more than it had
	// settled when the process proved itself, unless it was back already.
	// A process that handshakes again before its return (it lost this
	// session mid-rejoin) needs no second one.
	restarts []int
	// handed has bit i once this session sent the handoff of peer i's
	// current process.
	handed uint64
	// unheard has bit i while peer i, returned since this endpoint lost
	// it, is not heard here, since unheardSince[i] (resumeReturned).
	unheard      uint64
	unheardSince []time.Duration
	// resumed has bit i while this endpoint took peer i's return back on
	// its old session (resumeReturned) and has not heard its players
	// since: the process may be a restarted one, whose handshake with
	// this endpoint is still to come (restarted).
	resumed uint64
	// backoff spaces out the yields of a session dropped again soon
	// after each return (droppedBy).
	backoff yieldBackoff
	// stuck is set while the engine waits, blocked at stuckFrame since
	// stuckSince, for an agreement to a disconnect (unstick).
	stuck      bool
	stuckSince time.Duration
	stuckFrame core.Frame
	nextID     uint32
	// otherEnded is set once a yield was given up because the side it
	// yielded to ended the match: this session yields no more.
	otherEnded bool
	// tamper, set only by tests, changes a snapshot before it is sent:
	// a lying sponsor.
	tamper func([]byte)
}

// restarted handles a peer's new process proving itself (EventRestarted).
func (s *Session[S, I]) restarted(now time.Duration, i core.PeerID) {
	rj := &s.rejoin
	if rj.resumed&(1<<i) != 0 && !s.eng.Heard(i) {
		// The process the match brought back while this endpoint had
		// lost the peer (a session that yielded starts over as a new
		// process) finished its handshake with this endpoint only now.
		// Its return is taken and reported already: it is no new crash.
		rj.resumed &^= 1 << i
		s.ts.Forget(int(i))
		return
	}
	rj.resumed &^= 1 << i
	// The old process is gone, unless the others brought this new one back
	// before this endpoint finished its handshake: then the engine settled
	// more returns than the peer's previous process needed.
	back := s.eng.Returns(i) > rj.restarts[i]
	rj.restarts[i] = s.eng.Returns(i) + 1
	if back {
		rj.restarts[i]--
	}
	for _, p := range s.cfg.Peers[i].Players {
		if _, ok := s.eng.Disconnected(p); !ok && !back {
			_ = s.eng.DisconnectPeer(i) // i is a player peer
			break
		}
	}
	s.ts.Forget(int(i))
	rj.waiting |= 1 << i
	rj.handed &^= 1 << i
	rj.began[i] = now
	// One rejoin at a time: while another is under way here, this one
	// waits its turn, which rejoinTick gives it. A session coming back
	// itself sponsors nobody: the state it has is about to be replaced,
	// and who sponsors is decided on the state it takes (rejoinTick).
	if !rj.me.active && s.sponsorOf(i) && (rj.sponsor == nil || rj.sponsor.peer == i) {
		rj.nextID += 2
		rj.sponsor = &sponsorship{peer: i, begun: now, id: rj.nextID - 1}
	}
}

// reconnected handles a peer connected mid-match whose players the
// engine counts disconnected, which is not a restart this session
// answered: a peer that yielded a split as this session did, the two
// starting their session over toward each other. Its process has a return
// to come as a restarted one has.
func (s *Session[S, I]) reconnected(now time.Duration, i core.PeerID) {
	p := s.cfg.Peers[i]
	if s.watch != nil || !s.started {
		return // a spectator's host; or the match's first handshakes
	}
	if _, apart := s.eng.Disconnected(p.Players[0]); apart && !s.untaken(i) {
		s.restarted(now, i)
	}
}

// maybeYield heals a split with peer i, heard again after both sides
// played apart since frame at, by the rule every peer computes alike: the
// side whose lowest player handle is higher yields. A session's side is
// itself and the peers it still hears; each session of the yielding side
// throws its frames away and rejoins as a restarted process would, toward
// every peer it lost (one after the other: a sponsor takes one rejoin at
// a time), keeping its sessions with its own side.
func (s *Session[S, I]) maybeYield(now time.Duration, i core.PeerID, at core.Frame) {
	me := &s.rejoin.me
	if me.active {
		// Coming back, this session has nothing to keep: it lost the
		// peer before it got the match's state, and starts its restart
		// handshake with it over, which a sponsor needs.
		_ = s.ep.Restart(now, i) // i is in the table; a failed nonce draw leaves it lost
		return
	}
	if s.end.ready(s.eng) || s.rejoin.otherEnded {
		// Every frame is played, or the other side ended the match: the
		// split is reported, not healed (holdEnd, unyield).
		return
	}
	// A session catching up after its return holds the match's state and
	// yields like any other.
	if slices.Min(s.cfg.Peers[i].Players) > s.sideLowest() {
		return // the other side's to yield
	}
	s.yield(now, at, -1)
}

// droppedBy handles peer j's word (its probe) that it lost this session
// and plays on without it, though this session still hears it: one
// direction of the link failed, or the others agreed to drop this
// session. Without an answer, this session would wait for j's inputs for
// good, j's probes keeping it alive. When j's side is lower than this
// session's would be without j, this session is the side to yield: it
// drops j (a core.PeerLostEvent with Dropped), reports the split and
// yields, as after any split. When this session outranks j (its lowest
// player handle is below j's), it drops j: the engines' rule for two
// peers that lost each other keeps the higher-ranked one, and the others
// adopt its declaration, which j's of this session never gets (so j,
// with more peers, waits for an agreement that never comes). j, dropped
// by all and told so by their probes, yields and comes back (a
// RejoinEvent follows).
// Otherwise it does nothing: a peer that outranks j drops it, or j finds
// the split itself. Nor does a session coming back, one whose every
// frame is played, or one whose other side ended.
func (s *Session[S, I]) droppedBy(now time.Duration, j core.PeerID) {
	if s.rejoin.me.active || s.rejoin.otherEnded || s.end.ready(s.eng) || !s.hears(j) {
		return
	}
	theirs := slices.Min(s.cfg.Peers[j].Players)
	yield := theirs < s.sideLowestBut(j)
	if !yield && theirs < slices.Min(s.cfg.Local) {
		return
	}
	if yield && !s.rejoin.backoff.mayYield(now) {
		return // frozen meanwhile, as in a match it cannot reach; Stats().Rejoining says so
	}
	_ = s.ep.Disconnect(j) // j is in the table
	s.drop(now, core.PeerLostEvent{Peer: j, Err: endpoint.ErrDropped, Dropped: true}, true)
	if yield {
		s.yield(now, s.split(now, j), -1)
	}
}

// stuckTimeouts is how many disconnect timeouts a session waits, blocked,
// for the agreement to a disconnect it declared before it starts over.
const stuckTimeouts = 2

// unstick starts this session over toward every peer, as a process that
// restarted would, when its engine has waited stuckTimeouts disconnect
// timeouts, blocked at one frame, for the other peers' agreement to a
// disconnect it declared. With several links broken at once it may have
// adopted a declaration by a peer that is gone since, which the others
// never make (the engines' rule for partial partitions covers one broken
// pair): it would wait for good, and hold every peer back. It keeps its
// engine until it takes the match's state from the lowest side, as a
// yield does, and the others, hearing its restart, bring it back. Not a
// spectator, nor a session coming back, waiting out its yield's backoff,
// or whose match ended; nor while this session sponsors a rejoin or a
// peer's session with it starts over, since the agreement may wait for
// that rejoin: starting over then (the lowest survivor, with another
// peer's process restarting after a blackout) left nobody to bring it
// back, and its rejoin timed out.
func (s *Session[S, I]) unstick(now time.Duration) {
	rj := &s.rejoin
	if !s.eng.Undecided() || s.watch != nil || rj.me.active || rj.otherEnded || rj.backoff.holds(now) ||
		rj.sponsor != nil || s.handshaking() || s.end.ready(s.eng) || s.eng.WaitingFor() == 0 {
		rj.stuck = false
		return
	}
	if f := s.eng.Frame(); !rj.stuck || rj.stuckFrame != f {
		rj.stuck, rj.stuckSince, rj.stuckFrame = true, now, f
		return
	}
	if now-rj.stuckSince < stuckTimeouts*s.endWait {
		return
	}
	rj.stuck = false
	for j := range s.cfg.Peers {
		_ = s.ep.Restart(now, core.PeerID(j)) // j is in the table; a failed nonce draw leaves it as it was
	}
	s.comeBack(now, 0, 0)
}

// handshaking reports whether a player peer's session with this one is
// (re)starting: a rejoin may be under way, which agreements wait for.
func (s *Session[S, I]) handshaking() bool {
	for j := range s.cfg.Peers {
		if s.ep.State(core.PeerID(j)) == endpoint.StateHandshaking {
			return true
		}
	}
	return false
}

// sideLowest returns the lowest player handle of this session's side:
// its own players' and those of the peers it hears (connected or
// interrupted) whose players its engine does not count disconnected,
// but the one it sponsors. A restarted process is on no side until it
// took a side's state: every side may offer it (after a split, each
// finds itself the lowest survivor), it takes the lowest side's, and
// every side counting it as its own would have none yield.
func (s *Session[S, I]) sideLowest() core.PlayerHandle { return s.sideLowestBut(-1) }

// sideLowestBut is sideLowest with peer but counted off this session's
// side (-1 for none).
func (s *Session[S, I]) sideLowestBut(but core.PeerID) core.PlayerHandle {
	lowest := slices.Min(s.cfg.Local)
	for j, p := range s.cfg.Peers {
		if core.PeerID(j) == but || !s.hears(core.PeerID(j)) {
			continue
		}
		sponsored := s.rejoin.sponsor != nil && s.rejoin.sponsor.peer == core.PeerID(j)
		if _, gone := s.eng.Disconnected(p.Players[0]); !gone && !sponsored {
			lowest = min(lowest, slices.Min(p.Players))
		}
	}
	return lowest
}

// yield throws this session's side away, as of frame at, and starts its
// rejoin toward every peer not on its side: every peer it lost, and every
// one it hears whose players its engine counts disconnected (such as a
// restarted process whose proof arrived after the peer had lost this
// session: the two ends disagree on the session between them, and
// starting it over makes them agree), but peer to, whose offer it takes,
// if any (-1 for none). A rejoin it was sponsoring goes with its side:
// the returning peer takes its state from the side kept.
func (s *Session[S, I]) yield(now time.Duration, at core.Frame, to core.PeerID) {
	for j, p := range s.cfg.Peers {
		id := core.PeerID(j)
		_, apart := s.eng.Disconnected(p.Players[0])
		if id != to && (s.ep.State(id) == endpoint.StateDisconnected || (s.hears(id) && apart && !s.untaken(id))) {
			_ = s.ep.Restart(now, id) // id is in the table; a failed nonce draw leaves it lost
		}
	}
	var below uint64
	lowest := s.sideLowest()
	for j, p := range s.cfg.Peers {
		if slices.Min(p.Players) < lowest {
			below |= 1 << j
		}
	}
	s.comeBack(now, max(s.eng.Frame()-max(at, 0), 0), below)
}

// comeBack starts the comeback of a session that gives its side up
// (yield, unstick), once it started its sessions over toward the peers it
// takes the match's state from: it keeps its engine until it has that
// state, discarded is the frames it throws away, and below has the peers
// below its side (0 if none is known). A rejoin it was sponsoring ends.
func (s *Session[S, I]) comeBack(now time.Duration, discarded core.Frame, below uint64) {
	rj := &s.rejoin
	if sp := rj.sponsor; sp != nil {
		s.addSent(sp)
		rj.sponsor = nil
	}
	rj.me = comeback{active: true, clock: true, begun: now, discarded: discarded, yielded: true, below: below}
	rj.backoff.told = false
}

// lowerPeer reports whether peer i's lowest player handle is below peer j's.
func (s *Session[S, I]) lowerPeer(i, j core.PeerID) bool {
	return slices.Min(s.cfg.Peers[i].Players) < slices.Min(s.cfg.Peers[j].Players)
}

// offeredFromBelow handles a snapshot offer from peer i that this session
// did not ask for: i believes this session restarted, because it yielded
// a split to another side than i's (it heard that side first) and, as
// every yielding session does, started over with i too. When i's side is
// the lower, the side this session joined will yield to it in turn, so
// this session yields again, to i, and reports whether it did. A split
// of more than two sides thus heals to the side of the lowest player
// handle, whatever order the sides heard each other in.
func (s *Session[S, I]) offeredFromBelow(now time.Duration, i core.PeerID) bool {
	at, apart := s.eng.Disconnected(s.cfg.Peers[i].Players[0])
	if !apart || slices.Min(s.cfg.Peers[i].Players) > s.sideLowest() {
		return false
	}
	s.yield(now, at, i)
	return true
}

// abandonRejoin ends what this session does for peer i's rejoin when
// the peer left or was lost: its process is gone, and a new one, if any,
// starts a rejoin of its own. A rejoin it sponsored fails with a
// core.RejoinEvent.
func (s *Session[S, I]) abandonRejoin(now time.Duration, i core.PeerID, left bool) {
	rj := &s.rejoin
	rj.waiting &^= 1 << i
	if sp := rj.sponsor; sp != nil && sp.peer == i {
		why := "the peer was lost"
		if left {
			why = "the peer left"
		}
		s.failSponsorship(now, sp, errors.New(why))
	}
}

// sponsorOf reports whether this session sends peer i's rejoin: it has
// the lowest player handle of the survivors that may still be there (any
// peer not given up: connected, interrupted, or still handshaking, as at
// the start of a match). Should the sponsor be given up later, the next
// one takes over (see rejoinTick).
func (s *Session[S, I]) sponsorOf(i core.PeerID) bool {
	mine := slices.Min(s.cfg.Local)
	for j, p := range s.cfg.Peers {
		switch s.ep.State(core.PeerID(j)) {
		case endpoint.StateConnected, endpoint.StateInterrupted, endpoint.StateHandshaking:
		default:
			continue
		}
		if core.PeerID(j) == i || s.untaken(core.PeerID(j)) {
			continue // the returning peer, or a seat nobody took yet
		}
		if _, gone := s.eng.Disconnected(p.Players[0]); !gone && slices.Min(p.Players) < mine {
			return false
		}
	}
	return true
}

// rejoinTick advances the rejoins of this Update, after the frames ran.
func (s *Session[S, I]) rejoinTick(now time.Duration) error {
	rj := &s.rejoin
	s.resumeReturned(now)
	for w := rj.waiting; w != 0; w &= w - 1 {
		i := core.PeerID(bits.TrailingZeros64(w))
		// Settled once the engine settled a return for each restart seen
		// (an earlier return of the peer does not count).
		if r, _, ok := s.eng.Returning(i); ok && s.eng.Returns(i) >= rj.restarts[i] {
			rj.waiting &^= 1 << i
			if sp := rj.sponsor; sp != nil && sp.peer == i && sp.stage < stageReturn {
				// Another survivor's return command came first (it
				// sponsored while this one thought it had to): the new
				// process took that sponsor's state.
				s.addSent(sp)
				rj.sponsor = nil
			}
			if rj.sponsor == nil || rj.sponsor.peer != i {
				s.event(core.RejoinEvent{Peer: i, Return: r, Took: now - rj.began[i]})
			}
			continue
		}
		if _, apart := s.eng.Disconnected(s.cfg.Peers[i].Players[0]); apart && rj.sponsor == nil && s.sponsorOf(i) {
			// This session's turn: the rejoin before it ended, or the
			// sponsor was given up before the return (take over); not
			// before the engine drops the old process, which a peer
			// counted waiting at a resume may never need (see recount).
			rj.nextID += 2
			rj.sponsor = &sponsorship{peer: i, begun: now, id: rj.nextID - 1}
		}
	}
	if !rj.me.active && (rj.sponsor == nil || !rj.sponsor.takeover) {
		s.takeOver(now)
	}
	if sp := rj.sponsor; sp != nil {
		return s.sponsorTick(now, sp)
	}
	return nil
}

// resumeReturned takes back, on its old session, a peer this endpoint
// lost and heard again since (a split), whose return the match settled
// since without a new session with this endpoint: it yielded a split to
// a side this session had joined in dropping it, which brought it back
// (another survivor sent the state and the return command), and it never
// counted this session apart. Its inputs come on the old session, which
// the endpoint would go on dropping: this session would wait for them
// for good. Its RejoinEvent follows (rejoinTick).
//
// A returned peer this endpoint cannot take back, and does not hear on a
// new session either for the disconnect timeout, is dropped again
// (dropUnheard): the link between the two is still down (a partial
// partition), and this session would wait for its inputs for good.
func (s *Session[S, I]) resumeReturned(now time.Duration) {
	rj := &s.rejoin
	if !s.eng.AnyReturn() { // every peer is the first case below
		rj.unheard = 0
		return
	}
	for j, p := range s.cfg.Peers {
		id := core.PeerID(j)
		switch {
		case s.eng.Returns(id) <= s.lossReturns[j] || s.ep.State(id) != endpoint.StateDisconnected || s.apart(p):
			rj.unheard &^= 1 << j // the common case, every Update: no return to take
		case s.ep.Resume(now, id):
			rj.unheard &^= 1 << j
			rj.resumed |= 1 << j
			rj.waiting |= 1 << j
			rj.restarts[j] = s.eng.Returns(id)
			rj.began[j] = now
		case rj.unheard&(1<<j) == 0:
			rj.unheard |= 1 << j
			rj.unheardSince[j] = now
		case now-rj.unheardSince[j] >= s.endWait:
			s.dropUnheard(now, id)
		}
	}
}

// apart reports whether the engine counts peer p's players disconnected.
func (s *Session[S, I]) apart(p Peer) bool {
	_, gone := s.eng.Disconnected(p.Players[0])
	return gone
}

// errUnheard is the Err of the core.PeerLostEvent of a returned peer
// dropped again because this session did not hear it (dropUnheard).
var errUnheard = errors.New("rollstep: the match brought the peer back, but this session has not heard it since")

// dropUnheard drops peer id, whose return the match settled while this
// session, which had lost it, has not heard it since for the disconnect
// timeout: the link between them is still down. When this session
// outranks the peer, the others adopt the drop, as they would a timeout,
// and the peer, told by their probes, yields and comes back again once
// the link heals; otherwise a peer that outranks it decides. Not while
// this session comes back itself, nor once every frame is played.
func (s *Session[S, I]) dropUnheard(now time.Duration, id core.PeerID) {
	if s.rejoin.me.active || s.end.ready(s.eng) {
		return
	}
	s.rejoin.unheard &^= 1 << id
	s.drop(now, core.PeerLostEvent{Peer: id, Err: errUnheard}, true)
}

// takeOver sponsors a peer whose return this engine settled when nobody
// else will send it the handoff, and the peer's new process has not been
// heard since: the command's sponsor is lost, or it was this session,
// which gave the rejoin up before its handoff. Without the handoff nobody
// holds the match's state for the process, and nobody can agree a
// disconnect without its vote, or confirm its return frame: the match
// would freeze. So this comes first: a rejoin this session sponsors
// waits (it starts over once the sponsor is free). The lowest survivor
// sends its own snapshot and the handoff of the agreed return, which the
// process takes from a sponsor that replaced a silent one (startsOver).
func (s *Session[S, I]) takeOver(now time.Duration) {
	rj := &s.rejoin
	if !s.eng.AnyReturn() {
		return // no peer is Returning
	}
	for j, p := range s.cfg.Peers {
		id := core.PeerID(j)
		if _, settled, ok := s.eng.Returning(id); !ok || !settled || s.eng.Heard(id) {
			continue // the common case, every Update: no return awaits a handoff
		}
		by, remote := s.eng.ReturnedBy(id)
		if !s.hears(id) || (remote && s.hears(by)) || (!remote && rj.handed&(1<<j) != 0) {
			continue
		}
		if rj.sponsor != nil && rj.sponsor.peer == id {
			return // its handoff is on the way
		}
		if _, gone := s.eng.Disconnected(p.Players[0]); gone || !s.sponsorOf(id) {
			continue
		}
		if sp := rj.sponsor; sp != nil {
			s.addSent(sp)
		}
		rj.nextID += 2
		rj.sponsor = &sponsorship{peer: id, begun: now, id: rj.nextID - 1, takeover: true}
		return
	}
}

// sponsorTick moves the sponsored rejoin on.
func (s *Session[S, I]) sponsorTick(now time.Duration, sp *sponsorship) error {
	rj := &s.rejoin
	fail := func(err error) error {
		s.failSponsorship(now, sp, err)
		return nil
	}
	if now-sp.begun > s.cfg.RejoinTimeout {
		return fail(errors.New("timed out"))
	}
	if sp.takeover && s.eng.Heard(sp.peer) {
		s.addSent(sp) // the process resumed from another sponsor's handoff
		rj.sponsor = nil
		return nil
	}
	switch sp.stage {
	case stageAgree:
		for _, p := range s.cfg.Peers[sp.peer].Players {
			if sp.takeover {
				break // its disconnect was agreed and its return settled
			}
			d, ok := s.eng.Disconnected(p)
			if c, cok := s.eng.ConfirmedFrame(); !ok || !cok || c < d {
				return nil
			}
		}
		f, snap, err := s.eng.Snapshot(nil)
		if err != nil {
			return nil // not held yet: the next frame has it
		}
		sp.snapFrame = f
		if rj.tamper != nil {
			rj.tamper(snap)
		}
		if err := s.offer(now, sp, sp.id, snap); err != nil {
			return fail(err)
		}
		sp.stage = stageSnapshot
	case stageSnapshot:
		if done, err := s.pump(now, sp); err != nil {
			return fail(err)
		} else if !done {
			return nil
		}
		if !sp.takeover {
			if err := s.eng.ReturnPeer(sp.peer, s.returnLead()); err != nil {
				return fail(err)
			}
		}
		sp.stage = stageReturn
	case stageReturn:
		r, _, ok := s.eng.Returning(sp.peer)
		if !ok || s.eng.Returns(sp.peer) < rj.restarts[sp.peer] {
			return nil // the command rides the next input
		}
		sp.ret = r
		rec, err := s.eng.Handoff(sp.peer, sp.snapFrame, nil)
		if err != nil {
			return fail(err)
		}
		sp.handFrame, _ = s.eng.ConfirmedFrame()
		sp.handFrame++
		if err := s.offer(now, sp, sp.id+1, rec); err != nil {
			return fail(err)
		}
		sp.stage = stageHandoff
	case stageHandoff:
		if done, err := s.pump(now, sp); err != nil {
			return fail(err)
		} else if done {
			s.event(core.RejoinEvent{Peer: sp.peer, Snapshot: sp.snapFrame, Handoff: sp.handFrame, Return: sp.ret,
				Bytes: sp.sent.BytesSent, Chunks: sp.sent.ChunksSent, Retransmits: sp.sent.Retransmits, Took: now - rj.began[sp.peer]})
			rj.handed |= 1 << sp.peer
			rj.sponsor = nil
		}
	}
	return nil
}

// failSponsorship ends sponsorship sp with a core.RejoinEvent saying
// why, matching ErrRejoin.
func (s *Session[S, I]) failSponsorship(now time.Duration, sp *sponsorship, err error) {
	s.addSent(sp) // what the transfer under way sent counts too
	s.event(core.RejoinEvent{Peer: sp.peer, Snapshot: sp.snapFrame, Return: sp.ret, Bytes: sp.sent.BytesSent,
		Chunks: sp.sent.ChunksSent, Retransmits: sp.sent.Retransmits, Took: now - sp.begun, Err: fmt.Errorf("%w: %w", ErrRejoin, err)})
	s.rejoin.sponsor = nil
}

// hears reports whether this session hears peer id: connected, or
// interrupted but not yet given up.
func (s *Session[S, I]) hears(id core.PeerID) bool {
	st := s.ep.State(id)
	return st == endpoint.StateConnected || st == endpoint.StateInterrupted
}

// untaken reports whether peer id is an open seat nobody took yet.
func (s *Session[S, I]) untaken(id core.PeerID) bool {
	return s.cfg.Peers[id].Open && s.rejoin.restarts[id] == 0
}

// returnLead is the frames between the return command and the return:
// two round trips and the input delay and window, so the new process
// receives the handoff and sends its first inputs before the others need
// them.
func (s *Session[S, I]) returnLead() int {
	var rtt time.Duration
	for i := range s.cfg.Peers {
		if ps, ok := s.ep.Peer(core.PeerID(i)); ok && ps.RTTSamples > 0 {
			rtt = max(rtt, ps.RTT)
		}
	}
	frames := int(2*rtt/s.pacer.Period()) + s.delayNow() + s.eng.Prediction() + 8
	return min(max(frames, 8), engine.MaxReturnLead)
}

// offer starts the transfer of raw under id.
func (s *Session[S, I]) offer(now time.Duration, sp *sponsorship, id uint32, raw []byte) error {
	push, err := transfer.NewPush(transfer.SenderConfig{Rate: s.cfg.RejoinRate, Timeout: s.cfg.RejoinTimeout}, id, transfer.Compress(raw), len(raw))
	if err != nil {
		return err
	}
	if ps, ok := s.ep.Peer(sp.peer); ok && ps.RTTSamples > 0 {
		push.SetRTT(ps.RTT)
	}
	sp.push = push
	return nil
}

// pump sends what the current transfer may send now, and reports whether
// every chunk is acknowledged.
func (s *Session[S, I]) pump(now time.Duration, sp *sponsorship) (bool, error) {
	done, err := sp.push.Pump(now, func(b []byte) error { return s.ep.SendTransfer(now, sp.peer, b) })
	if done {
		s.addSent(sp)
	}
	return done, err
}

// addSent folds a finished transfer's counters into the sponsorship's.
func (s *Session[S, I]) addSent(sp *sponsorship) {
	if sp.push == nil {
		return
	}
	st := sp.push.Stats()
	sp.sent.BytesSent += st.BytesSent
	sp.sent.ChunksSent += st.ChunksSent
	sp.sent.Retransmits += st.Retransmits
	sp.push = nil
}

// ReceiveTransfer implements endpoint.TransferReceiver.
func (r *receiver[S, I]) ReceiveTransfer(now time.Duration, from core.PeerID, p []byte) {
	s := r.s
	if n := len(s.cfg.Peers); int(from) >= n {
		s.stream.ReceiveTransfer(now, int(from)-n, p)
		return
	}
	if s.watch != nil {
		s.watchTransfer(now, p)
		return
	}
	me := &s.rejoin.me
	if !me.active && p[0] == transfer.KindOffer && (!me.hand.Started() || from != me.from) && s.offeredFromBelow(now, from) {
		s.comebackMessage(now, from, p)
		return
	}
	// After resuming, go on acknowledging the sponsor's chunks: the ack of
	// its last one may have been lost.
	if me.active || (me.hand.Started() && from == me.from && p[0] != transfer.KindAck) {
		s.comebackMessage(now, from, p)
		return
	}
	if sp := s.rejoin.sponsor; sp != nil && sp.peer == from && sp.push != nil {
		sp.push.OnAck(now, p)
	}
}

// comebackMessage takes a Transfer payload of peer from to this session's
// own rejoin: offers and chunks of the snapshot, then of the handoff, all
// from the sponsor whose snapshot offer came first.
func (s *Session[S, I]) comebackMessage(now time.Duration, from core.PeerID, p []byte) {
	me := &s.rejoin.me
	if p[0] == transfer.KindOffer && me.snap.Started() && me.active && s.startsOver(from, p) {
		me.snap, me.hand = transfer.Pull{}, transfer.Pull{}
	}
	if me.snap.Started() && from != me.from {
		return
	}
	size := s.eng.SnapshotSize()
	ack := me.snap.On(p, size, func(o transfer.Offer) bool { return o.ID%2 == 1 && o.RawSize == size })
	if ack == nil && me.snap.Complete() {
		ack = me.hand.On(p, maxHandoffSize, func(o transfer.Offer) bool { return o.ID == me.snap.Offer().ID+1 })
	}
	if ack != nil {
		me.from = from
		_ = s.ep.SendTransfer(now, from, ack) // the sponsor is connected
	}
}

// startsOver reports whether offer p from peer from restarts the
// transfers of this session's rejoin, which took a snapshot offer from
// me.from: that sponsor went silent before the handoff and another took
// over; or a sponsor of a lower side offers, which the first sponsor's
// side will yield to as well; or the sponsor gave this rejoin up (it lost
// this session for a while) and offers a later snapshot (odd IDs,
// counting up).
func (s *Session[S, I]) startsOver(from core.PeerID, p []byte) bool {
	me := &s.rejoin.me
	if from != me.from {
		return s.ep.State(me.from) != endpoint.StateConnected || s.lowerPeer(from, me.from)
	}
	o, err := transfer.DecodeOffer(p)
	return err == nil && o.ID%2 == 1 && o.ID > me.snap.Offer().ID
}

// comebackTick resumes this session once the snapshot and the handoff
// arrived, or fails its rejoin. It reports the error that ends it.
func (s *Session[S, I]) comebackTick(now time.Duration) error {
	me := &s.rejoin.me
	if me.err == nil && now-me.begun > s.cfg.RejoinTimeout {
		me.err = fmt.Errorf("%w: timed out after %v", ErrRejoin, s.cfg.RejoinTimeout)
	}
	if me.err == nil && s.noneLeft() {
		me.err = fmt.Errorf("%w: every peer is lost: %w", ErrRejoin, me.lostErr)
	}
	if me.err == nil && me.ended && !(me.snap.Complete() && me.hand.Complete()) {
		me.err = fmt.Errorf("%w: the match ended at frame %d", ErrRejoin, me.endedAt)
	}
	if me.err == nil && me.yielded && s.goneBelow() {
		me.err = fmt.Errorf("%w: every peer of the side it yielded to is lost: %w", ErrRejoin, me.lostErr)
	}
	if me.err != nil && me.yielded {
		s.rejoin.otherEnded = s.rejoin.otherEnded || me.ended
		s.unyield(now, me.err)
		return nil
	}
	if me.err == nil && me.snap.Complete() && me.hand.Complete() {
		me.err = s.resume(now)
		if me.err == nil {
			return nil
		}
	}
	if me.err != nil {
		me.active = false
		bytes, chunks, dups := me.received()
		s.event(core.RejoinEvent{Peer: -1, Bytes: bytes, Chunks: chunks, Retransmits: dups, Took: now - me.begun, Err: me.err})
		s.refused = me.err
		return errors.Join(me.err, s.ep.Leave(now, wire.LeaveQuit, 0))
	}
	return nil
}

// goneBelow reports whether every peer below a yield's side left or was
// lost (its new handshake timed out): no peer of the side it yields to
// can send it the match's state.
func (s *Session[S, I]) goneBelow() bool {
	me := &s.rejoin.me
	for w := me.below; w != 0; w &= w - 1 {
		switch s.ep.State(core.PeerID(bits.TrailingZeros64(w))) {
		case endpoint.StateDisconnected, endpoint.StateLeft:
		default:
			return false
		}
	}
	return me.below != 0
}

// unyield gives up a yield that cannot complete (err says why: the other
// side ended the match or is gone, or the rejoin timed out) before this
// session took the other side's state. The session keeps its own side,
// whose engine it never gave up, and plays on apart, its split reported
// and not healed; its RejoinEvent says why the rejoin failed. Peers it
// restarted its handshake with are not on its side: it stops talking to
// them.
func (s *Session[S, I]) unyield(now time.Duration, err error) {
	me := &s.rejoin.me
	bytes, chunks, dups := me.received()
	s.event(core.RejoinEvent{Peer: -1, Bytes: bytes, Chunks: chunks, Retransmits: dups, Took: now - me.begun, Err: err})
	s.rejoin.me = comeback{}
	for j, p := range s.cfg.Peers {
		if _, apart := s.eng.Disconnected(p.Players[0]); apart {
			_ = s.ep.Disconnect(core.PeerID(j)) // j is in the table
		}
	}
}

// noneLeft reports whether a session coming back has given up every peer
// (each handshake timed out): no sponsor can answer it.
func (s *Session[S, I]) noneLeft() bool {
	if s.rejoin.me.lost == 0 {
		return false
	}
	for j := range s.cfg.Peers {
		if id := core.PeerID(j); s.ep.State(id) != endpoint.StateDisconnected && !s.untaken(id) {
			return false
		}
	}
	return true
}

// resume builds the engine of this session's return from the snapshot
// and the handoff.
func (s *Session[S, I]) resume(now time.Duration) error {
	me := &s.rejoin.me
	snap, err := me.snap.Raw(s.eng.SnapshotSize())
	if err != nil {
		return fmt.Errorf("%w: snapshot: %w", ErrRejoin, err)
	}
	rec, err := me.hand.Raw(maxHandoffSize)
	if err != nil {
		return fmt.Errorf("%w: handoff: %w", ErrRejoin, err)
	}
	eng, err := engine.Resume(s.ecfg, s.game, snap, rec)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrRejoin, err)
	}
	eng.SetPredictor(s.predictor())
	s.eng = eng
	s.stream.Restart(now) // what it streamed is not the match kept
	if s.end.pending {
		// The end this session's game set, or adopted, holds in the engine
		// it takes (which starts at most at the end: no peer simulates
		// past it).
		_ = eng.SetEnd(s.end.at)
	}
	for l := me.lost; l != 0; l &= l - 1 {
		if id := core.PeerID(bits.TrailingZeros64(l)); !s.hears(id) {
			_ = eng.DisconnectPeer(id) // a player peer
		}
	}
	me.lost = 0
	s.recount(now)
	me.active, me.catchUp = false, true
	if me.yielded {
		s.rejoin.backoff.returned(now)
	}
	me.ret, _ = eng.ReturnOf(s.cfg.Local[0])
	*s.view = *eng.State()
	*s.prev = *s.view
	bytes, chunks, dups := me.received()
	s.event(core.RejoinEvent{Peer: -1, Handoff: eng.Frame(), Return: me.ret, Bytes: bytes,
		Chunks: chunks, Retransmits: dups, Took: now - me.begun, Discarded: me.discarded})
	return nil
}

// recount sets what this session knows of its peers' returns anew
// against the engine it just took from a sponsor, whose history of
// returns is the sponsor's. A peer it hears has a return to come (one
// more than that engine settled) when that engine counts its players
// disconnected (a process that yielded or restarted too), or when this
// session saw a new process of it prove itself: the engine may not even
// have dropped the old process yet, and nothing in it tells whether a
// return it settled was the new process's. Waiting for one return too
// many costs little (the peer's next restart needs exactly one more);
// one too few would end the new process's session at the old one's
// agreed disconnect. Every other peer's process needs no return the
// engine has not settled.
func (s *Session[S, I]) recount(now time.Duration) {
	rj := &s.rejoin
	seen := rj.waiting
	rj.waiting = 0
	for j, p := range s.cfg.Peers {
		id := core.PeerID(j)
		rj.restarts[j] = s.eng.Returns(id)
		_, apart := s.eng.Disconnected(p.Players[0])
		if (apart || seen&(1<<j) != 0) && s.hears(id) {
			rj.restarts[j]++
			rj.waiting |= 1 << j
			if seen&(1<<j) == 0 {
				rj.began[j] = now
			}
		}
	}
}

// beforeReturn reports whether this session's inputs are still due before
// its own return frame, as a session that rejoined is until then: the
// engine counts them disconnected. The engine knows that frame: a later
// yield, given up, leaves the session on the engine of this return.
func (s *Session[S, I]) beforeReturn() bool {
	ret, ok := s.eng.ReturnOf(s.cfg.Local[0])
	return ok && s.eng.Frame()+core.Frame(s.delayNow()) < ret
}

// catchUp runs, in a session that just resumed, the frames the others are
// ahead, without pacing, until its own inputs count again (the return
// frame less the input delay): the game renders nothing in between. It
// returns the last Advance's Ready, to send.
func (s *Session[S, I]) catchUp(now time.Duration) *engine.Ready[I] {
	me := &s.rejoin.me
	var last *engine.Ready[I]
	for range catchUpFrames {
		if !s.beforeReturn() {
			me.catchUp = false
			break
		}
		s.addedOK, s.added = s.addLocal(), s.eng.Frame()
		r := s.eng.Advance(now)
		s.collect(r)
		last = r
		if !r.Stepped {
			break
		}
		s.view, s.prev = s.prev, s.view
		*s.view = *s.eng.State()
	}
	s.effects, s.cancelled = s.effects[:0], s.cancelled[:0] // nothing of the replay is played
	return last
}
