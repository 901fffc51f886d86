package rollstep

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
	"github.com/stretchr/testify/require"
)

// crashMatch is a match over transport/sim in which one peer's process is
// killed and a new one of its seat rejoins.
type crashMatch struct {
	t       *testing.T
	net     *sim.Network
	peers   []*gPeer
	cfgs    []Config
	conns   []*sim.Endpoint
	dead    int // the peer whose process is down, or -1
	now     time.Duration
	events  [][]core.Event
	crashed int
	starts  int    // processes restarted so far: each draws other nonces
	each    func() // if set, run calls it after every step of the peers
}

func newCrashMatch(t *testing.T, n int, mode Mode, loss float64, seed uint64, edit ...func(i int, c *Config)) *crashMatch {
	t.Helper()
	net, err := sim.New(sim.Config{Seed: seed, Link: sim.LinkConfig{Latency: sim.Latency{Base: 30 * ms, Jitter: 10 * ms}, Loss: loss}})
	require.NoError(t, err)
	m := &crashMatch{t: t, net: net, dead: -1, events: make([][]core.Event, n)}
	for range n {
		m.conns = append(m.conns, net.NewEndpoint())
	}
	for i := range n {
		c := Config{Mode: mode, TickRate: 60, Players: n, Local: []core.PlayerHandle{core.PlayerHandle(i)}}
		for j := range n {
			if j != i {
				c.Peers = append(c.Peers, Peer{Addr: m.conns[j].ID(), Players: []core.PlayerHandle{core.PlayerHandle(j)}})
			}
		}
		c.Transport.Token = 0x5eed
		c.Transport.Rand = rand.NewChaCha8([32]byte{byte(i), 1})
		for _, e := range edit {
			e(i, &c)
		}
		p := &gPeer{rng: rand.New(rand.NewPCG(uint64(i), 2))}
		s, err := NewSession(c, core.GameFunc[gState, gInput](p.step), gState{}, m.conns[i])
		require.NoError(t, err)
		p.sess = s
		m.peers, m.cfgs = append(m.peers, p), append(m.cfgs, c)
	}
	return m
}

// run plays until until reports true.
func (m *crashMatch) run(until func() bool) {
	m.t.Helper()
	for k := 0; !until(); k++ {
		require.Less(m.t, k, 200000, "the match did not get there")
		m.now += 5 * ms
		m.net.RunUntil(m.now)
		for i, p := range m.peers {
			if i == m.dead {
				continue
			}
			in := gInput{Buttons: uint32(m.now / (300 * ms) % 4)}
			if p.rng.IntN(8) == 0 {
				in.Buttons |= 0x100
			}
			_ = p.sess.AddLocalInput(core.PlayerHandle(i), in)
			if err := p.sess.Update(m.now); err != nil {
				m.t.Fatalf("peer %d at %v: %v", i, m.now, err)
			}
			m.events[i] = append(m.events[i], p.sess.Events()...)
		}
		if m.each != nil {
			m.each()
		}
	}
}

// lowest returns the lowest frame of the live peers.
func (m *crashMatch) lowest() core.Frame {
	f := core.Frame(1 << 30)
	for i, p := range m.peers {
		if i != m.dead {
			f = min(f, p.sess.Frame())
		}
	}
	return f
}

// kill stops peer i's process: no Leave, its socket closes.
func (m *crashMatch) kill(i int) {
	require.NoError(m.t, m.conns[i].Close())
	m.dead, m.crashed = i, i
}

// restart starts a new process of peer i's seat with Rejoin set.
func (m *crashMatch) restart(i int, edit func(c *Config)) {
	conn, err := m.net.Reopen(m.conns[i].ID())
	require.NoError(m.t, err)
	c := m.cfgs[i]
	c.Rejoin = true
	m.starts++
	c.Transport.Rand = rand.NewChaCha8([32]byte{byte(i), 9, byte(m.starts)})
	if edit != nil {
		edit(&c)
	}
	p := &gPeer{rng: rand.New(rand.NewPCG(uint64(i), 3))}
	s, err := NewSession(c, core.GameFunc[gState, gInput](p.step), gState{}, conn)
	require.NoError(m.t, err)
	p.sess = s
	m.peers[i], m.conns[i], m.dead = p, conn, -1
	m.events[i] = nil
}

