package rollback

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
	"github.com/stretchr/testify/require"
)

// bigState is the size of the RTS example's state at 10,000 units (about
// 745 KB), of random words so that it compresses no better than unit
// data would.
type bigState struct {
	Turn  int64
	Words [93_120]uint64
}

func bigStep(s *bigState, in []core.Input[uint32], _ core.Effects) {
	for i, x := range in {
		k := (uint64(s.Turn)*131 + uint64(i)*7919) % uint64(len(s.Words))
		s.Words[k] = s.Words[k]*0x100000001b3 ^ uint64(x.Value)
	}
	s.Turn++
}

// bigMatch is a 20-turn-per-second lockstep match of two players with a
// bigState, over links losing 10 % of datagrams, whose host (player 0)
// streams to one spectator address.
type bigMatch struct {
	t     *testing.T
	net   *sim.Network
	conns []*sim.Endpoint // players 0 and 1, then the spectator's
	sess  []*Session[bigState, uint32]
	sp    *Spectator[bigState, uint32]
	init  *bigState
	sums  map[core.Frame]uint64 // the host's state after each turn
	host  []core.Event
	now   time.Duration
}

func newBigMatch(t *testing.T, rate int) *bigMatch {
	t.Helper()
	m := &bigMatch{t: t, init: new(bigState), sums: map[core.Frame]uint64{}}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range m.init.Words {
		m.init.Words[i] = r.Uint64()
	}
	var err error
	m.net, err = sim.New(sim.Config{Seed: 6, Link: sim.LinkConfig{Latency: sim.Latency{Base: 30 * time.Millisecond}, Loss: 0.10}})
	require.NoError(t, err)
	m.conns = []*sim.Endpoint{m.net.NewEndpoint(), m.net.NewEndpoint(), m.net.NewEndpoint()}
	host := core.GameFunc[bigState, uint32](func(s *bigState, in []core.Input[uint32], fx core.Effects) {
		bigStep(s, in, fx)
		m.sums[core.Frame(s.Turn-1)] = state.Checksum(s)
	})
	for i := range 2 {
		c := Config{Mode: rollstep.Lockstep, TickRate: 20, Players: 2, Local: []core.PlayerHandle{core.PlayerHandle(i)},
			Peers:      []rollstep.Peer{{Addr: m.conns[1-i].ID(), Players: []core.PlayerHandle{core.PlayerHandle(1 - i)}}},
			RejoinRate: rate}
		g := core.GameFunc[bigState, uint32](bigStep)
		if i == 0 {
			c.Spectators, g = []transport.Addr{m.conns[2].ID()}, host
		}
		c.Transport.Rand = rand.NewChaCha8([32]byte{byte(i)})
		s, err := NewSession(c, g, *m.init, m.conns[i])
		require.NoError(t, err)
		m.sess = append(m.sess, s)
	}
	return m
}

// step advances 5 ms: both players give an input (one per turn: a full
// queue refuses the rest) and update, and so does the spectator if any.
func (m *bigMatch) step() {
	m.now += 5 * time.Millisecond
	m.net.RunUntil(m.now)
	for i, s := range m.sess {
		_ = s.AddLocalInput(core.PlayerHandle(i), uint32(m.now/(200*time.Millisecond)))
		require.NoError(m.t, s.Update(m.now), "player %d", i)
		if i == 0 {
			m.host = append(m.host, s.Events()...)
		} else {
			s.Events()
		}
	}
	if m.sp != nil {
		require.NoError(m.t, m.sp.Update(m.now))
		m.sp.Events()
	}
}

func (m *bigMatch) runFor(d time.Duration) {
	for end := m.now + d; m.now < end; {
		m.step()
	}
}

// watch starts a spectator process at the spectator's address.
func (m *bigMatch) watch(seed byte) {
	conn := m.conns[2]
	if seed > 0 {
		var err error
		conn, err = m.net.Reopen(conn.ID())
		require.NoError(m.t, err)
		m.conns[2] = conn
	}
	tc := transport.Config{Rand: rand.NewChaCha8([32]byte{seed, 7})}
	var err error
	m.sp, err = NewSpectator(SpectatorConfig{Host: m.conns[0].ID(), Players: 2, TickRate: 20, Transport: tc}, core.GameFunc[bigState, uint32](bigStep), *m.init, conn)
	require.NoError(m.t, err)
}

// checkReplay requires the spectator's state to be the host's of its
// frame.
func (m *bigMatch) checkReplay() {
	f := m.sp.Frame() - 1
	want, ok := m.sums[f]
	require.True(m.t, ok, "no host checksum of frame %d", f)
	require.Equal(m.t, want, state.Checksum(m.sp.State()), "the spectator's state at frame %d", f)
}

// A spectator joins a lockstep match of a 745 KB state 20 s in, at 10 %
// loss, at the default rate and at 1 MB/s: it replays the match exactly
// from the state it was sent, and the players keep their turn rate while
// it goes out. The numbers are logged for the README.
func TestSpectatorJoinsLargeState(t *testing.T) {
	if testing.Short() {
		t.Skip("a 745 KB state")
	}
	for _, rate := range []int{0, 1 << 20} {
		t.Run(fmt.Sprintf("rate=%d", rate), func(t *testing.T) {
			m := newBigMatch(t, rate)
			m.runFor(20 * time.Second)
			m.watch(0)
			startAt, turnAt := m.now, m.sess[0].Frame()
			for k := 0; m.sp.Frame() == 0; k++ {
				require.Less(t, k, 20000, "the spectator never started")
				m.step()
			}
			took, turns := m.now-startAt, m.sess[0].Frame()-turnAt
			st := m.sess[0].Stats().Spectators[0]
			m.runFor(2 * time.Second)
			m.checkReplay()
			nominal := int(took / (50 * time.Millisecond))
			t.Logf("745 KB at 10%% loss, rate %d B/s: the spectator started from turn %d %v after it started (%d B on the wire); the players ran %d turns of %d due",
				rate, st.From, took, st.JoinBytes, turns, nominal)
			require.Greater(t, st.From, core.Frame(300))
			require.GreaterOrEqual(t, int(turns), nominal*9/10, "the players kept their turn rate")
		})
	}
}

// A spectator whose process dies while its join record goes out is
// reported gone, costs the players nothing, and a new process at its
// address joins in full.
func TestSpectatorDiesWhileJoining(t *testing.T) {
	if testing.Short() {
		t.Skip("a 745 KB state")
	}
	m := newBigMatch(t, 0)
	m.runFor(20 * time.Second)
	m.watch(0)
	m.runFor(time.Second) // a quarter of the record is out
	require.Zero(t, m.sp.Frame())
	require.NoError(t, m.conns[2].Close())
	m.sp = nil
	turnAt := m.sess[0].Frame()
	m.runFor(5 * time.Second)
	require.GreaterOrEqual(t, int(m.sess[0].Frame()-turnAt), 5*20*9/10, "the players kept their turn rate")
	st := m.sess[0].Stats().Spectators[0]
	require.True(t, st.Left)
	var gone, joined int
	for _, ev := range m.host {
		if e, ok := ev.(core.SpectatorEvent); ok && e.Joined {
			joined++
		} else if ok {
			gone++
		}
	}
	require.Zero(t, joined, "the dead spectator was reported joined")
	require.Equal(t, 2, gone, "the first handshake's timeout, then the death")

	m.watch(1)
	m.runFor(8 * time.Second)
	require.Positive(t, m.sp.Frame())
	m.checkReplay()
}
