package engine

import (
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/stretchr/testify/require"
)

// A return command rides its sponsor's slot D frames ahead, and the
// sponsor settles the return as soon as it holds the command. A peer the
// sponsor brings back right after resumes from a handoff taken in
// between: the first peer is back in that state, and the command reaches
// the resumed engine in a slot past its handoff frame. It ignores it. (It
// took it for a return of its own, one it could never settle since it
// did not count the peer gone; the peer's next disconnect settled it and
// moved its inputs back to the return frame.)
func TestResumedEngineIgnoresASettledReturn(t *testing.T) {
	const d = 6
	m := newMeshWith(t, 4, func(p int, f core.Frame) testInput { return testInput(p*5 + int(f)%3 + 1) },
		func(_ int, c *Config) { c.InputDelay, c.LogRetention = d, 1024 })
	for range 30 {
		for i := range 4 {
			m.advance(i)
		}
		m.exchange()
	}
	// Engines 2 and 3 crash; 0 and 1 agree both gone.
	for i := range 2 {
		require.NoError(t, m.engs[i].DisconnectPeer(peerID(i, 2)))
		require.NoError(t, m.engs[i].DisconnectPeer(peerID(i, 3)))
	}
	for range 20 {
		for i := range 2 {
			m.advance(i)
		}
		m.deliver(0, 1)
		m.deliver(1, 0)
	}
	sp := m.engs[0]
	for _, p := range []core.PlayerHandle{2, 3} {
		g, ok := sp.Disconnected(p)
		c, _ := sp.ConfirmedFrame()
		require.True(t, ok && c >= g, "player %d's disconnect agreed and confirmed", p)
	}

	// The sponsor brings engine 2 back: its command rides slot frame+D.
	snap2, _, err := sp.Snapshot(nil)
	require.NoError(t, err)
	require.NoError(t, sp.ReturnPeer(peerID(0, 2), 10))
	m.advance(0)
	r2, settled, ok := sp.Returning(peerID(0, 2))
	require.True(t, ok && settled, "the sponsor settles its own command at once")
	_, err = sp.Handoff(peerID(0, 2), snap2, nil)
	require.NoError(t, err)

	// Then engine 3, right away: its handoff frame is before the frame of
	// engine 2's command.
	snap3, raw3, err := sp.Snapshot(nil)
	require.NoError(t, err)
	require.NoError(t, sp.ReturnPeer(peerID(0, 3), 10))
	m.advance(0)
	_, settled, ok = sp.Returning(peerID(0, 3))
	require.True(t, ok && settled)
	rec3, err := sp.Handoff(peerID(0, 3), snap3, nil)
	require.NoError(t, err)
	e3, err := Resume[testState, testInput](m.engs[3].cfg, &testGame{}, raw3, rec3)
	require.NoError(t, err)
	require.Less(t, e3.Frame(), r2-10, "engine 3 resumed before the frame of engine 2's command")
	m.engs[3] = e3

	for range 2 * d {
		m.advance(0)
		m.deliver(0, 3)
	}
	require.GreaterOrEqual(t, e3.next[0], r2-10+1, "engine 3 holds the sponsor's slot with engine 2's command")
	_, _, pending := e3.Returning(e3.owner[2])
	require.False(t, pending, "engine 3 took engine 2's settled return for a new one")
}
