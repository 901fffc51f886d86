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
	m.dropAfter30(2, 3) // engines 2 and 3 crash
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

// dropAfter30 has every engine of m play 30 frames; then engines 0 and 1
// declare the engines gone disconnected and play 20 more frames between
// themselves, which agree and confirm the disconnects.
func (m *mesh) dropAfter30(gone ...int) {
	m.t.Helper()
	for range 30 {
		for i := range m.engs {
			m.advance(i)
		}
		m.exchange()
	}
	for i := range 2 {
		for _, g := range gone {
			require.NoError(m.t, m.engs[i].DisconnectPeer(peerID(i, g)))
		}
	}
	for range 20 {
		for i := range 2 {
			m.advance(i)
		}
		m.deliver(0, 1)
		m.deliver(1, 0)
	}
}

// A survivor that did not send a return command can hand the returning
// peer off all the same, as the session does when the sponsor is lost
// after the command and before its handoff: it settled the same return.
// ReturnedBy names the sponsor, and Heard says whether the new process
// spoke since.
func TestHandoffByAnotherSurvivor(t *testing.T) {
	m := newMeshWith(t, 3, func(p int, f core.Frame) testInput { return testInput(p*7 + int(f)%5 + 1) },
		func(_ int, c *Config) { c.InputDelay, c.LogRetention = 2, 1024 })
	m.dropAfter30(2) // engine 2 crashes
	require.True(t, m.engs[1].Heard(peerID(1, 2)), "engine 2's old process was heard")
	require.NoError(t, m.engs[0].ReturnPeer(peerID(0, 2), 20))
	for range 6 {
		for i := range 2 {
			m.advance(i)
		}
		m.deliver(0, 1)
		m.deliver(1, 0)
	}
	sv := m.engs[1]
	_, settled, ok := sv.Returning(peerID(1, 2))
	require.True(t, ok && settled, "engine 1 settled the return")
	by, remote := sv.ReturnedBy(peerID(1, 2))
	require.True(t, remote)
	require.Equal(t, peerID(1, 0), by, "engine 0 sent the command")
	_, remote = m.engs[0].ReturnedBy(peerID(0, 2))
	require.False(t, remote, "the sponsor's own command")
	require.False(t, sv.Heard(peerID(1, 2)), "nothing heard of the new process")

	s, raw, err := sv.Snapshot(nil)
	require.NoError(t, err)
	rec, err := sv.Handoff(peerID(1, 2), s, nil)
	require.NoError(t, err)
	e2, err := Resume[testState, testInput](m.engs[2].cfg, &testGame{}, raw, rec)
	require.NoError(t, err)
	m.engs[2] = e2
	m.advance(2)
	m.deliver(2, 1)
	require.True(t, sv.Heard(peerID(1, 2)), "the resumed engine was heard")
	for range 60 {
		for i := range 3 {
			m.advance(i)
		}
		m.exchange()
	}
	c, ok := e2.ConfirmedFrame()
	require.True(t, ok)
	r, _ := e2.ReturnOf(2)
	require.Greater(t, c, r+20, "the match went on past the return")
	compared := 0
	for f := c - 20; f <= c; f++ {
		a, okA := sv.Checksum(f)
		b, okB := e2.Checksum(f)
		if okA && okB {
			require.Equal(t, a, b, "frame %d", f)
			compared++
		}
	}
	require.Positive(t, compared)
}
