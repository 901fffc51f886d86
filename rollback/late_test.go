package rollback

import (
	"fmt"
	"testing"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/sim"
	"github.com/stretchr/testify/require"
)

// watchLate runs w's spectator, started now, for d, and requires that it
// never shows a frame the stream delay holds back; it returns the first
// frame the spectator showed.
func (w *watcher) watchLate(t *testing.T, m *match, d time.Duration, delay core.Frame) core.Frame {
	t.Helper()
	first := core.Frame(-1)
	for end := m.net.Now() + d; m.net.Now() < end; {
		w.run(t, m, 50*time.Millisecond)
		c, _ := m.nodes[0].s.ConfirmedFrame()
		require.LessOrEqual(t, w.sp.Frame(), c+1-delay, "the spectator sees past the stream delay")
		if first < 0 && w.sp.Frame() > 0 {
			first = w.sp.Frame()
		}
	}
	return first
}

// joins returns the host's events of spectators joining.
func (m *match) joins() []core.SpectatorEvent {
	var js []core.SpectatorEvent
	for _, ev := range m.nodes[0].events {
		if e, ok := ev.(core.SpectatorEvent); ok && e.Joined {
			js = append(js, e)
		}
	}
	return js
}

// A spectator that starts 40 s into the match, long after its handshake
// timed out and after the input log dropped frame 0, gets the state of a
// confirmed frame no later than the stream delay allows, then the stream
// from there, and replays the rest of the match exactly, in every mode.
func TestSpectatorJoinsRunningMatch(t *testing.T) {
	for _, mode := range []rollstep.Mode{rollstep.Rollback, rollstep.Lockstep, rollstep.Auto} {
		// Updates at 120 Hz, and every millisecond, as a real-time loop
		// might: most of those run no frame.
		for _, render := range []time.Duration{time.Second / 120, time.Millisecond} {
			t.Run(fmt.Sprintf("%v/%v", mode, render), func(t *testing.T) {
				m, w := newWatchedIn(t, mode, 31, sim.LinkConfig{Latency: sim.Latency{Base: ms(30), Jitter: ms(5)}, Loss: 0.05}, streamOpts{Delay: 30})
				m.render = render
				w.mute = true
				w.run(t, m, 40*time.Second)
				w.mute = false
				first := w.watchLate(t, m, 5*time.Second, 30)
				m.checkAgreement()
				w.checkReplay(t, m)
				require.Greater(t, first, core.Frame(2000), "the replay starts from a frame of the running match")
				c, _ := m.nodes[0].s.ConfirmedFrame()
				require.Less(t, c-w.sp.Frame(), core.Frame(50), "the spectator caught up to the delay")

				js := m.joins()
				require.Len(t, js, 1)
				require.Greater(t, js[0].From, core.Frame(2000))
				st := m.nodes[0].s.Stats().Spectators[0]
				require.Equal(t, js[0].From, st.From)
				require.Positive(t, st.JoinBytes)
				t.Logf("joined from frame %d: %d B in %v", st.From, st.JoinBytes, st.JoinTook)
			})
		}
	}
}

// A spectator's process that quits, and one that dies, can start again
// at the same address and join the match again from where it is.
func TestSpectatorComesBack(t *testing.T) {
	m, w := newWatched(t, 32, sim.LinkConfig{Latency: sim.Latency{Base: ms(20)}, Loss: 0.02}, streamOpts{})
	w.run(t, m, 10*time.Second)
	w.checkReplay(t, m)
	require.NoError(t, w.sp.Close()) // it quits
	w.mute = true
	w.run(t, m, 10*time.Second)

	for round, seed := range []uint64{33, 34} {
		conn, err := m.net.Reopen(w.conn.ID())
		require.NoError(t, err)
		w.conn, w.events, w.mute = conn, nil, false
		w.start(t, seed)
		first := w.watchLate(t, m, 5*time.Second, 0)
		w.checkReplay(t, m)
		require.Greater(t, first, core.Frame(600*(round+1)), "round %d: the replay starts from the running match", round)
		require.Len(t, m.joins(), round+2, "round %d", round)
		_ = w.conn.Close() // this one dies
		w.mute = true
		w.run(t, m, 8*time.Second)
	}
	m.checkAgreement()
}
