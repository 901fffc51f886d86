package rollstep

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/stretchr/testify/require"
)

// One direction of the link between two peers fails for 4 s, longer than
// the disconnect timeout: the peer that hears nothing drops the other and
// plays on, while the other still hears its probes. The probes say the
// sender dropped the receiver. When the receiver is the side to yield
// (peer 1), it drops the sender (PeerLostEvent with Dropped), reports the
// split, yields and rejoins; when it is not (peer 0), it drops the sender
// too, since it outranks it, and plays on, and peer 1, hearing it again
// once the link heals, finds the split and yields. Either way the match
// goes on as one. Before, with the outage toward peer 0, peer 1 froze at
// the frame the outage began while peer 0 played on.
func TestOneWayOutageHeals(t *testing.T) {
	for _, mode := range []Mode{Lockstep, Rollback, Auto} {
		for _, to := range []int{0, 1} {
			t.Run(fmt.Sprintf("%v/toward%d", mode, to), func(t *testing.T) {
				m := oneWayOutage(t, 2, mode, 21, 1-to, to)
				ev := m.awaitRejoin(1) // peer 1, the higher, yields either way
				require.Equal(t, to == 0, droppedOnWord(m.events[1], 0), "peer 1 dropped peer 0 on its word")
				require.Equal(t, to == 1, droppedOnWord(m.events[0], 0), "peer 0 dropped peer 1 on its word")
				m.goesOnAfter(ev.Return, 20*time.Second)
			})
		}
	}
}

// In a match of three, one direction of the link between peers 1 and 0
// fails for 4 s: peer 0 loses peer 1 and peer 2 agrees to drop it, though
// it still hears peer 1 (a split, for peer 2). Peer 1 learns from peer
// 0's probes that it was dropped, yields and rejoins from peer 0. It never
// counted peer 2 apart, so it speaks to peer 2 on their old session,
// which peer 2 takes back once the match settled peer 1's return. Before,
// peer 2 went on dropping those packets and waited for peer 1's inputs
// for good.
func TestOneWayOutageOfThree(t *testing.T) {
	for _, mode := range []Mode{Lockstep, Rollback, Auto} {
		t.Run(mode.String(), func(t *testing.T) {
			m := oneWayOutage(t, 3, mode, 22, 1, 0)
			ev := m.awaitRejoin(1)
			back := false
			for _, e := range m.events[2] {
				if r, ok := e.(core.RejoinEvent); ok && r.Peer == 1 && r.Err == nil {
					back = true
				}
			}
			m.goesOnAfter(ev.Return, 20*time.Second)
			require.True(t, back, "peer 2 reports peer 1 back")
		})
	}
}

// In a match of three, one direction of the link from peer 1 to peer 2
// fails for 4 s: peer 2 loses peer 1 and declares it gone, which peer 0
// does not adopt (peer 2 is lower-ranked than peer 1), so peer 2 waits for
// an agreement that never comes, while peers 0 and 1 wait for peer 2's
// inputs. Peer 1 learns from peer 2's probes that it was dropped and, as
// it outranks peer 2, drops it in turn; peer 0 adopts that, peer 2 learns
// from their probes that it was dropped, yields and rejoins. Before, the
// match froze until peer 0 gave peer 2 up (150 s in the sim), and ended
// in two groups.
func TestOneWayOutageOfTheHigherPeer(t *testing.T) {
	for _, mode := range []Mode{Lockstep, Rollback, Auto} {
		t.Run(mode.String(), func(t *testing.T) {
			m := oneWayOutage(t, 3, mode, 23, 1, 2)
			ev := m.awaitRejoin(2)
			// Player 2 is peer 1 of sessions 0 and 1.
			require.True(t, droppedOnWord(m.events[1], 1), "peer 1 dropped peer 2 on its word")
			require.False(t, droppedOnWord(m.events[0], 1), "peer 0 adopted peer 1's drop")
			require.GreaterOrEqual(t, ev.Discarded, core.Frame(0))
			m.goesOnAfter(ev.Return, 20*time.Second)
		})
	}
}

// droppedOnWord reports whether evs hold a core.PeerLostEvent of peer
// with Dropped: the session dropped it on its word that it was dropped.
func droppedOnWord(evs []core.Event, peer core.PeerID) bool {
	for _, e := range evs {
		if l, ok := e.(core.PeerLostEvent); ok && l.Dropped && l.Peer == peer {
			return true
		}
	}
	return false
}

