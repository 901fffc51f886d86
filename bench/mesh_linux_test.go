package bench

import (
	"fmt"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/connhook"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/udp"
)

// udpMesh is n Rollback sessions of the mix game, one player each, every
// one on its own loopback UDP socket in this process and a peer of every
// other, driven frame by frame as sessionPair drives two.
type udpMesh struct {
	s     []*rollstep.Session[mixState, uint32]
	conns []*udp.Conn
	now   time.Duration
	frame []core.Frame
}

func newUDPMesh(tb testing.TB, n int) *udpMesh {
	socks := make([]*net.UDPConn, n)
	for i := range socks {
		socks[i] = loopback(tb)
	}
	m := &udpMesh{frame: make([]core.Frame, n)}
	for i := range n {
		var ups []udp.Peer
		var peers []rollstep.Peer
		for j := range n {
			if j != i {
				a := transport.Addr(j + 1)
				ups = append(ups, udp.Peer{ID: a, Addr: portOf(socks[j])})
				peers = append(peers, rollstep.Peer{Addr: a, Players: []core.PlayerHandle{core.PlayerHandle(j)}})
			}
		}
		conn, err := udp.New(socks[i], udp.Config{Peers: ups})
		if err != nil {
			tb.Fatal(err)
		}
		cfg := rollstep.Config{Mode: rollstep.Rollback, TickRate: 60, Inputs: rollstep.Held,
			InputDelay: sessionDelay, FixedDelay: true,
			Local: []core.PlayerHandle{core.PlayerHandle(i)}, Peers: peers,
			Game: core.GameVersion("bench mix")}
		s, err := rollstep.NewSession(cfg, core.Game[mixState, uint32](mix{}), mixState{}, conn)
		if err != nil {
			tb.Fatal(err)
		}
		m.s = append(m.s, s)
		m.conns = append(m.conns, conn)
	}
	tb.Cleanup(func() {
		for _, s := range m.s {
			s.Close()
		}
	})
	return m
}

func (m *udpMesh) step() {
	m.now += time.Second / 60
	for i, s := range m.s {
		p := core.PlayerHandle(i)
		_ = s.AddLocalInput(p, mixInputs(p, m.frame[i]+sessionDelay))
		_ = s.Update(m.now)
		s.Events()
	}
	for i, s := range m.s {
		m.frame[i] = s.Frame()
	}
}

// rawMesh is BenchmarkSocketMesh's baseline: n loopback sockets and, per
// frame and socket, one sendto(2) of size bytes to every other socket and
// recvfrom(2) until the socket is empty, as rawLoop does for two.
type rawMesh struct {
	fd      []int
	to      []syscall.SockaddrInet4
	payload []byte
	buf     []byte
	got     uint64
}

func newRawMesh(tb testing.TB, n, size int) *rawMesh {
	l := &rawMesh{payload: make([]byte, size), buf: make([]byte, 1500)}
	for range n {
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { unix.Close(fd) })
		if err := unix.Bind(fd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
			tb.Fatal(err)
		}
		sa, err := unix.Getsockname(fd)
		if err != nil {
			tb.Fatal(err)
		}
		l.fd = append(l.fd, fd)
		l.to = append(l.to, syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}, Port: sa.(*unix.SockaddrInet4).Port})
	}
	return l
}

func (l *rawMesh) step() {
	for i, fd := range l.fd {
		for j := range l.to {
			if j != i {
				_ = syscall.Sendto(fd, l.payload, 0, &l.to[j])
			}
		}
		for {
			n, _, err := syscall.Recvfrom(fd, l.buf, 0)
			if err != nil || n < 0 {
				break
			}
			l.got++
		}
	}
}

// BenchmarkSocketMesh is BenchmarkSocket for a match of n peers, each
// sending to every other every frame: n sessions over loopback UDP in
// this process beside a raw loop making one system call per datagram
// sent and received, alternating in blocks of socketBlock frames, in
// process CPU time per frame of all peers. The session's datagrams of an
// Update share one sendmmsg(2), and a frame's arrivals one recvmmsg(2),
// so from a few peers up it makes fewer system calls than the raw loop:
// x-raw falls below 1.
func BenchmarkSocketMesh(b *testing.B) {
	for _, n := range []int{4, 8} {
		b.Run(fmt.Sprintf("peers=%d", n), func(b *testing.B) {
			m := newUDPMesh(b, n)
			for range 240 {
				m.step()
			}
			for i, s := range m.s {
				if !s.Stats().Started {
					b.Fatalf("session %d did not start in 240 frames", i)
				}
			}
			st0 := m.s[0].Stats().Peers[0]
			for range 120 {
				m.step()
			}
			st1 := m.s[0].Stats().Peers[0]
			size := int((st1.BytesSent - st0.BytesSent) / max(st1.PacketsSent-st0.PacketsSent, 1))
			raw := newRawMesh(b, n, size)
			cpu := cpuBlocks(b, m.step, raw.step)
			se, ba := cpu[0], cpu[1]
			if raw.got == 0 {
				b.Fatal("the raw loop received nothing")
			}
			b.ReportMetric(se, "session-cpu-ns/frame")
			b.ReportMetric(ba, "raw-cpu-ns/frame")
			b.ReportMetric(se/max(ba, 1), "x-raw")
			b.ReportMetric(float64(size+transport.HeaderOverhead), "IP-B/packet")
		})
	}
}

// TestSocketMeshPlays checks BenchmarkSocketMesh's match: 8 peers over
// loopback UDP reach the same frame and state, allocating nothing per
// frame in steady state, and each Update's datagrams to the other 7
// peers share one system call (sendmmsg), which BenchmarkSocketMesh's
// CPU ratio cannot show where system calls are cheap.
func TestSocketMeshPlays(t *testing.T) {
	m := newUDPMesh(t, 8)
	for range 300 {
		m.step()
	}
	if allocs := testing.AllocsPerRun(60, m.step); allocs != 0 {
		t.Errorf("%v allocations per frame of 8 peers", allocs)
	}
	const frames = 60
	d0, c0, ok := connhook.UDPSends(m.conns[0])
	require.True(t, ok)
	for range frames {
		m.step()
	}
	d1, c1, _ := connhook.UDPSends(m.conns[0])
	assert.GreaterOrEqual(t, d1-d0, uint64(7*frames), "datagrams peer 0 sent in %d frames", frames)
	assert.LessOrEqual(t, c1-c0, uint64(frames), "system calls that wrote peer 0's %d datagrams in %d frames", d1-d0, frames)
	a := m.s[0]
	if a.Frame() < 410 {
		t.Fatalf("frame %d after 421 periods", a.Frame())
	}
	for i, s := range m.s[1:] {
		if s.Frame() != a.Frame() || *s.State() != *a.State() {
			t.Fatalf("peer %d at frame %d, peer 0 at %d; states equal %v", i+1, s.Frame(), a.Frame(), *s.State() == *a.State())
		}
	}
}
