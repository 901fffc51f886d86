package udp

import (
	"testing"

	"github.com/rollstep/rollstep/transport"
)

// roundTrip sends p from a to b and receives it, blocking on the reader's
// notification (no timer: loopback does not lose it, and the test's own
// timeout catches a hang) or on the socket; it allocates nothing of its
// own.
func roundTrip(a, b *Conn, p, buf []byte) int {
	if err := a.Send(2, p); err != nil {
		panic(err)
	}
	for tries := 0; ; tries++ {
		n, _, ok, err := b.Receive(buf)
		if err != nil {
			panic(err)
		}
		if ok {
			return n
		}
		switch {
		case b.drain == nil:
			<-b.arrived
		case tries > 0: // the first may answer from a drain a moment ago
			awaitData(b, settleWait)
		}
	}
}

func TestSendReceiveAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts are measured in full runs")
	}
	for _, path := range []struct {
		name string
		cfg  Config
	}{{"default", Config{}}, {"reader", Config{reader: true}}} {
		t.Run(path.name, func(t *testing.T) {
			a, b := newPair(t, path.cfg, path.cfg)
			p := make([]byte, 64)
			buf := make([]byte, transport.MaxDatagram)
			for range 10 { // warm up
				roundTrip(a, b, p, buf)
			}
			got := testing.AllocsPerRun(200, func() { roundTrip(a, b, p, buf) })
			if got != 0 {
				t.Fatalf("Send+Receive over *net.UDPConn: got %v allocations per datagram, want 0", got)
			}
		})
	}
}

// BenchmarkSendReceive is one datagram's round: Send on one Conn, Receive
// on the other, through loopback, with the datagram taken off the socket
// by Receive itself (drain, Linux) or by the reader goroutine (reader, the
// path of other platforms), which must be woken and hand it over. The
// reader rows' allocations are the benchmark's own wait (awaitData's
// timer); TestSendReceiveAllocs shows the Conn allocates nothing on
// either path.
func BenchmarkSendReceive(b *testing.B) {
	for _, mode := range []struct {
		name   string
		reader bool
	}{{"drain", false}, {"reader", true}} {
		for _, size := range []int{64, transport.MaxDatagram} {
			b.Run(mode.name+"/"+sizeName(size), func(b *testing.B) {
				benchSendReceive(b, Config{reader: mode.reader}, size)
			})
		}
	}
}

func benchSendReceive(b *testing.B, cfg Config, size int) {
	x, y := newPair(b, cfg, cfg)
	p := make([]byte, size)
	buf := make([]byte, transport.MaxDatagram)
	b.ReportAllocs()
	b.SetBytes(int64(size))
	for b.Loop() {
		roundTrip(x, y, p, buf)
	}
	b.ReportMetric(float64(y.snapshot().DroppedFull), "drops")
}

func sizeName(n int) string {
	if n == transport.MaxDatagram {
		return "1200B"
	}
	return "64B"
}
