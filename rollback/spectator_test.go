package rollback

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport/sim"
	"github.com/stretchr/testify/require"
)

// watcher is a spectator of node 0 on the match's network.
type watcher struct {
	sp     *Spectator[pair, uint16]
	conn   *sim.Endpoint
	events []core.Event
	mute   bool
	most   int // most frames simulated by one Update
	keep   int // the spectator's LogRetention
}

// streamOpts are the Config's spectator fields a test sets.
type streamOpts struct{ Delay, MaxLag int }

// addSpectator configures node 0 to stream to a new endpoint and returns
// the spectator on it. Call before newMatch builds node 0: use in cfg.
func newWatched(t *testing.T, seed uint64, link sim.LinkConfig, stream streamOpts) (*match, *watcher) {
	return newWatchedIn(t, rollstep.Rollback, seed, link, stream)
}

// newWatchedIn is newWatched with a match of mode at 60 frames (or
// turns) per second.
func newWatchedIn(t *testing.T, mode rollstep.Mode, seed uint64, link sim.LinkConfig, stream streamOpts) (*match, *watcher) {
	t.Helper()
	m := newMatch(t, 2, seed, link, func(i int, c *Config) {
		c.Mode, c.TickRate = mode, 60
		if i == 0 {
			c.Spectators = append(c.Spectators, 2)
			c.SpectatorDelay, c.SpectatorMaxLag = stream.Delay, stream.MaxLag
		}
	})
	for _, nd := range m.nodes {
		nd.once = mode != rollstep.Rollback // their inputs queue
	}
	w := &watcher{conn: m.net.NewEndpoint()}
	w.start(t, seed+99)
	return m, w
}

// start starts a spectator process on the watcher's Conn.
func (w *watcher) start(t *testing.T, seed uint64) {
	t.Helper()
	tc := testConfig(2, 0, seed).Transport
	tc.Rand = seedReader(seed)
	var err error
	w.sp, err = NewSpectator[pair, uint16](SpectatorConfig{Host: 0, Players: 2, Game: [16]byte{'t'}, LogRetention: w.keep, Transport: tc}, pairGame{leakAt: -1}, pair{}, w.conn)
	if err != nil {
		t.Fatalf("NewSpectator: %v", err)
	}
}

// run steps the match and the spectator for d.
func (w *watcher) run(t *testing.T, m *match, d time.Duration) {
	end := m.net.Now() + d
	for now := m.net.Now() + m.render; now <= end; now += m.render {
		m.step(now)
		if w.mute || w.sp.Ended() {
			continue
		}
		before := w.sp.Frame()
		if err := w.sp.Update(now); err != nil {
			t.Fatalf("spectator Update: %v", err)
		}
		w.most = max(w.most, int(w.sp.Frame()-before))
		w.events = append(w.events, w.sp.Events()...)
	}
}

// checkReplay requires the spectator's state to equal node 0's confirmed
// state of the same frame.
func (w *watcher) checkReplay(t *testing.T, m *match) {
	t.Helper()
	f := w.sp.Frame() - 1
	if f < 0 {
		t.Fatal("spectator simulated nothing")
	}
	if got, want := state.Checksum(w.sp.State()), m.nodes[0].game.sums[f]; got != want {
		t.Fatalf("spectator state at frame %d: checksum %#x, host %#x", f, got, want)
	}
}

func TestSpectatorReplaysConfirmedInputsWithDelay(t *testing.T) {
	m, w := newWatched(t, 21, sim.LinkConfig{Latency: sim.Latency{Base: ms(30), Jitter: ms(5)}, Loss: 0.05}, streamOpts{Delay: 30})
	w.run(t, m, 10*time.Second)
	m.checkAgreement()
	w.checkReplay(t, m)
	c, _ := m.nodes[0].s.ConfirmedFrame()
	if lag := c - w.sp.Frame(); lag < 30 || lag > 45 {
		t.Errorf("spectator %d frames behind the host's confirmed frame, want the 30-frame delay and a little", lag)
	}
	if len(w.events) < 2 || !isType[core.ConnectedEvent](w.events[0]) || !isType[core.StartedEvent](w.events[1]) {
		t.Errorf("events %v, want core.ConnectedEvent and core.StartedEvent first", w.events)
	}
	if m.count(0, func(ev core.Event) bool { e, ok := ev.(core.SpectatorEvent); return ok && e.Joined }) != 1 {
		t.Errorf("host reported no joined core.SpectatorEvent")
	}
}