// crashAndRejoin kills peer i's process, restarts it after down and runs
// until its rejoin ended; it fails the test unless the rejoin succeeded.
func (m *crashMatch) crashAndRejoin(i int, down time.Duration) core.RejoinEvent {
	m.t.Helper()
	m.kill(i)
	until := m.now + down
	m.run(func() bool { return m.now >= until })
	m.restart(i, nil)
	return m.awaitRejoin(i)
}

// awaitRejoin runs until peer i's own rejoin ended; it fails the test
// unless it succeeded.
func (m *crashMatch) awaitRejoin(i int) core.RejoinEvent {
	m.t.Helper()
	var ev core.RejoinEvent
	m.run(func() bool {
		var ok bool
		ev, ok = m.rejoined(i)
		return ok
	})
	require.NoError(m.t, ev.Err)
	return ev
}

// rejoinedAfter returns peer i's own RejoinEvent among evs and the
// events already seen.
func (m *crashMatch) rejoinedAfter(i int, evs []core.Event) (core.RejoinEvent, bool) {
	m.events[i] = append(m.events[i], evs...)
	return m.rejoined(i)
}

// rejoined returns peer i's own RejoinEvent, once it has one.
func (m *crashMatch) rejoined(i int) (core.RejoinEvent, bool) {
	for _, ev := range m.events[i] {
		if r, ok := ev.(core.RejoinEvent); ok && r.Peer == -1 {
			return r, true
		}
	}
	return core.RejoinEvent{}, false
}

// check asserts that every peer agrees on the checksums of the confirmed
// frames they all hold (agree), and that every survivor logged the
// crashed player disconnected from some frame up to the return frame r,
// for at least the smallest return lead (8 frames), and with its real
// inputs from r on.
func (m *crashMatch) check(r core.Frame) {
	t := m.t
	t.Helper()
	end := m.agree(r)
	for i, p := range m.peers {
		if i == m.crashed {
			continue
		}
		gone, real := 0, 0
		for f := r - 30; f < end; f++ {
			in, err := p.sess.ReadLog(f, nil)
			require.NoError(t, err, "peer %d frame %d", i, f)
			switch st := in[m.crashed].Status; {
			case f >= r:
				require.NotEqual(t, core.InputDisconnected, st, "peer %d frame %d", i, f)
				real++
			case st == core.InputDisconnected:
				gone++
			default: // played before the disconnect, not after it
				require.Zero(t, gone, "peer %d frame %d: connected again before the return", i, f)
			}
		}
		require.GreaterOrEqual(t, gone, 8, "peer %d: frames disconnected before the return", i)
		require.Positive(t, real)
	}
}

// agree asserts that every peer agrees on the checksums of the confirmed
// frames they all hold, more than 60 of them, that the match ran past
// frame r+60, and that no desync was detected; it returns the first frame
// not confirmed everywhere.
func (m *crashMatch) agree(r core.Frame) core.Frame {
	m.t.Helper()
	for i, p := range m.peers {
		require.Zero(m.t, p.sess.Stats().Desyncs, "peer %d desyncs", i)
		for _, ev := range m.events[i] {
			if d, ok := ev.(core.DesyncEvent[gState]); ok {
				m.t.Fatalf("peer %d: desync at frame %d", i, d.Frame)
			}
		}
	}
	return m.agreeAfter(r)
}

