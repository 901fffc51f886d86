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

// A spectator joins a 20-turn-per-second lockstep match of a 745 KB state
// 20 s in, over links losing 10 % of datagrams, at the default rate and
// at 1 MB/s: it replays the match exactly from the state it was sent,
// and the players keep their turn rate while it goes out. The numbers are
// logged for the README.
func TestSpectatorJoinsLargeState(t *testing.T) {
	if testing.Short() {
		t.Skip("a 745 KB state")
	}
	init := new(bigState)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range init.Words {
		init.Words[i] = r.Uint64()
	}
	game := core.GameFunc[bigState, uint32](bigStep)
	for _, rate := range []int{0, 1 << 20} {
		t.Run(fmt.Sprintf("rate=%d", rate), func(t *testing.T) {
			net, err := sim.New(sim.Config{Seed: 6, Link: sim.LinkConfig{Latency: sim.Latency{Base: 30 * time.Millisecond}, Loss: 0.10}})
			require.NoError(t, err)
			conns := []*sim.Endpoint{net.NewEndpoint(), net.NewEndpoint(), net.NewEndpoint()}
			sess := make([]*Session[bigState, uint32], 2)
			sums := map[core.Frame]uint64{} // the host's state after each turn
			host := core.GameFunc[bigState, uint32](func(s *bigState, in []core.Input[uint32], fx core.Effects) {
				bigStep(s, in, fx)
				sums[core.Frame(s.Turn-1)] = state.Checksum(s)
			})
			for i := range 2 {
				c := Config{Mode: rollstep.Lockstep, TickRate: 20, Players: 2, Local: []core.PlayerHandle{core.PlayerHandle(i)},
					Peers:      []rollstep.Peer{{Addr: conns[1-i].ID(), Players: []core.PlayerHandle{core.PlayerHandle(1 - i)}}},
					RejoinRate: rate}
				if i == 0 {
					c.Spectators = []transport.Addr{conns[2].ID()}
				}
				c.Transport.Rand = rand.NewChaCha8([32]byte{byte(i)})
				g := game
				if i == 0 {
					g = host
				}
				sess[i], err = NewSession(c, g, *init, conns[i])
				require.NoError(t, err)
			}
			var sp *Spectator[bigState, uint32]
			now := time.Duration(0)
			step := func() {
				now += 5 * time.Millisecond
				net.RunUntil(now)
				for i, s := range sess {
					_ = s.AddLocalInput(core.PlayerHandle(i), uint32(now/(200*time.Millisecond))) // a full queue refuses it
					require.NoError(t, s.Update(now), "player %d", i)
					s.Events()
				}
				if sp != nil {
					require.NoError(t, sp.Update(now))
					sp.Events()
				}
			}
			for now < 20*time.Second {
				step()
			}
			sp, err = NewSpectator(SpectatorConfig{Host: conns[0].ID(), Players: 2, TickRate: 20}, game, *init, conns[2])
			require.NoError(t, err)
			startAt, turnAt := now, sess[0].Frame()
			for k := 0; sp.Frame() == 0; k++ {
				require.Less(t, k, 20000, "the spectator never started")
				step()
			}
			took, turns := now-startAt, sess[0].Frame()-turnAt
			st := sess[0].Stats().Spectators[0]
			for range 400 {
				step()
			}
			f := sp.Frame() - 1
			want, ok := sums[f]
			require.True(t, ok, "no host checksum of frame %d", f)
			require.Equal(t, want, state.Checksum(sp.State()), "the spectator's state at frame %d", f)
			nominal := int(took / (50 * time.Millisecond))
			t.Logf("745 KB at 10%% loss, rate %d B/s: the spectator started from turn %d %v after it started (%d B on the wire); the players ran %d turns of %d due",
				rate, st.From, took, st.JoinBytes, turns, nominal)
			require.Greater(t, st.From, core.Frame(300))
			require.GreaterOrEqual(t, int(turns), nominal*9/10, "the players kept their turn rate")
		})
	}
}
