package rollback

import (
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/testenv"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/udp"
	"github.com/stretchr/testify/require"
)

// A host lists two spectator places without addresses over a UDP Conn
// that accepts unknown sources. Two spectators at ports the host never
// heard of start 3 s into the match (past a replay from frame 0), each
// takes a place, gets a recent state and replays the match exactly. Real
// sockets on the wall clock, in one process; nothing is asserted about
// time.
func TestAnonymousSpectatorsJoinLate(t *testing.T) {
	if testing.Short() {
		t.Skip("real sockets and the wall clock")
	}
	s0, a0 := testenv.Loopback(t)
	s1, a1 := testenv.Loopback(t)
	const rate = 120
	var sess [2]*Session[pair, uint16]
	sums := map[core.Frame]uint64{} // the host's state after each frame, as it last simulated it
	for i, sock := range []*net.UDPConn{s0, s1} {
		table := []udp.Peer{{ID: transport.Addr(1 - i), Addr: []netip.AddrPort{a1, a0}[i]}}
		c := testConfig(2, i, 70)
		c.TickRate = rate
		if i == 0 {
			table = append(table, udp.Peer{ID: 10}, udp.Peer{ID: 11}) // two places, no addresses
			c.Spectators = []transport.Addr{10, 11}
		}
		conn, err := udp.New(sock, udp.Config{Peers: table, AcceptUnknown: i == 0})
		require.NoError(t, err)
		var game core.Game[pair, uint16] = pairGame{leakAt: -1}
		if i == 0 {
			game = core.GameFunc[pair, uint16](func(s *pair, in []core.Input[uint16], fx core.Effects) {
				pairGame{leakAt: -1}.Step(s, in, fx)
				sums[core.Frame(s.Frame-1)] = state.Checksum(s)
			})
		}
		sess[i], err = NewSession(c, game, pair{}, conn)
		require.NoError(t, err)
		t.Cleanup(func() { _ = sess[i].Close() })
	}
	var specs []*Spectator[pair, uint16]
	start := time.Now()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		now := time.Since(start)
		require.Less(t, now, 20*time.Second, "the spectators did not catch up")
		for i, s := range sess {
			_ = s.AddLocalInput(core.PlayerHandle(i), defaultInput(core.PlayerHandle(i), s.Frame()))
			require.NoError(t, s.Update(now), "player %d", i)
			s.Events()
		}
		if specs == nil && now >= 3*time.Second {
			for k := range 2 {
				sock, _ := testenv.Loopback(t)
				conn, err := udp.New(sock, udp.Config{Peers: []udp.Peer{{ID: 0, Addr: a0}}})
				require.NoError(t, err)
				tc := testConfig(2, 0, 80+uint64(k)).Transport
				sp, err := NewSpectator[pair, uint16](SpectatorConfig{Host: 0, TickRate: rate, Game: [16]byte{'t'}, Transport: tc}, pairGame{leakAt: -1}, pair{}, conn)
				require.NoError(t, err)
				t.Cleanup(func() { _ = sp.Close() })
				specs = append(specs, sp)
			}
		}
		caught := specs != nil
		for _, sp := range specs {
			require.NoError(t, sp.Update(now))
			sp.Events()
			c, _ := sess[0].ConfirmedFrame()
			caught = caught && sp.Frame() > 0 && c-sp.Frame() < 10
		}
		if caught {
			break
		}
		<-tick.C
	}
	st := sess[0].Stats().Spectators
	require.Len(t, st, 2)
	for k, sp := range specs {
		f := sp.Frame() - 1
		require.Equal(t, sums[f], state.Checksum(sp.State()), "spectator %d at frame %d", k, f)
		require.True(t, st[k].Joined, "place %d", k)
		require.Greater(t, st[k].From, core.Frame(256), "place %d started from a recent state", k)
	}
}
