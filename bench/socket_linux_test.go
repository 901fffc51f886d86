package bench

import (
	"net"
	"net/netip"
	"slices"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/udp"
)

// socketBlock is how many frames BenchmarkSocket runs of one side before
// it switches to the other: long enough that the CPU clock's reading
// (getrusage) costs little against it, short enough that both sides see
// the same machine.
const socketBlock = 64

// cpuNow returns the CPU time the process has used, user and system, all
// threads.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loopback opens a UDP socket on an ephemeral loopback port.
func loopback(tb testing.TB) *net.UDPConn {
	tb.Helper()
	pc, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		tb.Fatal(err)
	}
	return pc
}

func portOf(pc *net.UDPConn) netip.AddrPort { return pc.LocalAddr().(*net.UDPAddr).AddrPort() }

// udpSessions is two Rollback sessions of the mix game, each on its own
// loopback UDP socket in this process, driven frame by frame as
// sessionPair drives its in-memory pair.
func udpSessions(tb testing.TB) *sessionPair {
	pa, pb := loopback(tb), loopback(tb)
	socks := [2]*net.UDPConn{pa, pb}
	sp := &sessionPair{tick: time.Second / 60}
	for i := range 2 {
		conn, err := udp.New(socks[i], udp.Config{Peers: []udp.Peer{{ID: 1, Addr: portOf(socks[1-i])}}})
		if err != nil {
			tb.Fatal(err)
		}
		cfg := rollstep.Config{Mode: rollstep.Rollback, TickRate: 60, Inputs: rollstep.Held,
			InputDelay: sessionDelay, FixedDelay: true,
			Local: []core.PlayerHandle{core.PlayerHandle(i)},
			Peers: []rollstep.Peer{{Addr: 1, Players: []core.PlayerHandle{core.PlayerHandle(1 - i)}}},
			Game:  core.GameVersion("bench mix")}
		s, err := rollstep.NewSession(cfg, core.Game[mixState, uint32](mix{}), mixState{}, conn)
		if err != nil {
			tb.Fatal(err)
		}
		sp.s[i] = s
	}
	tb.Cleanup(func() { sp.s[0].Close(); sp.s[1].Close() })
	return sp
}

// rawLoop is BenchmarkSocket's baseline: two loopback UDP sockets and,
// per frame and side, the system calls a session's frame makes, with
// nothing else: sendto(2) of perFrame datagrams of size bytes to the
// other socket's address, then recvfrom(2) until the socket is empty,
// through package syscall (whose Recvfrom allocates the sender's address,
// about 20 ns against the call's microsecond).
type rawLoop struct {
	fd       [2]int
	to       [2]syscall.SockaddrInet4
	perFrame int
	payload  []byte
	buf      []byte
	got      uint64
}

func newRawLoop(tb testing.TB, perFrame, size int) *rawLoop {
	l := &rawLoop{perFrame: perFrame, payload: make([]byte, size), buf: make([]byte, 1500)}
	var addrs [2]unix.SockaddrInet4
	for i := range 2 {
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			tb.Fatal(err)
		}
		l.fd[i] = fd
		addrs[i].Addr = [4]byte{127, 0, 0, 1}
		if err := unix.Bind(fd, &addrs[i]); err != nil {
			tb.Fatal(err)
		}
		sa, err := unix.Getsockname(fd)
		if err != nil {
			tb.Fatal(err)
		}
		addrs[i].Port = sa.(*unix.SockaddrInet4).Port
	}
	l.to[0] = syscall.SockaddrInet4{Addr: addrs[1].Addr, Port: addrs[1].Port}
	l.to[1] = syscall.SockaddrInet4{Addr: addrs[0].Addr, Port: addrs[0].Port}
	tb.Cleanup(func() { unix.Close(l.fd[0]); unix.Close(l.fd[1]) })
	return l
}

func (l *rawLoop) step() {
	for i := range 2 {
		for range l.perFrame {
			_ = syscall.Sendto(l.fd[i], l.payload, 0, &l.to[i])
		}
		for {
			n, _, err := syscall.Recvfrom(l.fd[i], l.buf, 0)
			if err != nil || n < 0 {
				break
			}
			l.got++
		}
	}
}

