package rollstep

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/sim"
	"github.com/stretchr/testify/require"
)

// bigState is the size of the RTS example's state at 10,000 units (about
// 745 KB), filled with random words so that it compresses no better than
// real unit data would.
type bigState struct {
	Turn  int64
	Words [93_120]uint64
}

// randomBigState returns a bigState of seeded random words.
func randomBigState(seed uint64) *bigState {
	s := new(bigState)
	r := rand.New(rand.NewPCG(seed, 2))
	for i := range s.Words {
		s.Words[i] = r.Uint64()
	}
	return s
}

func bigStep(s *bigState, in []core.Input[gInput], _ core.Effects) {
	for i, x := range in {
		k := (uint64(s.Turn)*131 + uint64(i)*7919) % uint64(len(s.Words))
		s.Words[k] = s.Words[k]*0x100000001b3 ^ uint64(x.Value.Buttons)
	}
	s.Turn++
}

// A 745 KB state rejoins over a link losing 10 % of datagrams at the
// default rate and at 1 MB/s, and the survivor keeps its frame rate while
// the snapshot goes out. The numbers are logged for the README.
func TestRejoinLargeState(t *testing.T) {
	if testing.Short() {
		t.Skip("a 745 KB state")
	}
	init := randomBigState(1)
	for _, rate := range []int{0, 1 << 20} {
		t.Run(fmt.Sprintf("rate=%d", rate), func(t *testing.T) {
			net, err := sim.New(sim.Config{Seed: 5, Link: sim.LinkConfig{Latency: sim.Latency{Base: 30 * ms}, Loss: 0.10}})
			require.NoError(t, err)
			conns := []*sim.Endpoint{net.NewEndpoint(), net.NewEndpoint()}
			cfgs := make([]Config, 2)
			sess := make([]*Session[bigState, gInput], 2)
			for i := range 2 {
				cfgs[i] = Config{Mode: Lockstep, TickRate: 20, Players: 2, Local: []core.PlayerHandle{core.PlayerHandle(i)},
					Peers:      []Peer{{Addr: conns[1-i].ID(), Players: []core.PlayerHandle{core.PlayerHandle(1 - i)}}},
					RejoinRate: rate}
				cfgs[i].Transport.Rand = rand.NewChaCha8([32]byte{byte(i)})
				sess[i], err = NewSession(cfgs[i], core.GameFunc[bigState, gInput](bigStep), *init, conns[i])
				require.NoError(t, err)
			}
			now := time.Duration(0)
			live := []bool{true, true}
			var ev core.RejoinEvent
			var evs []core.Event
			step := func() {
				now += 5 * ms
				net.RunUntil(now)
				for i, s := range sess {
					if !live[i] {
						continue
					}
					_ = s.AddLocalInput(core.PlayerHandle(i), gInput{Buttons: uint32(now / (200 * ms))})
					require.NoError(t, s.Update(now), "peer %d", i)
					for _, e := range s.Events() {
						if re, ok := e.(core.RejoinEvent); ok {
							if i == 1 {
								ev = re
							}
							evs = append(evs, re)
						}
					}
				}
			}
			for sess[0].Frame() < 200 {
				step()
			}
			require.NoError(t, conns[1].Close())
			live[1] = false
			for range 200 { // 1 s down
				step()
			}
			conn, err := net.Reopen(1)
			require.NoError(t, err)
			c := cfgs[1]
			c.Rejoin, c.Transport.Rand = true, rand.NewChaCha8([32]byte{9})
			sess[1], err = NewSession(c, core.GameFunc[bigState, gInput](bigStep), bigState{}, conn)
			require.NoError(t, err)
			live[1] = true
			restartAt, frameAt := now, sess[0].Frame()
			stallsAt := sess[0].Stats().StalledFrames
			for k := 0; ev.Return == 0 && ev.Err == nil; k++ {
				require.Less(t, k, 20000, "no rejoin")
				step()
			}
			require.NoError(t, ev.Err)
			took, frames := now-restartAt, sess[0].Frame()-frameAt
			stalls := sess[0].Stats().StalledFrames - stallsAt
			for sess[0].Frame() < ev.Return+100 || sess[1].Frame() < ev.Return+100 {
				step()
			}
			for range 10 {
				step()
			}
			f, _ := sess[0].ConfirmedFrame()
			f -= 5
			a, okA := sess[0].Checksum(f)
			b, okB := sess[1].Checksum(f)
			require.True(t, okA && okB)
			require.Equal(t, a, b, "checksum of frame %d", f)
			nominal := int(took / (50 * ms))
			t.Logf("745 KB at 10%% loss, rate %d B/s: rejoined in %v (%d bytes, %d chunks, %d duplicates received); the survivor ran %d frames of %d due, %d stalled; events %v",
				rate, took, ev.Bytes, ev.Chunks, ev.Retransmits, frames, nominal, stalls, evs)
			require.GreaterOrEqual(t, int(frames), nominal*9/10, "the survivor kept its frame rate")
		})
	}
}
