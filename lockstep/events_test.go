package lockstep

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/sim"
)

// TestEventsSinceLastCall: Events returns everything raised since the
// previous call, as in rollback, however many Updates ran in between: the
// handshake's events and every stalled turn of three seconds, each
// core.StallEvent its own. Events used to return the latest Update's only, so a
// game that drained them once a frame lost the rest.
func TestEventsSinceLastCall(t *testing.T) {
	link := sim.LinkConfig{Latency: sim.Latency{Base: 80 * ms, Jitter: 40 * ms}, Loss: 0.2}
	m := newMatch(t, 2, 25, link, Config{TurnPeriod: 20 * ms, InputDelay: 1, FixedDelay: true})
	s := m.peers[0].sess
	for m.now < 3*time.Second {
		m.now += 5 * ms
		m.net.RunUntil(m.now)
		for i, p := range m.peers {
			_ = p.sess.AddLocalInput(core.PlayerHandle(i), tInput{Seq: uint32(m.now / ms)})
			require.NoError(t, p.sess.Update(m.now))
		}
		_ = m.peers[1].sess.Events()
	}
	connected, last := 0, core.Frame(-1)
	stalls := 0
	for _, ev := range s.Events() {
		switch e := ev.(type) {
		case core.ConnectedEvent:
			connected++
		case *core.StallEvent:
			require.Greater(t, e.Frame, last, "stall events out of order or overwritten")
			last = e.Frame
			stalls++
		}
	}
	require.Equal(t, 1, connected, "the handshake's event")
	require.Greater(t, stalls, 10, "stalled turns kept")
	require.Empty(t, s.Events(), "events are forgotten once returned")
	require.Zero(t, s.Stats().DroppedEvents)
}
