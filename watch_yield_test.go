package rollstep

import (
	"fmt"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
	"github.com/stretchr/testify/require"
)

// watchedEnd is the frame the matches of the spectator tests end at.
const watchedEnd = 1200

// watcher is a spectator of one player's host session in a crashMatch.
type watcher struct {
	t    *testing.T
	m    *crashMatch
	game *gPeer
	sess *Session[gState, gInput]
	evs  []core.Event
}

// newWatchedMatch returns a match of n peers in mode ending at watchedEnd
// whose player host streams to a spectator with delay frames of stream
// delay.
func newWatchedMatch(t *testing.T, mode Mode, n, host, delay int) (*crashMatch, *watcher) {
	t.Helper()
	m := newCrashMatch(t, n, mode, 0, 5, func(i int, c *Config) {
		if i == host {
			c.Spectators, c.SpectatorDelay = []transport.Addr{transport.Addr(n)}, delay
		}
	})
	conn := m.net.NewEndpoint()
	require.Equal(t, transport.Addr(n), conn.ID())
	cfg := Config{Mode: mode, TickRate: 60, Spectate: true, Players: n, Peers: []Peer{{Addr: m.conns[host].ID()}}}
	cfg.Transport.Token = 0x5eed
	w := &watcher{t: t, m: m, game: &gPeer{}}
	var err error
	w.sess, err = NewSession(cfg, core.GameFunc[gState, gInput](w.game.step), gState{}, conn)
	require.NoError(t, err)
	for _, p := range m.peers {
		require.NoError(t, p.sess.EndAt(watchedEnd))
	}
	m.each = func() { // the spectator watches all along
		if !w.sess.Ended() {
			require.NoError(t, w.sess.Update(m.now))
			w.evs = append(w.evs, w.sess.Events()...)
		}
	}
	return m, w
}

// until runs w's match, the spectator too, until done reports true.
func (w *watcher) until(done func() bool) {
	w.t.Helper()
	w.m.run(done)
}

// crashAndBack kills player i's process and starts a new one down later,
// whose game sets the match's end again, and runs until it rejoined, the
// spectator watching all along.
func (w *watcher) crashAndBack(i int, down time.Duration) {
	w.t.Helper()
	m := w.m
	m.kill(i)
	until := m.now + down
	w.until(func() bool { return m.now >= until })
	m.restart(i, nil)
	require.NoError(w.t, m.peers[i].sess.EndAt(watchedEnd))
	w.until(func() bool { _, ok := m.rejoined(i); return ok })
}

// endsWithTheMatch runs until the spectator's stream ended and requires
// it ended with the match, on the players' checksums from the frame its
// replay (last) started from, which it returns: a RejoinEvent's, or the
// first it played.
func (w *watcher) endsWithTheMatch() core.Frame {
	t := w.t
	t.Helper()
	w.until(w.sess.Ended)
	from := core.Frame(-1)
	for f, sum := range w.game.sums {
		if sum != 0 {
			from = core.Frame(f)
			break
		}
	}
	for _, ev := range w.evs {
		switch ev := ev.(type) {
		case core.RejoinEvent:
			require.NoError(t, ev.Err)
			from = ev.Handoff
		case core.PeerLostEvent:
			require.True(t, ev.Left && ev.Reason == core.LeaveEnded, "the stream ended with %+v", ev)
		}
	}
	require.GreaterOrEqual(t, from, core.Frame(0), "the spectator played nothing")
	require.Equal(t, core.Frame(watchedEnd), w.sess.Frame())
	require.Equal(t, w.m.peers[0].sums[from:watchedEnd], w.game.sums[from:watchedEnd], "the spectator's checksums from frame %d on", from)
	return from
}

