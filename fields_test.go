package rollstep

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/core"
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
			peers := newPeers(t, net, Config{Mode: mode, TurnPeriod: 35 * ms, TicksPerTurn: 2, Inputs: Held})
			var now time.Duration
			play(t, net, peers, &now, 5*time.Second, 5*ms)
			st := peers[0].sess.Stats()
			require.Equal(t, 35*ms, st.Period, "pacing period")
			steps := agree(t, peers)
			require.Greater(t, st.Frame, core.Frame(100), "frames run")
			// Step ran twice per frame: the game's own step counter says so.
			require.Equal(t, 2*int64(st.Frame), int64(peers[0].sess.State().Frame), fmt.Sprintf("steps of %d frames (%d agreed)", st.Frame, steps))
		})
	}
}

// TestChecksumOfConfirmedFrames: every peer reads the same checksum of a
// confirmed frame, in every mode, without re-simulating anything; frames
// not confirmed, not checksummed or too old have none.
func TestChecksumOfConfirmedFrames(t *testing.T) {
	for _, mode := range []Mode{Lockstep, Rollback, Auto} {
		t.Run(mode.String(), func(t *testing.T) {
			net, err := sim.New(sim.Config{Seed: 5, Link: sim.LinkConfig{Latency: sim.Latency{Base: 30 * ms}, Loss: 0.05}})
			require.NoError(t, err)
			peers := newPeers(t, net, Config{Mode: mode, TickRate: 50, ChecksumInterval: 2, Inputs: Held})
			var now time.Duration
			play(t, net, peers, &now, 12*time.Second, 5*ms)
			c0, ok0 := peers[0].sess.ConfirmedFrame()
			c1, ok1 := peers[1].sess.ConfirmedFrame()
			require.True(t, ok0 && ok1)
			f := (min(c0, c1) - 2) / 2 * 2 // confirmed before the latest inputs
			s0, ok0 := peers[0].sess.Checksum(f)
			s1, ok1 := peers[1].sess.Checksum(f)
			require.True(t, ok0 && ok1, "frame %d", f)
			require.Equal(t, s0, s1, "frame %d", f)
			_, ok := peers[0].sess.Checksum(f + 1)
			require.False(t, ok, "an odd frame is not checksummed at interval 2")
			_, ok = peers[0].sess.Checksum(c0 + 2)
			require.False(t, ok, "a frame not confirmed")
			require.Greater(t, f, core.Frame(2*200))
			_, ok = peers[0].sess.Checksum(f - 2*200)
			require.False(t, ok, "a frame older than the ring")
			agree(t, peers)
		})
	}
}

// TestStatsAreTheCallers: a reading of Stats keeps its values when the
// session runs on and is read again, so two readings give a rate. The
// per-peer slices used to be the session's buffers, overwritten by the
// next call: a bytes-sent difference came out 0.
func TestStatsAreTheCallers(t *testing.T) {
	net, err := sim.New(sim.Config{Seed: 3, Link: sim.LinkConfig{Latency: sim.Latency{Base: 20 * ms}}})
	require.NoError(t, err)
	peers := newPeers(t, net, Config{Mode: Rollback})
	var now time.Duration
	play(t, net, peers, &now, time.Second, 5*ms)
	before := peers[0].sess.Stats()
	play(t, net, peers, &now, 2*time.Second, 5*ms)
	after := peers[0].sess.Stats()
	sent := after.Peers[0].BytesSent - before.Peers[0].BytesSent
	require.NotZero(t, before.Peers[0].BytesSent)
	require.Greater(t, sent, uint64(1000), "bytes sent in the second second")
}
