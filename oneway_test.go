package rollstep

import (
	"fmt"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/stretchr/testify/require"
)

// One direction of the link between two peers fails for 4 s, longer than
// the disconnect timeout: the peer that hears nothing drops the other and
// plays on, while the other still hears its probes. The probes say the
// sender lost the receiver. When the receiver is the side to yield (peer
// 1), it drops the sender (PeerLostEvent with Dropped), reports the
// split, yields and rejoins; when it is not (peer 0), it waits, and peer
// 1, hearing it again once the link heals, finds the split and yields.
// Either way the match goes on as one. Before, with the outage toward
// peer 0, peer 1 froze at the frame the outage began while peer 0 played
// on.
func TestOneWayOutageHeals(t *testing.T) {
	for _, mode := range []Mode{Lockstep, Rollback, Auto} {
		for _, to := range []int{0, 1} {
			t.Run(fmt.Sprintf("%v/toward%d", mode, to), func(t *testing.T) {
				m := newCrashMatch(t, 2, mode, 0, 21)
				m.run(func() bool { return m.lowest() >= 200 })
				m.net.Cut(m.conns[1-to].ID(), m.conns[to].ID())
				m.runFor(4 * time.Second)
				m.net.Heal()
				ev := m.awaitRejoin(1) // peer 1, the higher, yields either way
				dropped := false
				for _, e := range m.events[1] {
					if l, ok := e.(core.PeerLostEvent); ok && l.Dropped {
						dropped = true
					}
				}
				require.Equal(t, to == 0, dropped, "peer 1 dropped peer 0 on its word")
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
			m := newCrashMatch(t, 3, mode, 0, 22)
			m.run(func() bool { return m.lowest() >= 200 })
			m.net.Cut(m.conns[1].ID(), m.conns[0].ID())
			m.runFor(4 * time.Second)
			m.net.Heal()
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