// agreeAfter is agree without its check that nobody ever detected a
// desync: for a match that was split, whose sides played apart (which
// peers of the two sides may detect) until the split healed. A peer that
// is gone for good (m.dead) is not compared.
func (m *crashMatch) agreeAfter(r core.Frame) core.Frame {
	t := m.t
	t.Helper()
	live := m.peers
	if m.dead >= 0 {
		live = slices.Delete(slices.Clone(m.peers), m.dead, m.dead+1)
	}
	end := core.Frame(1 << 30)
	for _, p := range live {
		f, ok := p.sess.ConfirmedFrame()
		require.True(t, ok)
		end = min(end, f+1)
	}
	require.Greater(t, end, r+60, "the match ran a second past the return")
	// The newest confirmed frames are logged and checksummed with the next
	// frame run: let every peer run one.
	until := m.now + 100*ms
	m.run(func() bool { return m.now >= until })
	common := 0
	for f := end - 120; f < end; f++ {
		sums := map[uint64]int{}
		for _, p := range live {
			if sum, ok := p.sess.Checksum(f); ok {
				sums[sum]++
			}
		}
		require.LessOrEqual(t, len(sums), 1, "the peers' checksums of frame %d differ: %v", f, sums)
		for _, k := range sums {
			if k == len(live) {
				common++
			}
		}
	}
	require.Greater(t, common, 60, "frames every peer checksummed")
	return end
}

// A peer whose process is killed at frame 600 and restarted a second
// later rejoins its match, in every mode and with 2, 3 and 4 peers over a
// link losing 5 % of datagrams; every peer ends on the same checksums and
// the survivors count its inputs again from the agreed return frame.
func TestRejoinAfterCrash(t *testing.T) {
	for _, mode := range []Mode{Lockstep, Rollback, Auto} {
		for _, n := range []int{2, 3, 4} {
			t.Run(fmt.Sprintf("%v/%dpeers", mode, n), func(t *testing.T) {
				m := newCrashMatch(t, n, mode, 0.05, uint64(n)*7+uint64(mode))
				m.run(func() bool { return m.lowest() >= 600 })
				victim := n - 1
				if n == 3 {
					victim = 0 // the lowest handle: the sponsor is another
				}
				ev := m.crashAndRejoin(victim, time.Second)
				m.run(func() bool { return m.lowest() >= ev.Return+180 })
				m.check(ev.Return)
				// Every survivor reports the rejoin done, the sponsor with
				// the snapshot it sent.
				sent := 0
				for i := range n {
					if i == victim {
						continue
					}
					var got []core.RejoinEvent
					for _, e := range m.events[i] {
						if r, ok := e.(core.RejoinEvent); ok {
							got = append(got, r)
						}
					}
					require.Len(t, got, 1, "peer %d's rejoin events", i)
					require.NoError(t, got[0].Err, "peer %d", i)
					require.Equal(t, ev.Return, got[0].Return, "peer %d's return frame", i)
					if got[0].Snapshot > 0 {
						sent++
						require.Positive(t, got[0].Bytes)
					}
				}
				require.Equal(t, 1, sent, "one sponsor")
				t.Logf("snapshot %d handoff %d return %d: %d bytes, %d chunks, %d duplicates, %v",
					ev.Snapshot, ev.Handoff, ev.Return, ev.Bytes, ev.Chunks, ev.Retransmits, ev.Took)
			})
		}
	}
}

// A new process with the wrong token, or claiming another peer's seat,
// never gets in: its rejoin times out with ErrRejoin, and the survivors
// play on undisturbed.
func TestRejoinRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(c *Config)
	}{
		{"wrong token", func(c *Config) { c.Transport.Token++ }},
		{"another seat", func(c *Config) {
			c.Local, c.Peers[0].Players = []core.PlayerHandle{0}, []core.PlayerHandle{1}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newCrashMatch(t, 2, Rollback, 0, 3)
			m.run(func() bool { return m.lowest() >= 120 })
			m.kill(1)
			m.restart(1, func(c *Config) {
				tc.edit(c)
				c.RejoinTimeout = 3 * time.Second
			})
			var err error
			for k := 0; err == nil; k++ {
				require.Less(t, k, 10000)
				m.now += 5 * ms
				m.net.RunUntil(m.now)
				_ = m.peers[0].sess.Update(m.now)
				err = m.peers[1].sess.Update(m.now)
			}
			require.True(t, errors.Is(err, ErrRejoin), "%v", err)
			for _, ev := range m.peers[0].sess.Events() {
				if r, ok := ev.(core.RejoinEvent); ok {
					t.Fatalf("the survivor saw a rejoin: %+v", r)
				}
			}
		})
	}
}

