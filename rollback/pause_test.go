package rollback

import (
	"errors"
	"testing"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/sim"
	"github.com/stretchr/testify/require"
)

// controlEvents returns node i's pause and speed events, in order.
func controlEvents(m *match, i int) (pauses []core.PauseEvent, speeds []core.SpeedEvent) {
	for _, ev := range m.nodes[i].events {
		switch e := ev.(type) {
		case core.PauseEvent:
			pauses = append(pauses, e)
		case core.SpeedEvent:
			speeds = append(speeds, e)
		}
	}
	return pauses, speeds
}

// TestPauseAndSpeed: a rollback match pauses, resumes and changes speed
// as lockstep does. Player 1 pauses: both peers stop calling the game's
// Step at the same frame (the frames go on, the game state does not
// move) and report the same PauseEvent, while the peers predict and roll
// back as usual. Player 0 resumes, then sets the speed to 200 %:
// both report the same SpeedEvent and simulate twice as many frames a
// second. Every confirmed frame agrees. Before the control channel was in
// core, a rollback Session had no Pause, Resume or SetSpeed.
func TestPauseAndSpeed(t *testing.T) {
	m := newMatch(t, 2, 31, sim.LinkConfig{Latency: sim.Latency{Base: ms(40), Jitter: ms(10)}, Loss: 0.02}, nil)
	require.True(t, m.runUntil(120, 5*time.Second), "warm-up")

	require.NoError(t, m.nodes[1].s.Pause(1))
	m.run(time.Second)
	for i, nd := range m.nodes {
		require.True(t, nd.s.Stats().Paused, "node %d not paused after 1 s", i)
	}
	game := [2]int32{m.nodes[0].s.State().Frame, m.nodes[1].s.State().Frame}
	frames := m.nodes[0].s.Frame()
	m.run(time.Second)
	require.Greater(t, m.nodes[0].s.Frame(), frames+40, "frames stopped while paused")
	for i, nd := range m.nodes {
		require.Equal(t, game[i], nd.s.State().Frame, "node %d: the game stepped while paused", i)
	}

	require.NoError(t, m.nodes[0].s.Resume(0))
	m.run(time.Second)
	require.False(t, m.nodes[0].s.Stats().Paused)
	rate := func() core.Frame {
		f := m.nodes[0].s.Frame()
		m.run(2 * time.Second)
		return m.nodes[0].s.Frame() - f
	}
	normal := rate()
	require.NoError(t, m.nodes[0].s.SetSpeed(0, 200))
	m.run(time.Second)
	fast := rate()
	t.Logf("frames in 2 s: %d at 100 %%, %d at 200 %%", normal, fast)
	require.InDelta(t, 2*float64(normal), float64(fast), 0.1*float64(normal))

	p0, s0 := controlEvents(m, 0)
	p1, s1 := controlEvents(m, 1)
	require.Len(t, p0, 2)
	require.Equal(t, p0, p1, "the peers report different pauses")
	require.Equal(t, s0, s1, "the peers report different speeds")
	require.True(t, p0[0].Paused)
	require.Equal(t, core.PlayerHandle(1), p0[0].Player)
	require.False(t, p0[1].Paused)
	require.Equal(t, core.PlayerHandle(0), p0[1].Player)
	require.Equal(t, []core.SpeedEvent{{Frame: s0[0].Frame, Player: 0, Percent: 200}}, s0)
	// The game steps once per frame but while paused: the state after
	// game step g of a frame confirmed by both is the same on both.
	c0, _ := m.nodes[0].s.ConfirmedFrame()
	c1, _ := m.nodes[1].s.ConfirmedFrame()
	played := min(c0, c1) + 1 - (p0[1].Frame - p0[0].Frame)
	require.Greater(t, played, s0[0].Frame-(p0[1].Frame-p0[0].Frame))
	for g := range played {
		require.Equal(t, m.nodes[0].game.sums[g], m.nodes[1].game.sums[g], "game step %d", g)
	}
	for i, nd := range m.nodes {
		for _, ev := range nd.events {
			if _, ok := ev.(core.DesyncEvent[pair]); ok {
				t.Fatalf("node %d: %+v", i, ev)
			}
		}
	}
	st := m.nodes[0].s.Stats()
	require.NotZero(t, st.Rollbacks, "no rollback: the match did not predict")

	require.ErrorIs(t, m.nodes[0].s.SetSpeed(0, 0), rollstep.ErrOutOfRange)
	require.ErrorIs(t, m.nodes[0].s.Pause(1), rollstep.ErrOutOfRange)
	for range 8 {
		require.NoError(t, m.nodes[0].s.Pause(0))
	}
	require.True(t, errors.Is(m.nodes[0].s.Pause(0), rollstep.ErrQueueFull))
}
