package engine

import (
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/stretchr/testify/require"
)

// Two survivors of a crashed peer that lose each other before they agree
// its disconnect frame each agree one alone, from the inputs each holds,
// and their states differ from there on, as on the two sides of any
// split. A checksum report of such a frame that one sent the other before
// the link broke is no desync: the engine that confirms the frame
// differently does not report one.
func TestSplitBeforeAgreementIsNoDesync(t *testing.T) {
	m := newMesh(t, 3, 2, 0, func(p int, f core.Frame) testInput { return testInput(p*7 + int(f)%5 + 1) })
	for range 20 {
		for i := range 3 {
			m.advance(i)
		}
		m.exchange()
	}
	m.advance(2)
	m.deliver(2, 0) // engine 2's last message reaches engine 0 only; then it dies
	for range 6 {
		m.advance(0)
		m.advance(1)
		m.deliver(0, 1)
		m.deliver(1, 0)
	}
	c0, _ := m.engs[0].ConfirmedFrame()
	c1, _ := m.engs[1].ConfirmedFrame()
	require.Equal(t, c1+1, c0, "engine 0 holds one more input of player 2")

	for i := range 2 { // the link between them breaks too
		require.NoError(t, m.engs[i].DisconnectPeer(peerID(i, 1-i)))
		require.NoError(t, m.engs[i].DisconnectPeer(peerID(i, 2)))
	}
	d0, ok0 := m.engs[0].Disconnected(2)
	d1, ok1 := m.engs[1].Disconnected(2)
	require.True(t, ok0 && ok1, "each agreed alone")
	require.Equal(t, d1+1, d0)

	var events []core.Event
	for range 10 {
		events = append(events, m.advance(1).Events...)
	}
	c, _ := m.engs[1].ConfirmedFrame()
	require.Greater(t, c, c0, "engine 1 confirmed the frame engine 0 reported")
	for _, ev := range events {
		_, desync := ev.(core.DesyncEvent[testState])
		require.False(t, desync, "%#v", ev)
	}
	require.Zero(t, m.engs[1].Stats().Desyncs)
}