// A spectator's host whose side yields a split throws the frames it
// streamed since the split away. The spectator keeps watching through the
// host's rejoin (the host tells it it is alive), then starts its replay
// over from a join record of the match kept (a RejoinEvent), and ends
// with the match on the same checksums as the players. Before, the host
// went silent (for longer than a spectator waits when the host's links
// drop again during its rejoin), then dropped it for lagging.
func TestSpectatorFollowsItsHostsYield(t *testing.T) {
	for _, tc := range []struct {
		peers, host, delay int
		cut                bool // the host's links to the players drop again during its rejoin
	}{{3, 1, 0, false}, {3, 1, 30, false}, {4, 3, 0, true}} {
		t.Run(fmt.Sprintf("%d/host%d/delay=%d/cut=%v", tc.peers, tc.host, tc.delay, tc.cut), func(t *testing.T) {
			m, w := newWatchedMatch(t, Rollback, tc.peers, tc.host, tc.delay)
			w.until(func() bool { return m.lowest() >= 300 })
			m.cutAll()
			until := m.now + 4*time.Second
			w.until(func() bool { return m.now >= until })
			m.net.Heal()
			if tc.cut {
				w.until(func() bool { return m.peers[tc.host].sess.Stats().Rejoining })
				for _, c := range m.conns {
					if c != m.conns[tc.host] {
						m.net.Cut(c.ID(), m.conns[tc.host].ID())
						m.net.Cut(m.conns[tc.host].ID(), c.ID())
					}
				}
				until := m.now + 3*time.Second
				w.until(func() bool { return m.now >= until })
				m.net.Heal()
			}
			w.until(func() bool { _, ok := m.rejoined(tc.host); return ok })
			require.Positive(t, w.endsWithTheMatch(), "the spectator started over")
		})
	}
}

// A spectator's host whose process restarts: a spectator that watched the
// old process starts its replay over from the new one's join record, also
// when the host was down longer than the disconnect timeout (it waits for
// the host, Stats.Rejoining); one that starts while the host is down, and
// even took a Hello of the dying process, connects to the new one (which
// takes only restart replies) and joins. Each ends with the match on the
// players' checksums.
func TestSpectatorFollowsItsHostsRestart(t *testing.T) {
	for _, tc := range []struct {
		during bool
		down   time.Duration
	}{{false, time.Second}, {false, 4 * time.Second}, {true, time.Second}} {
		t.Run(fmt.Sprintf("startsWhileDown=%v/down=%v", tc.during, tc.down), func(t *testing.T) {
			m, w := newWatchedMatch(t, Rollback, 3, 1, 0)
			if tc.during {
				m.run(func() bool { return m.lowest() >= 400 }) // the dying host's Hellos wait for the spectator
			} else {
				w.until(func() bool { return m.lowest() >= 400 })
			}
			waited := false
			if tc.down > 3*time.Second {
				m.each = func(each func()) func() {
					return func() { each(); waited = waited || w.sess.Stats().Rejoining }
				}(m.each)
			}
			w.crashAndBack(1, tc.down)
			require.Equal(t, tc.down > 3*time.Second, waited, "the spectator waited for its host")
			from := w.endsWithTheMatch()
			require.Greater(t, from, core.Frame(400), "the replay started from the new process's record")
		})
	}
}

// A spectator watches a player's process crash and its new one rejoin:
// it replays the return (the player's inputs count again from the return
// frame) and ends with the match on the players' checksums, also when the
// host's link to it repeats and reorders datagrams, so that stream
// messages the host sent before the return still say the player is gone.
// Before, it kept the player disconnected, stalled at the return frame
// and was dropped for lagging; then a late message declared the returned
// player gone again, with the same end.
func TestSpectatorSeesAPlayerReturn(t *testing.T) {
	for _, mode := range []Mode{Lockstep, Rollback, Auto} {
		for _, jumbled := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v/jumbled=%v", mode, jumbled), func(t *testing.T) {
				m, w := newWatchedMatch(t, mode, 3, 0, 0)
				if jumbled {
					require.NoError(t, m.net.SetLink(m.conns[0].ID(), transport.Addr(3), sim.LinkConfig{
						Latency: sim.Latency{Base: 30 * ms}, Duplicate: 0.3, Reorder: 0.3, ReorderDelay: 300 * ms}))
				}
				w.until(func() bool { return m.lowest() >= 300 })
				w.crashAndBack(2, time.Second)
				require.Zero(t, w.endsWithTheMatch(), "the spectator played from frame 0")
			})
		}
	}
}

