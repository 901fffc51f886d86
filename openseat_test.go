package rollstep

import (
	"fmt"
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/stretchr/testify/require"
)

// A match of three seats starts with seat 2 open: the other two play
// without waiting for it, its inputs are InputDisconnected from frame 0,
// and a player who starts its process with Rejoin takes it through the
// rejoin path, in every mode, over a link losing 5 % of datagrams, at
// frame 120 (while the others still send it Hellos) and at frame 1200. Every peer ends on the same checksums, and the seat's inputs
// count from the agreed return frame.
func TestOpenSeatIsTakenMidMatch(t *testing.T) {
	for _, mode := range []Mode{Lockstep, Rollback, Auto} {
		for _, at := range []core.Frame{120, 1200} {
			t.Run(fmt.Sprintf("%v/frame%d", mode, at), func(t *testing.T) {
				const seat = 2
				m := newCrashMatch(t, 3, mode, 0.05, 40+uint64(mode), func(i int, c *Config) {
					for j := range c.Peers {
						c.Peers[j].Open = c.Peers[j].Players[0] == seat
					}
				})
				m.kill(seat) // nobody holds it yet
				m.run(func() bool { return m.lowest() >= at })
				for i := range 2 {
					for _, ev := range m.events[i] {
						if l, ok := ev.(core.PeerLostEvent); ok {
							t.Fatalf("peer %d lost peer %d before anyone took the seat", i, l.Peer)
						}
					}
					for f := core.Frame(0); f < at; f += 37 {
						in, err := m.peers[i].sess.ReadLog(f, nil)
						require.NoError(t, err)
						require.Equal(t, core.InputDisconnected, in[seat].Status, "peer %d frame %d", i, f)
					}
				}
				m.restart(seat, nil)
				ev := m.awaitRejoin(seat)
				require.Greater(t, ev.Return, at)
				m.run(func() bool { return m.lowest() >= ev.Return+200 })
				m.check(ev.Return)
			})
		}
	}
}