// A spectator records the match it watches when its LogRetention says
// so: after 40 seconds its first frames are still in its log, and they
// replay the host's. Without it the spectator keeps no log.
func TestSpectatorRecords(t *testing.T) {
	for _, keep := range []int{0, 3000} {
		m, w := newWatched(t, 23, sim.LinkConfig{Latency: sim.Latency{Base: ms(20)}}, streamOpts{})
		w.sp.Close() // before its first Update, and its Conn with it
		conn, err := m.net.Reopen(w.conn.ID())
		require.NoError(t, err)
		w.conn, w.keep = conn, keep
		w.start(t, 23)
		w.run(t, m, 40*time.Second)
		first, end := w.sp.LogRange()
		if keep == 0 {
			require.Equal(t, first, end, "a spectator keeps no log unless told")
			continue
		}
		require.Zero(t, first)
		var s pair // the log replays the host's frames
		for f := range core.Frame(120) {
			in, err := w.sp.ReadLog(f, nil)
			require.NoError(t, err)
			pairGame{leakAt: -1}.Step(&s, in, discard{})
			require.Equal(t, m.nodes[0].game.sums[f], state.Checksum(&s), "frame %d", f)
		}
	}
}

// discard is core.Effects that keeps nothing.
type discard struct{}

func (discard) Emit(core.Effect) bool { return true }

func TestSpectatorCatchesUpBoundedPerUpdate(t *testing.T) {
	m, w := newWatched(t, 22, sim.LinkConfig{Latency: sim.Latency{Base: ms(20)}}, streamOpts{})
	w.run(t, m, 2*time.Second)
	w.mute = true
	w.run(t, m, 2*time.Second) // 120 frames behind, below MaxLag
	w.mute = false
	w.most = 0
	w.run(t, m, 2*time.Second)
	if w.most > 8 || w.most < 2 {
		t.Errorf("at most %d frames per Update while catching up, want 2..8", w.most)
	}
	if b := w.sp.Stats().Buffered; b > 4 {
		t.Errorf("still %d frames buffered after 2 s of catch-up", b)
	}
	w.checkReplay(t, m)
	for i := range 2 {
		if st := m.nodes[i].s.Stats(); st.Stall > 100*time.Millisecond {
			t.Errorf("node %d stalled %v: a spectator held a player back", i, st.Stall)
		}
	}
}

func TestSpectatorTooFarBehindIsDropped(t *testing.T) {
	m, w := newWatched(t, 23, sim.LinkConfig{Latency: sim.Latency{Base: ms(20)}}, streamOpts{MaxLag: 60})
	w.run(t, m, time.Second)
	w.mute = true
	w.run(t, m, 1500*time.Millisecond)
	w.mute = false
	w.run(t, m, time.Second)
	var left core.SpectatorEvent
	for _, ev := range m.nodes[0].events {
		if e, ok := ev.(core.SpectatorEvent); ok && !e.Joined {
			left = e
		}
	}
	if !left.Dropped || left.Lag <= 60 {
		t.Errorf("host event %+v, want dropped with lag over 60", left)
	}
	end, ok := w.events[len(w.events)-1].(core.PeerLostEvent)
	if !ok || !end.Left || end.Reason != core.LeaveDropped {
		t.Fatalf("spectator's last event %#v, want core.PeerLostEvent{Left, core.LeaveDropped}", w.events[len(w.events)-1])
	}
	if !w.sp.Ended() {
		t.Error("Ended = false after the stream ended")
	}
	f, evs := w.sp.Frame(), len(w.events)
	for i := range 3 {
		if err := w.sp.Update(m.net.Now() + time.Duration(i)*m.render); err != nil {
			t.Errorf("Update after the end = %v, want nil", err)
		}
		w.events = append(w.events, w.sp.Events()...)
	}
	if play, _ := w.sp.Effects(); w.sp.Frame() != f || len(w.events) != evs || len(play) != 0 {
		t.Errorf("Update after the end simulated or raised events: frame %d -> %d, %d new events, %d effects", f, w.sp.Frame(), len(w.events)-evs, len(play))
	}
	w.checkReplay(t, m)
}

