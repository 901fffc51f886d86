package lockstep

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/rollback"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
	"github.com/stretchr/testify/require"
)

// newSpectator returns a spectator of peer 0 of m, a match of 20 turns a
// second, on the network's next endpoint.
func newSpectator(t *testing.T, m *match) *rollback.Spectator[tState, tInput] {
	t.Helper()
	watch := &tPeer{rng: rand.New(rand.NewPCG(1, 1))}
	sp, err := rollback.NewSpectator(rollback.SpectatorConfig{
		Host: m.peers[0].conn.ID(), Players: 2, TickRate: 20,
		Transport: transport.Config{Token: 0x5eed, Rand: rand.NewChaCha8([32]byte{9})},
	}, core.GameFunc[tState, tInput](watch.step), tState{}, m.net.NewEndpoint())
	require.NoError(t, err)
	return sp
}

// TestSpectatorWithStreamDelay: a lockstep (and an auto) host streams its
// confirmed turns to a spectator, as a rollback host does. The spectator
// (rollback.NewSpectator, which plays any mode's stream) joins, stays the
// stream delay behind the host's confirmed turn, follows a pause and a
// resume (the commands ride the relayed slots), and its state equals the
// host's after the same game step. Before lockstep sessions had a stream,
// Config.Spectators did not exist and the spectator's handshake was never
// answered.
func TestSpectatorWithStreamDelay(t *testing.T) {
	const delay = 10
	for _, w := range []int{0, 4} {
		cfg := Config{TurnPeriod: 50 * ms, Prediction: w}
		link := sim.LinkConfig{Latency: sim.Latency{Base: 30 * ms, Jitter: 5 * ms}, Loss: 0.05}
		m := newMatch(t, 2, 41, link, cfg, func(i int, c *Config) {
			if i == 0 {
				c.Spectators = []transport.Addr{2} // the network's next endpoint
				c.SpectatorDelay = delay
			}
		})
		m.predicting, m.lossyCommands = w > 0, true
		sp := newSpectator(t, m)
		var spEvents []core.Event
		run := func(end time.Duration) {
			for m.now < end {
				m.run(m.now + m.dt)
				require.NoError(t, sp.Update(m.now))
				spEvents = append(spEvents, sp.Events()...)
			}
		}
		run(3 * time.Second)
		require.NoError(t, m.peers[1].sess.Pause(1))
		run(4 * time.Second)
		require.NoError(t, m.peers[0].sess.Resume(0))
		run(8 * time.Second)
		m.check()

		host := m.peers[0].sess
		c, _ := host.ConfirmedFrame()
		lag := c - sp.Frame()
		t.Logf("W=%d: host confirmed turn %d, spectator at turn %d (lag %d), %d game steps", w, c, sp.Frame(), lag, sp.State().Frame)
		require.GreaterOrEqual(t, lag, core.Frame(delay), "the spectator is ahead of the stream delay")
		require.LessOrEqual(t, lag, core.Frame(delay+8), "the spectator fell behind")
		require.Greater(t, sp.Frame(), core.Frame(100))
		g := sp.State().Frame // game steps the spectator ran
		require.Less(t, g, int32(sp.Frame())-10, "the spectator never paused")
		require.Equal(t, m.peers[0].sums[g-1], state.Checksum(sp.State()), "spectator and host differ after game step %d", g-1)
		st := host.Stats().Spectators
		require.Len(t, st, 1)
		require.True(t, st[0].Joined)
		require.False(t, st[0].Left)
		require.Greater(t, st[0].Acked, core.Frame(100))
		joined := 0
		for _, ev := range m.peers[0].events {
			if e, ok := ev.(core.SpectatorEvent); ok && e.Joined {
				joined++
			}
		}
		require.Equal(t, 1, joined)
		var pauses []core.PauseEvent // the spectator sees the match's pause and resume
		for _, ev := range spEvents {
			if e, ok := ev.(core.PauseEvent); ok {
				pauses = append(pauses, e)
			}
		}
		var hostPauses []core.PauseEvent
		for _, ev := range m.peers[0].events {
			if e, ok := ev.(core.PauseEvent); ok {
				hostPauses = append(hostPauses, e)
			}
		}
		require.Len(t, hostPauses, 2)
		require.Equal(t, hostPauses, pauses, "the spectator's pause events")
	}
}

// TestSpectatorNeverHoldsPlayersBack: a spectator that stops (its process
// frozen) does not slow the lockstep match, as OpenRA's lagging observers
// do: the players run every turn on time, and the host drops the
// spectator once it lags SpectatorMaxLag turns (a SpectatorEvent with
// Dropped), and stops streaming to it.
func TestSpectatorNeverHoldsPlayersBack(t *testing.T) {
	cfg := Config{TurnPeriod: 50 * ms}
	m := newMatch(t, 2, 42, sim.LinkConfig{Latency: sim.Latency{Base: 20 * ms}}, cfg, func(i int, c *Config) {
		if i == 0 {
			c.Spectators = []transport.Addr{2}
			c.SpectatorMaxLag = 40
		}
	})
	sp := newSpectator(t, m)
	for m.now < 2*time.Second {
		m.run(m.now + m.dt)
		require.NoError(t, sp.Update(m.now))
	}
	require.True(t, m.peers[0].sess.Stats().Spectators[0].Joined)
	before := m.peers[0].sess.Frame()
	m.run(8 * time.Second) // the spectator is frozen from now on
	turns := m.peers[0].sess.Frame() - before
	t.Logf("%d turns in 6 s with a frozen spectator", turns)
	require.GreaterOrEqual(t, turns, core.Frame(6*20*95/100), "the players slowed down")
	m.check()
	st := m.peers[0].sess.Stats().Spectators[0]
	require.True(t, st.Dropped && st.Left, "the frozen spectator was not dropped: %+v", st)
	dropped := 0
	for _, ev := range m.peers[0].events {
		if e, ok := ev.(core.SpectatorEvent); ok && e.Dropped {
			dropped++
		}
	}
	require.Equal(t, 1, dropped)
}