// A sponsor whose snapshot does not reproduce the state its handoff
// vouches for is caught: the new process's rejoin fails with ErrRejoin
// (it leaves), and the survivor plays on and drops it again.
func TestRejoinLyingSponsor(t *testing.T) {
	m := newCrashMatch(t, 2, Rollback, 0, 11)
	m.run(func() bool { return m.lowest() >= 300 })
	m.peers[0].sess.rejoin.tamper = func(b []byte) { b[len(b)-1] ^= 0x40 }
	m.kill(1)
	down := m.now + time.Second
	m.run(func() bool { return m.now >= down })
	m.restart(1, nil)
	var err error
	for k := 0; err == nil; k++ {
		require.Less(t, k, 20000)
		m.now += 5 * ms
		m.net.RunUntil(m.now)
		require.NoError(t, m.peers[0].sess.Update(m.now))
		err = m.peers[1].sess.Update(m.now)
	}
	require.ErrorIs(t, err, ErrRejoin)
	require.ErrorIs(t, err, engine.ErrBadHandoff)
	ev, ok := m.rejoinedAfter(1, m.peers[1].sess.Events())
	require.True(t, ok)
	require.ErrorIs(t, ev.Err, ErrRejoin)
	// The survivor is not held back: it drops the new process again.
	m.dead = 1
	f := m.peers[0].sess.Frame()
	m.run(func() bool { return m.peers[0].sess.Frame() >= f+300 })
	lost := 0
	for _, ev := range m.events[0] {
		if d, ok := ev.(core.DisconnectEvent); ok && d.Player == 1 {
			lost++
		}
	}
	require.Equal(t, 2, lost, "the player's disconnects: the old process and the failed new one")
}

// Two peers' processes restart at once: the sponsor takes one, and the
// other waits its turn and comes back after it; nothing fails.
func TestRejoinOneAtATime(t *testing.T) {
	m := newCrashMatch(t, 4, Lockstep, 0, 13)
	m.run(func() bool { return m.lowest() >= 300 })
	m.kill(3)
	require.NoError(t, m.conns[2].Close())
	alive := m.peers[:2] // two are down: step drives the others by hand
	step := func() {
		m.now += 5 * ms
		m.net.RunUntil(m.now)
		for i, p := range alive {
			_ = p.sess.AddLocalInput(core.PlayerHandle(i), gInput{Buttons: uint32(m.now / (300 * ms) % 4)})
			require.NoError(t, p.sess.Update(m.now), "peer %d", i)
			m.events[i] = append(m.events[i], p.sess.Events()...)
		}
	}
	for range 200 {
		step()
	}
	m.restart(3, nil)
	m.restart(2, nil)
	done := func(i int) bool { _, ok := m.rejoined(i); return ok }
	for k := 0; !done(2) || !done(3); k++ {
		require.Less(t, k, 4000, "both did not rejoin in 20 s")
		step()
		for i := 2; i < 4; i++ {
			require.NoError(t, m.peers[i].sess.Update(m.now), "peer %d", i)
			m.events[i] = append(m.events[i], m.peers[i].sess.Events()...)
		}
	}
	ev2, _ := m.rejoined(2)
	ev3, _ := m.rejoined(3)
	require.NoError(t, ev2.Err)
	require.NoError(t, ev3.Err)
	require.Less(t, ev3.Return, ev2.Return, "the first restart returns first")
	for _, ev := range m.events[0] { // the sponsor
		if r, ok := ev.(core.RejoinEvent); ok {
			require.NoError(t, r.Err, "the sponsor's %+v", r)
		}
	}
}

