package lockstep

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/sim"
	"github.com/stretchr/testify/require"
)

// TestTimesyncInAuto: in auto mode a peer frozen for a second (its
// process stopped) catches up the turns it owes when it runs again, while
// the other, which stalled, slipped its schedule: the frozen one ends up
// ahead, by as much as its prediction window allows, and predicts further
// and rolls back deeper, for good. Timesync, as in rollback,
// makes the peer that is ahead, and only it, wait until both run the same
// turn at the same moment. With timesync disabled (as every lockstep
// session was before) the gap stays.
func TestTimesyncInAuto(t *testing.T) {
	gap := func(disable bool) (core.Frame, *match) {
		m := frozenAuto(t, func(c *Config) { c.NoTimesync = disable }, 10*time.Second)
		m.check()
		// Both peers' turns at one moment: peer 1's advantage in turns.
		return m.peers[1].sess.Frame() - m.peers[0].sess.Frame(), m
	}
	without, _ := gap(true)
	with, m := gap(false)
	t.Logf("peer 1 ahead by %d turns without timesync, %d with (waited %d turns)", without, with, m.peers[1].sess.Stats().Waited)
	require.GreaterOrEqual(t, without, core.Frame(4), "the freeze made no gap: the test proves nothing")
	require.LessOrEqual(t, with, core.Frame(1))
	require.GreaterOrEqual(t, with, core.Frame(-1))
	require.NotZero(t, m.peers[1].sess.Stats().Waited, "the peer ahead never waited")
	require.Zero(t, m.peers[0].sess.Stats().Waited, "the peer behind waited")
	waits := 0
	for _, ev := range m.peers[1].events {
		if e, ok := ev.(core.TimesyncEvent); ok && e.Wait > 0 && e.Applied {
			waits++
		}
	}
	require.NotZero(t, waits, "no TimesyncEvent on the peer ahead")
}

// TestTimesyncManualInAuto: with ManualTimesync an auto session reports
// the waits it recommends but does not wait by itself; Session.Wait
// applies one, as in every mode that predicts.
func TestTimesyncManualInAuto(t *testing.T) {
	m := frozenAuto(t, func(c *Config) { c.ManualTimesync = true }, 5*time.Second)
	reported := 0
	for _, ev := range m.peers[1].events {
		if e, ok := ev.(core.TimesyncEvent); ok && e.Wait > 0 {
			require.False(t, e.Applied, "a manual recommendation was applied")
			reported++
		}
	}
	require.NotZero(t, reported, "no wait recommended to the peer ahead")
	require.Zero(t, m.peers[1].sess.Stats().Waited, "the session waited by itself")
	require.NoError(t, m.peers[1].sess.Wait(3))
	m.run(m.now + time.Second)
	require.Equal(t, uint64(3), m.peers[1].sess.Stats().Waited)
	m.check()
}

// frozenAuto plays a 2-peer auto match with timesync as set tunes it, in which peer 1's
// process is frozen for a second after 2 s, then runs for after more.
func frozenAuto(t *testing.T, set func(*Config), after time.Duration) *match {
	cfg := Config{TurnPeriod: 20 * ms, Prediction: 8, InputDelay: 1, DelayBudget: 20 * ms}
	set(&cfg)
	m := newMatch(t, 2, 43, sim.LinkConfig{Latency: sim.Latency{Base: 50 * ms}}, cfg)
	m.predicting = true
	m.run(2 * time.Second)
	m.peers[1].dead = true
	m.run(m.now + time.Second)
	m.peers[1].dead = false
	m.run(m.now + after)
	return m
}
