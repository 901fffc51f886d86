package rollback

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/connhook"
	"github.com/rollstep/rollstep/internal/hostile"
	"github.com/rollstep/rollstep/internal/testenv"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/dtls"
	"github.com/rollstep/rollstep/transport/udp"
)

// TestHostileSockets runs the attacker of package hostile against node 0
// of a 2-player match between two sessions on real loopback sockets and
// the real clock, over plaintext UDP and over DTLS: 300 ms a phase (15 s
// in the soak run), 1,000 datagrams a second (10,000 in the floods), from
// node 1's own socket or from 32 strangers' (256 in the soak run). The
// attacker is an outsider on the path: it hears every datagram both nodes
// send (over DTLS, the records under the encryption) and holds no key.
//
// Each phase may cost node 0 at most 1 s of stall per 15 s (at least
// 250 ms: a loaded machine delays the loop itself), goroutines stay
// within the listener's handshake budget during a phase and come back to
// where they were after the last, the heap stays flat, no stranger gets
// more bytes back than it sent (over UDP: none), neither node loses the
// other, and the two agree on every frame both confirmed.
func TestHostileSockets(t *testing.T) {
	if testing.Short() {
		t.Skip("real sockets and a real clock")
	}
	for _, tr := range []string{"udp", "dtls"} {
		t.Run(tr, func(t *testing.T) { hostileSockets(t, tr == "dtls") })
	}
}

// socketMatch is a match over real sockets, played on the real clock.
type socketMatch struct {
	*match
	socks [2]*net.UDPConn
	start time.Time
}

func (m *socketMatch) now() time.Duration { return time.Since(m.start) }

// play runs both sessions for d, calling attack before every update, and
// stops early when done reports true.
func (m *socketMatch) play(d time.Duration, attack func(), done func() bool) {
	m.t.Helper()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for end := m.now() + d; m.now() < end && !done(); <-tick.C {
		attack()
		for i, nd := range m.nodes {
			p := core.PlayerHandle(i)
			_ = nd.s.AddLocalInput(p, m.input(p, nd.s.Frame()))
			require.NoError(m.t, nd.s.Update(m.now()), "node %d Update", i)
			nd.events = keep(nd.events, nd.s.Events())
		}
	}
}