// BenchmarkSocket is the real-socket path: two Rollback sessions over
// loopback UDP in this process (the 1 KiB mix game, 60 Hz of virtual
// time, no pacing) beside a raw loop that makes the same sends and
// receives per frame with plain system calls, alternating in blocks of
// socketBlock frames; one op is one block of each. Both are measured in
// process CPU time (user + system, every thread) per frame of both peers,
// at the median block. x-raw is the gate's metric. The raw loop's
// Recvfrom allocates; TestSocketSessionsPlay shows the sessions do not.
//
// A third arm, in the same blocks, is the floor of any session of this
// engine: the raw loop and the two bare engines of BenchmarkSession (the
// game's Steps, saves and checksums, messages passed by pointer). Its
// ratio to the raw loop, floor-x-raw, is what x-raw would be if the
// session cost nothing beyond the engine and the system calls; x-floor is
// the session over it: what the session's codec, tags, endpoint and
// policy add on real sockets.
func BenchmarkSocket(b *testing.B) {
	sp := udpSessions(b)
	for range 240 {
		sp.step()
	}
	if !sp.s[0].Stats().Started || !sp.s[1].Stats().Started {
		b.Fatal("the sessions did not start in 240 frames")
	}
	// Measure what a session frame sends, to make the raw loop send it.
	st0, f0 := sp.s[0].Stats().Peers[0], sp.s[0].Frame()
	for range 120 {
		sp.step()
	}
	st1, f1 := sp.s[0].Stats().Peers[0], sp.s[0].Frame()
	pkts, bytes := st1.PacketsSent-st0.PacketsSent, st1.BytesSent-st0.BytesSent
	perFrame := max(int((pkts+uint64(f1-f0)/2)/uint64(f1-f0)), 1)
	size := int(bytes / max(pkts, 1))
	raw, floor := newRawLoop(b, perFrame, size), newRawLoop(b, perFrame, size)
	ep := newEnginePair(b)
	for range 240 {
		raw.step()
		floor.step()
		ep.step()
	}
	rb0 := sp.s[0].Stats().Rollbacks + sp.s[1].Stats().Rollbacks
	f0 = sp.s[0].Frame()
	cpu := cpuBlocks(b, func() { sp.step() }, raw.step, func() { floor.step(); ep.step() })
	if rb := sp.s[0].Stats().Rollbacks + sp.s[1].Stats().Rollbacks - rb0; rb != 0 {
		b.Logf("%d rollbacks in %d frames", rb, sp.s[0].Frame()-f0)
	}
	if raw.got == 0 || floor.got == 0 {
		b.Fatal("a raw loop received nothing")
	}
	se, ba, fl := cpu[0], cpu[1], cpu[2]
	b.ReportMetric(se, "session-cpu-ns/frame")
	b.ReportMetric(ba, "raw-cpu-ns/frame")
	b.ReportMetric(se/max(ba, 1), "x-raw")
	b.ReportMetric(fl/max(ba, 1), "floor-x-raw")
	b.ReportMetric(se/max(fl, 1), "x-floor")
	b.ReportMetric(float64(size+28), "IP-B/packet")
	b.ReportMetric(float64(perFrame), "packets/frame")
}

// cpuBlocks runs b's loop, each op socketBlock frames of every arm in
// turn, and returns the median CPU time per frame of each arm.
func cpuBlocks(b *testing.B, arms ...func()) []float64 {
	per := make([][]float64, len(arms))
	for b.Loop() {
		for i, arm := range arms {
			t0 := cpuNow()
			for range socketBlock {
				arm()
			}
			per[i] = append(per[i], float64(cpuNow()-t0)/socketBlock)
		}
	}
	med := make([]float64, len(arms))
	for i, v := range per {
		med[i] = median(v)
	}
	return med
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

func TestSocketSessionsPlay(t *testing.T) {
	sp := udpSessions(t)
	for range 600 {
		sp.step()
	}
	a, b := sp.s[0], sp.s[1]
	if a.Frame() < 590 || a.Frame() != b.Frame() || *a.State() != *b.State() {
		t.Fatalf("frames %d and %d after 600 periods; states equal %v", a.Frame(), b.Frame(), *a.State() == *b.State())
	}
	if st := a.Stats(); st.Rollbacks != 0 || st.Checksums == 0 || st.Desyncs != 0 {
		t.Errorf("rollbacks %d, checksums %d, desyncs %d", st.Rollbacks, st.Checksums, st.Desyncs)
	}
	if got := testing.AllocsPerRun(200, func() { sp.step() }); got != 0 {
		t.Errorf("a frame of two sessions over loopback UDP allocates %v times", got)
	}
	raw := newRawLoop(t, 1, 40)
	raw.step() // side 1 gets side 0's datagram; side 0 reads before side 1 sends
	raw.step()
	if raw.got != 3 {
		t.Errorf("the raw loop received %d datagrams in two frames, want 3", raw.got)
	}
}
