package fighter_test

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/examples/fighter/internal/match"
	"github.com/rollstep/rollstep/transport/sim"
	"github.com/stretchr/testify/require"
)

// TestRejoinAt10PercentLoss kills player 1's process at frame 600 of a
// bot match over a simulated link of 30 ms and 10 % loss, starts a new one
// with Rejoin a second later, and requires it to come back with the
// fighter's 160-byte state: both players report the rejoin with the same
// return frame and end on the same checksums, and the survivor stalls no
// longer than it takes to hear the new process.
func TestRejoinAt10PercentLoss(t *testing.T) {
	net, err := sim.New(sim.Config{Seed: 10, Link: sim.LinkConfig{Latency: sim.Latency{Base: 30 * time.Millisecond, Jitter: 5 * time.Millisecond}, Loss: 0.10}})
	require.NoError(t, err)
	conns := []*sim.Endpoint{net.NewEndpoint(), net.NewEndpoint()}
	cfgs := make([]rollstep.Config, 2)
	sess := make([]*rollstep.Session[fighter.State, fighter.Input], 2)
	bots := []*fighter.Bot{fighter.NewBot(0, 5), fighter.NewBot(1, 5)}
	for i := range 2 {
		cfgs[i] = match.Config(i, conns[1-i].ID(), 0x600d, nil)
		cfgs[i].Transport.Rand = rand.NewChaCha8([32]byte{byte(i)})
		sess[i], err = rollstep.NewSession(cfgs[i], fighter.Game{}, fighter.New(5), conns[i])
		require.NoError(t, err)
	}
	require.Equal(t, 160, int(reflect.TypeFor[fighter.State]().Size()), "the fighter's state")
	now, live := time.Duration(0), []bool{true, true}
	rejoins := make([][]core.RejoinEvent, 2)
	step := func() {
		now += 4 * time.Millisecond
		net.RunUntil(now)
		for i, s := range sess {
			if !live[i] {
				continue
			}
			require.NoError(t, s.AddLocalInput(core.PlayerHandle(i), bots[i].Next(s.State())))
			require.NoError(t, s.Update(now), "player %d", i)
			for _, ev := range s.Events() {
				if r, ok := ev.(core.RejoinEvent); ok {
					require.NoError(t, r.Err, "player %d", i)
					rejoins[i] = append(rejoins[i], r)
				}
			}
		}
	}
	for sess[1].Frame() < 600 {
		step()
	}
	require.NoError(t, conns[1].Close())
	live[1] = false
	for end := now + time.Second; now < end; {
		step()
	}
	conn, err := net.Reopen(conns[1].ID())
	require.NoError(t, err)
	c := cfgs[1]
	c.Rejoin, c.Transport.Rand = true, rand.NewChaCha8([32]byte{9})
	sess[1], err = rollstep.NewSession(c, fighter.Game{}, fighter.State{}, conn)
	require.NoError(t, err)
	live[1] = true
	restartAt, frameAt, stallAt := now, sess[0].Frame(), sess[0].Stats().Stall
	for k := 0; len(rejoins[1]) == 0 || len(rejoins[0]) == 0; k++ {
		require.Less(t, k, 5000, "no rejoin in 20 s")
		step()
	}
	took, frames, stall := now-restartAt, sess[0].Frame()-frameAt, sess[0].Stats().Stall-stallAt
	r := rejoins[1][0].Return
	require.Equal(t, r, rejoins[0][0].Return, "both agree on the return frame")
	for sess[0].Frame() < r+300 || sess[1].Frame() < r+300 {
		step()
	}
	f, _ := sess[0].ConfirmedFrame()
	common := 0
	for g := f - 200; g < f; g++ {
		a, okA := sess[0].Checksum(g)
		b, okB := sess[1].Checksum(g)
		if okA && okB {
			require.Equal(t, a, b, "checksum of frame %d", g)
			common++
		}
	}
	require.Greater(t, common, 100, "frames both checksummed")
	due := int(took / (time.Second / match.TickRate))
	t.Logf("160 B at 10%% loss: rejoined in %v, return frame %d, %d B in %d chunks; the survivor ran %d frames of %d due, stalled %v",
		took, r, rejoins[0][0].Bytes, rejoins[0][0].Chunks, frames, due, stall)
	// The dead process held the survivor (beyond W) until the restart
	// handshake told it the player was gone: about a round trip and a half
	// after the restart. The transfer itself costs it nothing.
	require.Less(t, stall, 200*time.Millisecond, "the survivor stalled during the rejoin")
}