// In a match of three, the link between peers 1 and 2 fails, one way or
// both, for 15 s: far longer than a rejoin. Peer 2, dropped by the others,
// yields and comes back through peer 0, but peer 1 still cannot hear it:
// peer 1 drops it again once it went unheard for the disconnect timeout
// since its return (its PeerLostEvent says so), the others adopt that, and
// peer 2 yields again (later each time: a return stalls peers 0 and 1),
// until the link heals and its return holds. Peers 0 and 1 play on all
// along. Before, peer 1 waited for the returned peer's inputs for good,
// and the match froze.
func TestPartialPartitionOutlastsARejoin(t *testing.T) {
	for _, mode := range []Mode{Lockstep, Rollback, Auto} {
		for _, both := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v/both=%v", mode, both), func(t *testing.T) {
				m := newCrashMatch(t, 3, mode, 0, 24)
				m.run(func() bool { return m.lowest() >= 200 })
				m.cut(1, 2)
				if both {
					m.cut(2, 1)
				}
				from := m.peers[0].sess.Frame()
				// While peer 2 waits out its backoff, told it was dropped,
				// it says it is rejoining: the game shows "reconnecting".
				waits, silent := 0, 0
				m.each = func() {
					s := m.peers[2].sess
					if b := &s.rejoin.backoff; b.told && b.holds(m.now) && m.now-b.toldAt < 500*ms {
						waits++
						if !s.Stats().Rejoining {
							silent++
						}
					}
				}
				m.runFor(15 * time.Second)
				m.each = nil
				require.Positive(t, waits, "peer 2 waited out a backoff")
				require.Zero(t, silent, "steps of its backoff in which peer 2 did not say it was rejoining")
				require.Greater(t, m.peers[0].sess.Frame()-from, core.Frame(15*60/3), "peers 0 and 1 played on")
				unheard := false
				for _, e := range m.events[1] {
					if l, ok := e.(core.PeerLostEvent); ok && l.Peer == 1 && errors.Is(l.Err, errUnheard) {
						unheard = true
					}
				}
				require.True(t, unheard, "peer 1 dropped the returned peer 2 it could not hear")
				m.net.Heal()
				back := m.awaitNewRejoin(2)
				m.goesOnAfter(back.Return, 20*time.Second)
			})
		}
	}
}

// Two one-way outages in a match of four: the link from peer 2 to peer 1
// fails, then, a second later, the one from peer 1 to peer 0, for 3 s.
// Peer 1 declares peer 2 gone, which peer 3 adopts (peer 1 outranks peer
// 2) and peer 0 never hears; then peer 0 declares peer 1 gone, which the
// others adopt. Peer 0 never drops peer 2, so peer 3's disconnect of it
// is never agreed: it waited for good, and held every peer back. Now it
// starts over once it has waited, blocked, for two disconnect timeouts,
// and the others bring it back.
func TestTwoOutagesUnstick(t *testing.T) {
	for _, mode := range []Mode{Lockstep, Rollback, Auto} {
		t.Run(mode.String(), func(t *testing.T) {
			m := newCrashMatch(t, 4, mode, 0, 25)
			m.run(func() bool { return m.lowest() >= 200 })
			m.cut(2, 1)
			m.runFor(time.Second)
			m.cut(1, 0)
			m.runFor(3 * time.Second)
			m.net.Heal()
			m.goesOnAfter(m.peers[0].sess.Frame()+60, 30*time.Second)
		})
	}
}

// oneWayOutage starts a match of n peers and, at frame 200, cuts the link
// from peer from to peer to for 4 s, longer than the disconnect timeout,
// then heals it.
func oneWayOutage(t *testing.T, n int, mode Mode, seed uint64, from, to int) *crashMatch {
	t.Helper()
	m := newCrashMatch(t, n, mode, 0, seed)
	m.run(func() bool { return m.lowest() >= 200 })
	m.cut(from, to)
	m.runFor(4 * time.Second)
	m.net.Heal()
	return m
}

// cut cuts the link from peer from to peer to, one way.
func (m *crashMatch) cut(from, to int) { m.net.Cut(m.conns[from].ID(), m.conns[to].ID()) }

// awaitNewRejoin plays until peer i has rejoined (its own RejoinEvent,
// without an error) after the events seen so far, and returns that event.
func (m *crashMatch) awaitNewRejoin(i int) core.RejoinEvent {
	m.t.Helper()
	seen := len(m.events[i])
	var back core.RejoinEvent
	m.run(func() bool {
		for _, e := range m.events[i][seen:] {
			if r, ok := e.(core.RejoinEvent); ok && r.Peer == -1 && r.Err == nil {
				back = r
				return true
			}
		}
		return false
	})
	return back
}