// A 3 s blackout splits a two-peer match: each side drops the other and
// plays on alone. When the link heals the split is healed: the side
// without the lowest handle yields, throws its frames away and rejoins
// from the other, in every mode, and the match agrees again.
func TestSplitHeals(t *testing.T) {
	for _, mode := range []Mode{Lockstep, Rollback, Auto} {
		t.Run(mode.String(), func(t *testing.T) {
			m := newCrashMatch(t, 2, mode, 0.02, 21+uint64(mode))
			m.run(func() bool { return m.lowest() >= 300 })
			m.net.Cut(m.conns[0].ID(), m.conns[1].ID())
			m.net.Cut(m.conns[1].ID(), m.conns[0].ID())
			out := m.now + 3*time.Second
			m.run(func() bool { return m.now >= out })
			m.net.Heal()
			ev := m.awaitRejoin(1)
			require.Positive(t, ev.Discarded, "the yielding side's frames played apart")
			m.crashed = 1
			m.run(func() bool { return m.lowest() >= ev.Return+180 })
			m.check(ev.Return)
			split := 0
			for i := range 2 {
				for _, e := range m.events[i] {
					if _, ok := e.(core.SplitEvent); ok {
						split++
					}
				}
			}
			require.Positive(t, split, "the split is reported")
			t.Logf("split healed: %d frames discarded, return at frame %d, %v after the yield", ev.Discarded, ev.Return, ev.Took)
		})
	}
}

// Rejoins across seeds, modes, 2-4 peers, any victim and downtimes on
// both sides of the interrupt and disconnect timeouts, at 10 % loss. It
// caught a survivor that finished the restart handshake only after it
// had settled the return, and then dropped the new process again.
func TestRejoinSweep(t *testing.T) {
	for seed := uint64(100); seed < 110; seed++ {
		for _, mode := range []Mode{Lockstep, Rollback, Auto} {
			for _, n := range []int{2, 3, 4} {
				t.Run(fmt.Sprintf("seed=%d/%v/%dpeers", seed, mode, n), func(t *testing.T) {
					m := newCrashMatch(t, n, mode, 0.10, seed)
					m.run(func() bool { return m.lowest() >= 200 })
					victim := int(seed) % n
					ev := m.crashAndRejoin(victim, time.Duration(seed%3)*time.Second+300*time.Millisecond)
					m.run(func() bool { return m.lowest() >= ev.Return+180 })
					m.check(ev.Return)
				})
			}
		}
	}
}

// The same seat's process crashes twice: each new process rejoins, the
// second from a survivor that already brought the first back (an earlier
// return must not count for the new one).
func TestRejoinTwice(t *testing.T) {
	for seed := uint64(300); seed < 304; seed++ {
		for _, mode := range []Mode{Lockstep, Rollback, Auto} {
			for _, n := range []int{2, 3} {
				t.Run(fmt.Sprintf("%d/%v/%d", seed, mode, n), func(t *testing.T) {
					m := newCrashMatch(t, n, mode, 0.05, seed)
					victim := int(seed) % n
					var ev core.RejoinEvent
					for round := range 2 {
						at := m.lowest() + 150
						m.run(func() bool { return m.lowest() >= at })
						ev = m.crashAndRejoin(victim, time.Duration(round)*time.Second+500*time.Millisecond)
					}
					m.run(func() bool { return m.lowest() >= ev.Return+180 })
					m.check(ev.Return)
				})
			}
		}
	}
}

// A peer cut off from the others of a 3- or 4-peer match for 4 s is
// dropped by them and plays on alone; when the links heal it yields (it
// is alone, and the others hold a lower handle) and rejoins, in every
// mode, and the match agrees again.
func TestSplitHealsLonePeer(t *testing.T) {
	for seed := uint64(400); seed < 402; seed++ {
		for _, mode := range []Mode{Lockstep, Rollback, Auto} {
			for _, n := range []int{3, 4} {
				t.Run(fmt.Sprintf("%d/%v/%d", seed, mode, n), func(t *testing.T) {
					m := newCrashMatch(t, n, mode, 0.05, seed)
					m.run(func() bool { return m.lowest() >= 200 })
					lone := n - 1 - int(seed%2)
					for j := range n {
						if j != lone {
							m.net.Cut(m.conns[j].ID(), m.conns[lone].ID())
							m.net.Cut(m.conns[lone].ID(), m.conns[j].ID())
						}
					}
					out := m.now + 4*time.Second
					m.run(func() bool { return m.now >= out })
					m.net.Heal()
					ev := m.awaitRejoin(lone)
					m.crashed = lone
					m.run(func() bool { return m.lowest() >= ev.Return+180 })
					m.check(ev.Return)
				})
			}
		}
	}
}

