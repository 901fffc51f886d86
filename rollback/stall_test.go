package rollback

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/transport/sim"
)

// TestStallCountedAtDelayZero: at D = 0 a frame's local input is
// scheduled when the frame is due, so while a frozen peer holds the
// session back the engine counts a remote stall (Stats.Stall),
// as the session does (Stats.Stall). When the merged session scheduled
// inputs only for frames that could run, the engine saw a missing local
// input instead and counted nothing.
func TestStallCountedAtDelayZero(t *testing.T) {
	m := newMatch(t, 2, 12, sim.LinkConfig{Latency: sim.Latency{Base: ms(2)}}, func(i int, c *Config) { c.FixedDelay = true })
	m.run(time.Second)
	m.nodes[1].mute = true
	m.run(2500 * time.Millisecond)
	m.nodes[1].mute = false
	m.run(4 * time.Second)
	st := m.nodes[0].s.Stats()
	require.Zero(t, st.Delay)
	require.Greater(t, st.Stall, time.Second, "the session's stall")
	require.Greater(t, st.Stall, time.Second, "the engine's stall")
	require.Zero(t, st.Desyncs, "the engines' checksum exchange found a desync")
	require.Greater(t, st.Checksums, uint64(200), "checksums compared")
}

// TestStepTimeIgnoresResimulation: the step time a peer reports, which
// paces every peer when it exceeds the frame period, is one frame's Step,
// not an Advance that re-simulated W frames. With a 3 ms Step, rollbacks
// of several frames used to report up to 27 ms and slowed a 60 Hz match
// to about 48 frames per second.
func TestStepTimeIgnoresResimulation(t *testing.T) {
	if engine.DefaultSyncTest > 0 {
		t.Skip("a rollstep_synctest build re-simulates inside every frame's Advance, and its step time includes that check")
	}
	link := sim.LinkConfig{Latency: sim.Latency{Base: ms(80), Jitter: ms(20)}, Loss: 0.1}
	var m *match
	m = newMatch(t, 2, 21, link, func(i int, c *Config) {
		c.StepClock = func() time.Duration { return time.Duration(m.nodes[i].game.steps) * 3 * time.Millisecond }
	})
	m.run(10 * time.Second)
	for i, nd := range m.nodes {
		st := nd.s.Stats()
		require.NotZero(t, st.ResimFrames, "node %d never re-simulated: the test proves nothing", i)
		require.Equal(t, time.Second/60, st.Period, "node %d's frame period", i)
		require.Equal(t, 3*time.Millisecond, st.SlowestStep, "node %d's slowest reported step", i)
	}
}
