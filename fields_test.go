package rollstep

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/transport/sim"
)

// TestEveryModeTakesEveryMatchField: a frame period that is not a whole
// number per second and several game steps per frame used to be lockstep
// settings that Rollback refused; with one session every mode takes them,
// paces at the period and calls Step TicksPerTurn times per frame.
func TestEveryModeTakesEveryMatchField(t *testing.T) {
	for _, mode := range []Mode{Lockstep, Rollback, Auto} {
		t.Run(mode.String(), func(t *testing.T) {
			net, err := sim.New(sim.Config{Seed: 9, Link: sim.LinkConfig{Latency: sim.Latency{Base: 20 * ms}}})
			require.NoError(t, err)
			peers := newPeers(t, net, Config{Mode: mode, TurnPeriod: 35 * ms, TicksPerTurn: 2, HoldInputs: true})
			var now time.Duration
			play(t, net, peers, &now, 5*time.Second, 5*ms)
			st := peers[0].sess.Stats()
			require.Equal(t, 35*ms, st.Period, "pacing period")
			steps := agree(t, peers)
			require.Greater(t, st.Frames, int64(100), "frames run")
			// Step ran twice per frame: the game's own step counter says so.
			require.Equal(t, 2*st.Frames, int64(peers[0].sess.State().Frame), fmt.Sprintf("steps of %d frames (%d agreed)", st.Frames, steps))
		})
	}
}
