package rollstep

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/stretchr/testify/require"
)

// A sponsor's process dies after its snapshot reached the returning
// process and before its handoff, and a new process of the sponsor's seat
// comes back before the others give the old one up. Once back, the new
// process sponsors the rejoin again, counting its transfers from the
// first; the returning process, which held the old process's snapshot,
// takes the new one's. Before, it took the new process's offer for an
// old one and waited out the rejoin timeout (an 8-peer lockstep match
// of rollstep sim with a 3 s blackout and the sponsor crashing at turn
// 80 left three yielded peers unhealed to the end).
func TestRejoinSponsorRestartsMidRejoin(t *testing.T) {
	m := newCrashMatch(t, 3, Rollback, 0, 31)
	m.run(func() bool { return m.lowest() >= 200 })
	m.crashAndRejoin(2, time.Second) // peer 0 sponsors it: its first transfers
	f := m.lowest()
	m.run(func() bool { return m.lowest() >= f+120 })
	m.kill(1)
	m.runFor(time.Second)
	m.restart(1, nil)
	back := m.peers[1].sess
	m.run(func() bool { return back.rejoin.me.snap.Complete() })
	require.Equal(t, core.PeerID(0), back.rejoin.me.from, "peer 0 sponsors the rejoin")
	m.kill(0)
	m.runFor(500 * ms)
	m.restart(0, nil)
	by := m.now + 10*time.Second
	m.run(func() bool { _, ok := m.rejoined(1); return ok || m.now > by })
	ev, ok := m.rejoined(1)
	require.True(t, ok, "peer 1 rejoined within 10 s of its sponsor's restart")
	require.NoError(t, ev.Err)
	r := m.awaitRejoin(0).Return
	m.goesOnAfter(max(r, ev.Return), 20*time.Second)
}