// A peer down for 6 s, well past the disconnect timeout, rejoins a
// 3-peer match over links that lose a fifth of the datagrams.
func TestRejoinAfterLongDowntime(t *testing.T) {
	for seed := uint64(500); seed < 502; seed++ {
		for _, mode := range []Mode{Lockstep, Rollback, Auto} {
			t.Run(fmt.Sprintf("%d/%v", seed, mode), func(t *testing.T) {
				m := newCrashMatch(t, 3, mode, 0.2, seed)
				m.run(func() bool { return m.lowest() >= 200 })
				ev := m.crashAndRejoin(1, 6*time.Second)
				m.run(func() bool { return m.lowest() >= ev.Return+180 })
				m.check(ev.Return)
			})
		}
	}
}

// A rejoined player is disconnected until its return frame: orders it
// gives before then (Queued inputs, one a frame) are dropped, as any
// disconnected player's, instead of waiting in its queue to be played
// one a frame after the return, late by as many frames as it waited.
func TestRejoinLeavesNoOrderBacklog(t *testing.T) {
	m := newCrashMatch(t, 2, Auto, 0.02, 77, func(i int, c *Config) { c.Inputs = Queued })
	m.run(func() bool { return m.lowest() >= 120 })
	m.kill(1)
	up := m.now + time.Second
	m.run(func() bool { return m.now >= up })
	m.restart(1, nil)
	// From here the game loop gives one order a frame, as a game does.
	var fed [2]core.Frame
	var ev core.RejoinEvent
	for k := 0; ; k++ {
		require.Less(t, k, 20000, "peer 1 never got 60 frames past its return")
		m.now += 5 * ms
		m.net.RunUntil(m.now)
		for i, p := range m.peers {
			if f := p.sess.Frame(); f >= fed[i] {
				_ = p.sess.AddLocalInput(core.PlayerHandle(i), gInput{Buttons: uint32(f) | 0x100})
				fed[i] = f + 1
			}
			require.NoError(t, p.sess.Update(m.now))
			m.events[i] = append(m.events[i], p.sess.Events()...)
		}
		var ok bool
		if ev, ok = m.rejoined(1); ok && m.peers[1].sess.Frame() >= ev.Return+60 {
			break
		}
	}
	require.NoError(t, ev.Err)
	require.Greater(t, ev.Return-ev.Handoff, core.Frame(8), "a return lead worth the test")
	require.LessOrEqual(t, m.peers[1].sess.Stats().Queued, 2, "orders waiting after the return")
}

// A new process that leaves in the middle of its rejoin ends it: the
// sponsor reports at once that the rejoin failed because the peer left,
// and sponsors nothing more for it. (It waited out RejoinTimeout, and
// when the return was not settled yet started over after each one.)
func TestRejoinEndsWhenThePeerLeaves(t *testing.T) {
	m := newCrashMatch(t, 3, Rollback, 0.02, 91)
	m.run(func() bool { return m.lowest() >= 120 })
	m.kill(1)
	up := m.now + time.Second
	m.run(func() bool { return m.now >= up })
	m.restart(1, nil)
	m.run(func() bool { // until the survivors know the new process
		st := m.peers[0].sess.Stats().Peers[0]
		return st.State == transport.StateConnected && m.now >= up+300*ms
	})
	require.NoError(t, m.peers[1].sess.Close())
	m.dead = 1
	out := m.now + 70*time.Second
	m.run(func() bool { return m.now >= out })
	var failed []error
	for _, ev := range m.events[0] {
		if r, ok := ev.(core.RejoinEvent); ok && r.Peer == 0 && r.Err != nil {
			failed = append(failed, r.Err)
		}
	}
	require.Len(t, failed, 1, "the sponsor's failed rejoins of the peer that left")
	require.ErrorIs(t, failed[0], ErrRejoin)
	require.Contains(t, failed[0].Error(), "left")
	require.Greater(t, m.lowest(), core.Frame(4000), "the others play on")
}