// A spectator of the one player that does not yield a 4 s blackout: the
// others come back one at a time, and the first back crashes while the
// rest still wait their turn, so the spectator replays returns, a
// disconnect among them and one more return, and ends with the match.
// (The order that stalled a spectator in such a match, a disconnect heard
// in the message that settled other players' returns, is pinned by
// cmd/rollstep's TestSimWatchThroughReturnsAndACrash.)
func TestSpectatorThroughReturnsAndACrash(t *testing.T) {
	for _, mode := range []Mode{Lockstep, Rollback, Auto} {
		t.Run(mode.String(), func(t *testing.T) {
			m, w := newWatchedMatch(t, mode, 5, 0, 0)
			w.until(func() bool { return m.lowest() >= 200 })
			m.crashFirstBack(time.Second, 30*time.Second)
			w.endsWithTheMatch()
		})
	}
}

// The link between a spectator and its host drops for 4 s, longer than
// the disconnect timeout: the spectator waits for the host and the host
// takes it back as a spectator that came again, from a join record. It
// ends with the match on the players' checksums.
func TestSpectatorWaitsOutAnOutage(t *testing.T) {
	m, w := newWatchedMatch(t, Rollback, 3, 1, 0)
	w.until(func() bool { return m.lowest() >= 300 })
	host, spec := m.conns[1].ID(), transport.Addr(3)
	m.net.Cut(host, spec)
	m.net.Cut(spec, host)
	until := m.now + 4*time.Second
	w.until(func() bool { return m.now >= until })
	require.True(t, w.sess.Stats().Rejoining, "the spectator waits for its host")
	require.False(t, w.sess.Ended())
	m.net.Heal()
	require.Greater(t, w.endsWithTheMatch(), core.Frame(300), "the replay started over from a record")
}

// A spectator that joins a running match between a player's return
// command and its return frame gets a join record of a frame in between:
// the player is back in the record's engine, its inputs up to the return
// frame disconnected. The spectator replays the return from there and
// ends with the match on the players' checksums.
func TestSpectatorJoinsDuringAReturn(t *testing.T) {
	for _, mode := range []Mode{Lockstep, Rollback, Auto} {
		t.Run(mode.String(), func(t *testing.T) {
			m, w := newWatchedMatch(t, mode, 3, 0, 0)
			each := m.each
			m.each = nil // the spectator starts later
			m.run(func() bool { return m.lowest() >= 400 })
			m.kill(2)
			until := m.now + time.Second
			m.run(func() bool { return m.now >= until })
			m.restart(2, nil)
			require.NoError(t, m.peers[2].sess.EndAt(watchedEnd))
			host := m.peers[0].sess.eng
			var r core.Frame
			m.run(func() bool {
				_, settled, ok := host.Returning(1) // the host's peer 1 is player 2
				if ok && settled {
					r, _ = host.ReturnOf(2)
				}
				return r > 0
			})
			_, checked := host.LogRange()
			require.Less(t, checked+4, r, "the return frame is ahead: the spectator can join before it")
			m.each = each
			w.until(func() bool {
				return len(m.peers[0].sess.Stats().Spectators) > 0 && m.peers[0].sess.Stats().Spectators[0].From > 0
			})
			from := m.peers[0].sess.Stats().Spectators[0].From
			require.Greater(t, from, checked-1, "the record is of a frame after the return command")
			require.Less(t, from, r, "the record is of a frame before the return")
			require.Equal(t, from, w.endsWithTheMatch())
		})
	}
}
