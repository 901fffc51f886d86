package rollstep

import (
	"math/rand/v2"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/testenv"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/udp"
	"github.com/stretchr/testify/require"
)

// A player's process dies and its new process comes back from another
// UDP port, as behind a NAT that maps the restarted process elsewhere:
// the survivor, whose Conn accepts unknown sources, moves the seat to the
// new address once it has dropped the old process, and the rejoin runs
// there. Both end on the same checksums. Real sockets on the wall clock,
// in one process; nothing is asserted about time.
func TestRejoinFromAnotherAddress(t *testing.T) {
	if testing.Short() {
		t.Skip("real sockets and the wall clock")
	}
	s0, a0 := testenv.Loopback(t)
	s1, a1 := testenv.Loopback(t)
	cfg := func(i int) Config {
		c := Config{Mode: Rollback, Players: 2, Local: []core.PlayerHandle{core.PlayerHandle(i)},
			Peers: []Peer{{Addr: transport.Addr(1 - i), Players: []core.PlayerHandle{core.PlayerHandle(1 - i)}}}}
		c.Transport.Token = 0x7e57
		c.Transport.Rand = rand.NewChaCha8([32]byte{byte(i), 3})
		return c
	}
	newPeer := func(i int, c Config, sock *net.UDPConn, peer netip.AddrPort, acceptUnknown bool) *gPeer {
		conn, err := udp.New(sock, udp.Config{Peers: []udp.Peer{{ID: transport.Addr(1 - i), Addr: peer}}, AcceptUnknown: acceptUnknown})
		require.NoError(t, err)
		p := &gPeer{rng: rand.New(rand.NewPCG(uint64(i), 5))}
		p.sess, err = NewSession(c, core.GameFunc[gState, gInput](p.step), gState{}, conn)
		require.NoError(t, err)
		t.Cleanup(func() { _ = p.sess.Close() })
		return p
	}
	peers := []*gPeer{newPeer(0, cfg(0), s0, a1, true), newPeer(1, cfg(1), s1, a0, false)}
	live := []bool{true, true}
	var rejoins [2][]core.RejoinEvent
	start := time.Now()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	run := func(until func() bool) {
		t.Helper()
		for !until() {
			now := time.Since(start)
			require.Less(t, now, 30*time.Second, "the match did not get there")
			for i, p := range peers {
				if !live[i] {
					continue
				}
				_ = p.sess.AddLocalInput(core.PlayerHandle(i), gInput{Buttons: uint32(now / (100 * time.Millisecond))})
				require.NoError(t, p.sess.Update(now), "player %d", i)
				for _, ev := range p.sess.Events() {
					if r, ok := ev.(core.RejoinEvent); ok {
						require.NoError(t, r.Err, "player %d", i)
						rejoins[i] = append(rejoins[i], r)
					}
				}
			}
			<-tick.C
		}
	}
	run(func() bool { return peers[0].sess.Frame() >= 60 && peers[1].sess.Frame() >= 60 })
	live[1] = false // it hangs, then dies: no Leave
	dead := peers[1]
	s2, _ := testenv.Loopback(t) // the new process, at another port
	c := cfg(1)
	c.Rejoin, c.Transport.Rand = true, rand.NewChaCha8([32]byte{1, 4})
	peers[1], live[1] = newPeer(1, c, s2, a0, false), true
	run(func() bool { return len(rejoins[0]) > 0 && len(rejoins[1]) > 0 })
	_ = dead.sess.Close()
	r := rejoins[1][0].Return
	require.Equal(t, r, rejoins[0][0].Return)
	run(func() bool { return peers[0].sess.Frame() >= r+120 && peers[1].sess.Frame() >= r+120 })
	f, _ := peers[0].sess.ConfirmedFrame()
	common := 0
	for g := f - 60; g < f; g++ {
		x, okX := peers[0].sess.Checksum(g)
		y, okY := peers[1].sess.Checksum(g)
		if okX && okY {
			require.Equal(t, x, y, "checksum of frame %d", g)
			common++
		}
	}
	require.Greater(t, common, 30)
}