func TestSpectatorEndsWhenHostLeaves(t *testing.T) {
	m, w := newWatched(t, 24, sim.LinkConfig{Latency: sim.Latency{Base: ms(20)}}, streamOpts{})
	w.run(t, m, 2*time.Second)
	if err := m.nodes[0].s.Close(); err != nil {
		t.Fatal(err)
	}
	m.nodes[0].closed = true
	w.run(t, m, time.Second)
	end, ok := w.events[len(w.events)-1].(core.PeerLostEvent)
	if !ok || !end.Left || end.Reason != core.LeaveQuit {
		t.Fatalf("last event %#v, want core.PeerLostEvent{Left, core.LeaveQuit}", w.events[len(w.events)-1])
	}
	if m.count(1, isType[core.PeerLostEvent]) != 1 {
		t.Errorf("the other player did not see the host leave")
	}
}

// TestSpectatorEndsWhenHostIsLost mutes the host for good: the spectator
// waits for it the rejoin timeout (30 s), then ends.
func TestSpectatorEndsWhenHostIsLost(t *testing.T) {
	m, w := newWatched(t, 25, sim.LinkConfig{Latency: sim.Latency{Base: ms(20)}}, streamOpts{})
	w.run(t, m, 2*time.Second)
	m.nodes[0].mute = true
	w.run(t, m, 6*time.Second)
	if w.sp.Ended() || !w.sp.Stats().Rejoining {
		t.Fatalf("6 s after the host went silent: ended %v, waiting %v", w.sp.Ended(), w.sp.Stats().Rejoining)
	}
	w.run(t, m, 34*time.Second)
	end, ok := w.events[len(w.events)-1].(core.PeerLostEvent)
	if !ok || end.Left {
		t.Fatalf("last event %#v, want core.PeerLostEvent{Left: false}", w.events[len(w.events)-1])
	}
	w.checkReplay(t, m)
}

// TestSpectatorSeesDisconnectedPlayer drops a player mid-match: the
// spectator replays the agreed disconnect frame exactly.
func TestSpectatorSeesDisconnectedPlayer(t *testing.T) {
	m, w := newWatched(t, 26, sim.LinkConfig{Latency: sim.Latency{Base: ms(20)}}, streamOpts{})
	w.run(t, m, 2*time.Second)
	m.nodes[1].mute = true
	w.run(t, m, 5*time.Second)
	if m.count(0, isType[core.DisconnectEvent]) != 1 {
		t.Fatal("host did not disconnect player 1")
	}
	w.checkReplay(t, m)
	t.Logf("host at %d, spectator at %d", m.nodes[0].s.Frame(), w.sp.Frame())
	if c, _ := m.nodes[0].s.ConfirmedFrame(); w.sp.Frame() < c-4 {
		t.Errorf("spectator stopped at frame %d after the disconnect", w.sp.Frame())
	}
}

// TestSpectatorWaitsForSlowMatchStart connects the spectator while a
// player is still missing for longer than the disconnect timeout: the
// host's heartbeats keep the stream open until the match starts.
func TestSpectatorWaitsForSlowMatchStart(t *testing.T) {
	m, w := newWatched(t, 27, sim.LinkConfig{Latency: sim.Latency{Base: ms(20)}}, streamOpts{})
	m.nodes[1].mute = true
	w.run(t, m, 4*time.Second)
	m.nodes[1].mute = false
	w.run(t, m, 3*time.Second)
	if w.sp.Ended() {
		t.Fatalf("stream ended before the match started: %v", w.events)
	}
	if w.sp.Frame() < 100 {
		t.Errorf("spectator at frame %d, want the match replayed", w.sp.Frame())
	}
	w.checkReplay(t, m)
}
