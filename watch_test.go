package rollstep

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
	"github.com/stretchr/testify/require"
)

// A spectator is a session with Config.Spectate, in any mode: with the
// mode's defaults (Lockstep's 10 turns a second included) it replays the
// host's match exactly, keeps the confirmed inputs in its own input log,
// as a recorder needs, and ends with the match's agreed end, the last
// frames included: the host lifts the stream delay at the end and leaves
// once the spectator holds them.
func TestSpectateInEveryMode(t *testing.T) {
	for _, mode := range []Mode{Lockstep, Rollback, Auto} {
		t.Run(mode.String(), func(t *testing.T) {
			net, err := sim.New(sim.Config{Seed: 11, Link: sim.LinkConfig{Latency: sim.Latency{Base: 30 * ms, Jitter: 10 * ms}, Loss: 0.05}})
			require.NoError(t, err)
			conn := net.NewEndpoint()
			peers := newPeers(t, net, Config{Mode: mode, LogRetention: 4096}, func(i int, c *Config) {
				if i == 0 {
					c.Spectators, c.SpectatorDelay = []transport.Addr{conn.ID()}, 120
				}
			})
			watcher := &gPeer{}
			cfg := Config{Mode: mode, Spectate: true, Players: 2, Peers: []Peer{{Addr: 1}}, LogRetention: 4096}
			sp, err := NewSession(cfg, core.GameFunc[gState, gInput](watcher.step), gState{}, conn)
			require.NoError(t, err)
			end := core.Frame(300)
			for _, p := range peers {
				require.NoError(t, p.sess.EndAt(end))
			}
			var now time.Duration
			for !sp.Ended() && now < time.Minute {
				play(t, net, peers, &now, now+10*ms, 10*ms)
				require.NoError(t, sp.Update(now))
			}
			require.True(t, sp.Ended(), "the spectator's stream did not end")
			evs := sp.Events()
			lost, ok := evs[len(evs)-1].(core.PeerLostEvent)
			require.True(t, ok, "last event %#v", evs[len(evs)-1])
			require.True(t, lost.Left && lost.Reason == core.LeaveEnded, "the stream ended with %+v", lost)
			require.Equal(t, end, sp.Frame())
			require.Equal(t, peers[0].sums[:end], watcher.sums[:end], "the spectator's checksums after every frame")
			start, logEnd := sp.LogRange()
			require.Equal(t, core.Frame(0), start)
			require.Equal(t, end, logEnd)
			for f := range end {
				want, err := peers[0].sess.ReadLog(f, nil)
				require.NoError(t, err)
				got, err := sp.ReadLog(f, nil)
				require.NoError(t, err)
				require.Equal(t, want, got, "frame %d of the input log", f)
			}
		})
	}
}