func hostileSockets(t *testing.T, overDTLS bool) {
	phase := testenv.Pick(300*time.Millisecond, 15*time.Second)
	limit := max(phase/15, 250*time.Millisecond)
	m := &socketMatch{match: &match{t: t, input: defaultInput}}
	for i := range m.socks {
		s, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Skipf("no loopback UDP: %v", err)
		}
		m.socks[i] = s
	}
	victim := m.socks[0].LocalAddr()
	toVictim, fromVictim := &hostile.Capture{}, &hostile.Capture{}
	conns := socketConns(t, m.socks, overDTLS, [2]*hostile.Capture{fromVictim, toVictim})
	for i := range 2 {
		c := testConfig(2, i, 41)
		c.TickRate = 200
		nd := &node{game: newRecGame(1 << 16)}
		var err error
		nd.s, err = NewSession[pair, uint16](c, nd.game, pair{}, conns[i])
		require.NoError(t, err)
		t.Cleanup(func() { _ = nd.s.Close() })
		m.nodes = append(m.nodes, nd)
	}
	m.start = time.Now()
	confirmed := func(f core.Frame) func() bool {
		return func() bool {
			for _, nd := range m.nodes {
				if c, ok := nd.s.ConfirmedFrame(); !ok || c < f {
					return false
				}
			}
			return true
		}
	}
	m.play(10*time.Second, func() {}, confirmed(40))
	require.True(t, confirmed(40)(), "the match did not start")

	strangers := make([]*net.UDPConn, testenv.Pick(32, 256))
	sentBy := make([]int, len(strangers))
	for i := range strangers {
		s, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		require.NoError(t, err)
		t.Cleanup(func() { s.Close() })
		strangers[i] = s
	}
	goroutines := runtime.NumGoroutine()
	var heap runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&heap)

	phases := hostile.Phases(nil, 1)
	if overDTLS {
		// The captures hold DTLS records, not the wire's Hellos: the
		// ClientHello flood of DTLSPhases takes the Hello floods' place.
		phases = slices.DeleteFunc(phases, func(ph hostile.Phase) bool { return strings.HasPrefix(ph.Name, "Hello flood") })
		phases = append(phases, hostile.DTLSPhases(1)...)
	}
	r := rand.New(rand.NewPCG(41, 9))
	k := 0
	for _, ph := range phases {
		rate := 1
		if strings.Contains(ph.Name, "flood") {
			rate = 10
		}
		sent := 0
		attack := func() {
			for range rate {
				for _, p := range ph.Make(r, toVictim.Packets(), fromVictim.Packets()) {
					sent++
					from := m.socks[1]
					if ph.Target == hostile.FromStrangers {
						k = (k + 1) % len(strangers)
						from, sentBy[k] = strangers[k], sentBy[k]+len(p)
					}
					_, _ = from.WriteTo(p, victim) // oversized datagrams may be refused
				}
			}
		}
		before, start := m.nodes[0].s.Stats().Stall, m.nodes[0].s.Frame()
		m.play(phase, attack, func() bool { return false })
		stall := m.nodes[0].s.Stats().Stall - before
		played := m.nodes[0].s.Frame() - start
		t.Logf("%s: %d datagrams, %d frames, stall %v, %d goroutines", ph.Name, sent, played, stall.Round(time.Millisecond), runtime.NumGoroutine())
		// The attack runs once per tick of the wall-clock loop, which a
		// loaded machine slows: a datagram every 4 ms proves it ran.
		assert.Greater(t, sent, int(phase/time.Millisecond/4), "%s: datagrams sent", ph.Name)
		assert.LessOrEqual(t, stall, limit, "%s: stall", ph.Name)
		assert.Greater(t, played, core.Frame(phase*200/time.Second/2), "%s: frames played", ph.Name)
		assert.LessOrEqual(t, runtime.NumGoroutine(), goroutines+8*dtlsMaxHandshakes, "%s: goroutines", ph.Name)
	}

	// Quiet play until the listener's unfinished handshakes have timed
	// out, then the books.
	m.play(5*time.Second, func() {}, func() bool { return runtime.NumGoroutine() <= goroutines })
	assert.LessOrEqual(t, runtime.NumGoroutine(), goroutines, "goroutines after the attack")
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	assert.LessOrEqual(t, after.HeapAlloc, heap.HeapAlloc+16<<20, "heap after the attack")
	buf := make([]byte, 64<<10)
	for i, s := range strangers {
		got := 0
		for {
			_ = s.SetReadDeadline(time.Now())
			n, _, err := s.ReadFrom(buf)
			if errors.Is(err, os.ErrDeadlineExceeded) {
				break
			}
			require.NoError(t, err)
			got += n
		}
		if overDTLS {
			assert.LessOrEqual(t, got, sentBy[i], "stranger %d: bytes answered", i)
		} else {
			assert.Zero(t, got, "stranger %d: bytes answered", i)
		}
	}
	for i := range 2 {
		assert.Zero(t, m.count(i, isType[core.PeerLostEvent]), "node %d lost its peer", i)
	}
	m.checkAgreement()
	if st, ok := connhook.DTLSStatsOf(conns[0]); ok {
		t.Logf("listener: %d handshakes, %d refused (%d for their IP), %d plaintext records dropped",
			st.Handshakes, st.HandshakesRefused, st.HandshakesRefusedPerIP, st.DroppedPlaintext)
		assert.NotZero(t, st.HandshakesRefused, "the ClientHello flood was never refused a slot")
	}
}

// dtlsMaxHandshakes is the default of dtls.Config.MaxHandshakes, the
// handshakes a listening Conn runs at once.
const dtlsMaxHandshakes = 16

// socketConns returns the Conns of the two nodes over socks: plaintext
// UDP with a Tap recording what each sends into caps, or DTLS (node 0
// listens, node 1 dials) with a PacketTap under the encryption.
func socketConns(t *testing.T, socks [2]*net.UDPConn, overDTLS bool, caps [2]*hostile.Capture) [2]transport.Conn {
	var conns [2]transport.Conn
	if !overDTLS {
		for i := range 2 {
			peer := udp.Peer{ID: transport.Addr(1 - i), Addr: socks[1-i].LocalAddr().(*net.UDPAddr).AddrPort()}
			uc, err := udp.New(socks[i], udp.Config{Peers: []udp.Peer{peer}})
			require.NoError(t, err)
			conns[i] = &hostile.Tap{Conn: uc, Capture: caps[i]}
		}
		return conns
	}
	key := []byte("a per-match key for the hostile test")
	psk := func([]byte) ([]byte, error) { return key, nil }
	srv, err := dtls.Listen(&hostile.PacketTap{PacketConn: socks[0], Capture: caps[0]},
		dtls.Config{PSK: psk, FirstPeer: 1, HandshakeTimeout: time.Second})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cli, err := dtls.Dial(ctx, &hostile.PacketTap{PacketConn: socks[1], Capture: caps[1]}, socks[0].LocalAddr(),
		dtls.Config{PSK: psk, PSKIdentity: []byte("player-1")})
	require.NoError(t, err)
	return [2]transport.Conn{srv, cli}
}
