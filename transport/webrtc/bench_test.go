package webrtc

import (
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/rollstep/rollstep/transport"
)

// BenchmarkSendReceive measures datagrams through two Conns over
// loopback: oneway is Send on one Conn and Receive on the other once it
// has arrived; roundtrip is a datagram there and its echo back. pion
// allocates per message (SCTP copies each message into its own chunks
// and keeps them until acknowledged, DTLS encrypts into a new buffer, and
// each message arrives in a new buffer); the Conn's own Send and Receive
// do not (TestReceiveAllocs).
func BenchmarkSendReceive(b *testing.B) {
	for _, size := range []int{64, transport.MaxDatagram} {
		b.Run("oneway/"+strconv.Itoa(size)+"B", func(b *testing.B) {
			cs := mesh(b, 1, 2)
			p := make([]byte, size)
			buf := make([]byte, transport.MaxDatagram)
			timer := stoppedTimer()
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				hop(b, cs[0], cs[1], 2, p, buf, timer)
			}
		})
	}
	b.Run("roundtrip/64B", func(b *testing.B) {
		cs := mesh(b, 1, 2)
		p := make([]byte, 64)
		buf := make([]byte, transport.MaxDatagram)
		timer := stoppedTimer()
		b.ReportAllocs()
		for b.Loop() {
			n := hop(b, cs[0], cs[1], 2, p, buf, timer)
			hop(b, cs[1], cs[0], 1, buf[:n], buf, timer)
		}
	})
}

// hop sends p from x to peer to and waits until y receives it into buf,
// or fails b after testWait, using timer (stopped) for that.
func hop(b *testing.B, x, y *Conn, to transport.Addr, p, buf []byte, timer *time.Timer) int {
	if err := x.Send(to, p); err != nil {
		b.Fatal(err)
	}
	for {
		n, _, ok, err := y.Receive(buf)
		if err != nil {
			b.Fatal(err)
		}
		if ok {
			return n
		}
		timer.Reset(testWait)
		select {
		case <-y.changed:
			timer.Stop()
		case <-timer.C:
			b.Fatalf("a datagram did not arrive: sender %+v, receiver %+v", x.Stats(), y.Stats())
		}
	}
}

// stoppedTimer returns a timer that is not running.
func stoppedTimer() *time.Timer {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return t
}

// TestReceiveAllocs checks that the Conn's own path, queueing a
// datagram as the data channel's callback does and receiving it, does
// not allocate.
func TestReceiveAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts are measured in full runs")
	}
	c, err := New(Config{Self: 1, Peers: []transport.Addr{2}, Signaler: newHub().endpoint(1), loopback: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	p, buf := make([]byte, 64), make([]byte, transport.MaxDatagram)
	// AllocsPerRun counts the whole process's allocations, the Conn's
	// background goroutines' too (under qemu they ran during a run): the
	// fewest of three measurements is the path's own, which an allocation
	// on the path raises in every one.
	got := math.Inf(1)
	for range 3 {
		got = min(got, testing.AllocsPerRun(200, func() {
			c.deliver(2, p)
			if _, _, ok, err := c.Receive(buf); !ok || err != nil {
				t.Fatalf("Receive: ok %v, err %v", ok, err)
			}
		}))
	}
	if got != 0 {
		t.Fatalf("deliver+Receive: got %v allocations, want 0", got)
	}
}
