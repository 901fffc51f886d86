package lockstep

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/internal/probe"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/transport/sim"
)

// TestStateIsACopy: State is a copy owned by the session, in lockstep and
// in auto mode alike: a game that writes to it changes nothing the peers
// simulate. It used to point into the engine's state.
func TestStateIsACopy(t *testing.T) {
	for _, w := range []int{0, 8} {
		m := newMatch(t, 2, 24, sim.LinkConfig{Latency: sim.Latency{Base: 30 * ms}}, Config{TurnPeriod: 50 * ms, Prediction: w})
		m.predicting = w > 0
		m.run(2 * time.Second)
		require.Equal(t, *probe.EngineState(m.peers[0].sess).(*tState), *m.peers[0].sess.State(), "W=%d: State after an Update", w)
		m.peers[0].sess.State().Hash ^= 0xdead // a careless renderer
		m.run(4 * time.Second)
		m.check() // fails on any difference between the peers
	}
}
