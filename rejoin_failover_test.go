package rollstep

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/transport/sim"
	"github.com/stretchr/testify/require"
)

// Player 2's process crashes and comes back; while player 0, its sponsor,
// sends it the 745 KB state, player 0's process dies too. Player 1 gives
// player 0 up, takes the rejoin over from the start, and player 2's new
// process takes its state instead: the two that are left end on the same
// checksums.
func TestRejoinSponsorFailover(t *testing.T) {
	if testing.Short() {
		t.Skip("a 745 KB state")
	}
	init := randomBigState(3)
	game := core.GameFunc[bigState, gInput](bigStep)
	net, err := sim.New(sim.Config{Seed: 8, Link: sim.LinkConfig{Latency: sim.Latency{Base: 20 * ms}, Loss: 0.02}})
	require.NoError(t, err)
	conns := []*sim.Endpoint{net.NewEndpoint(), net.NewEndpoint(), net.NewEndpoint()}
	cfgs := make([]Config, 3)
	sess := make([]*Session[bigState, gInput], 3)
	for i := range 3 {
		cfgs[i] = Config{Mode: Lockstep, TickRate: 20, Players: 3, Local: []core.PlayerHandle{core.PlayerHandle(i)}}
		for j := range 3 {
			if j != i {
				cfgs[i].Peers = append(cfgs[i].Peers, Peer{Addr: conns[j].ID(), Players: []core.PlayerHandle{core.PlayerHandle(j)}})
			}
		}
		cfgs[i].Transport.Rand = rand.NewChaCha8([32]byte{byte(i), 6})
		sess[i], err = NewSession(cfgs[i], game, *init, conns[i])
		require.NoError(t, err)
	}
	now, live := time.Duration(0), []bool{true, true, true}
	var rejoins [3][]core.RejoinEvent
	step := func() {
		now += 5 * ms
		net.RunUntil(now)
		for i, s := range sess {
			if !live[i] {
				continue
			}
			_ = s.AddLocalInput(core.PlayerHandle(i), gInput{Buttons: uint32(now / (150 * ms))})
			require.NoError(t, s.Update(now), "player %d", i)
			for _, ev := range s.Events() {
				if re, ok := ev.(core.RejoinEvent); ok {
					rejoins[i] = append(rejoins[i], re)
				}
			}
		}
	}
	runFor := func(d time.Duration) {
		for end := now + d; now < end; {
			step()
		}
	}
	runFor(10 * time.Second)
	require.NoError(t, conns[2].Close()) // player 2 crashes
	live[2] = false
	runFor(time.Second)
	conn, err := net.Reopen(conns[2].ID())
	require.NoError(t, err)
	c := cfgs[2]
	c.Rejoin, c.Transport.Rand = true, rand.NewChaCha8([32]byte{2, 7})
	sess[2], err = NewSession(c, game, bigState{}, conn)
	require.NoError(t, err)
	live[2] = true
	runFor(1500 * time.Millisecond) // player 0 is sending the state
	require.Empty(t, rejoins[2], "the rejoin ended before the sponsor died")
	require.NoError(t, conns[0].Close()) // the sponsor dies
	live[0] = false
	for k := 0; len(rejoins[2]) == 0; k++ {
		require.Less(t, k, 8000, "no rejoin in 40 s")
		step()
	}
	require.NoError(t, rejoins[2][0].Err, "the new process's rejoin")
	ret := rejoins[2][0].Return
	for sess[1].Frame() < ret+100 || sess[2].Frame() < ret+100 {
		step()
	}
	runFor(500 * time.Millisecond)
	var sponsored *core.RejoinEvent
	for i := range rejoins[1] {
		if e := &rejoins[1][i]; e.Peer == 1 && e.Err == nil { // player 2 is player 1's peer 1
			sponsored = e
		}
	}
	require.NotNil(t, sponsored, "player 1 reports the rejoin: %+v", rejoins[1])
	require.Positive(t, sponsored.Bytes, "player 1 sent the state")
	f, _ := sess[1].ConfirmedFrame()
	common := 0
	for g := f - 40; g < f; g++ {
		a, okA := sess[1].Checksum(g)
		b, okB := sess[2].Checksum(g)
		if okA && okB {
			require.Equal(t, a, b, "checksum of frame %d", g)
			common++
		}
	}
	require.Greater(t, common, 20)
	t.Logf("rejoined after the sponsor died: return frame %d, the new sponsor sent %d B in %v", ret, sponsored.Bytes, sponsored.Took)
}

// Player 1's process crashes and comes back; its sponsor, player 0,
// writes the return command, which player 2 settles, and dies before its
// handoff arrives. Player 2, the lowest survivor, sends the new process
// its state and the handoff of the return already agreed: without them
// nobody could agree player 0's disconnect (it needs player 1's vote) and
// the match would freeze. Player 1 lost player 0 while coming back: that
// is no refused handshake, and its engine counts player 0 gone at once.
func TestRejoinSponsorLostBeforeTheHandoff(t *testing.T) {
	for k := range 6 {
		mode := []Mode{Lockstep, Rollback, Auto}[k%3]
		t.Run(fmt.Sprintf("%v/%d", mode, k), func(t *testing.T) {
			m := newCrashMatch(t, 4, mode, 0, 2100+uint64(k))
			m.run(func() bool { return m.lowest() >= 100 })
			m.kill(1)
			m.runFor(500 * ms)
			m.restart(1, nil)
			// Player 0's handoff never reaches player 1: the link is cut
			// once the return command is queued.
			m.run(func() bool {
				sp := m.peers[0].sess.rejoin.sponsor
				if sp != nil && sp.stage == stageReturn {
					m.net.Cut(m.conns[0].ID(), m.conns[1].ID())
					return true
				}
				return false
			})
			m.run(func() bool {
				for _, ev := range m.events[2] {
					if ev, ok := ev.(core.RejoinEvent); ok && ev.Peer == 1 { // player 1 is player 2's peer 1
						return true
					}
				}
				return false
			})
			_, back := m.rejoined(1)
			require.False(t, back, "player 1 resumed without the handoff")
			m.kill(0)
			r := m.awaitRejoin(1).Return
			// At once, not when player 1's handshake with player 0 times
			// out: it lost player 0 while coming back, and its resumed
			// engine counts player 0 gone.
			m.goesOnAfter(r, 8*time.Second)
		})
	}
}

// A process that comes back to a match nobody plays any more (every
// handshake times out) fails its rejoin once the last one does, not after
// its rejoin timeout, and the error says why.
func TestRejoinWithNobodyLeft(t *testing.T) {
	m := newCrashMatch(t, 3, Rollback, 0, 17)
	m.run(func() bool { return m.lowest() >= 120 })
	m.kill(2)
	require.NoError(t, m.conns[0].Close())
	require.NoError(t, m.conns[1].Close())
	m.restart(2, func(c *Config) { c.RejoinTimeout = time.Minute })
	began := m.now
	var err error
	for err == nil {
		require.Less(t, m.now-began, time.Minute, "the rejoin did not fail")
		m.now += 5 * ms
		m.net.RunUntil(m.now)
		err = m.peers[2].sess.Update(m.now)
	}
	require.ErrorIs(t, err, ErrRejoin)
	require.ErrorIs(t, err, endpoint.ErrHandshakeTimeout)
	require.Less(t, m.now-began, 15*time.Second, "failed at the handshake timeout: %v", err)
}
