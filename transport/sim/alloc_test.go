package sim

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/transport"
)

func TestSteadyStateAllocs(t *testing.T) {
	for _, tc := range []struct {
		name string
		link LinkConfig
	}{
		{"Perfect", LinkConfig{}},
		{"Impaired", impairedLink},
	} {
		t.Run(tc.name, func(t *testing.T) {
			net, eps := newNetwork(t, Config{Seed: 9, Link: tc.link}, 2)
			msg := make([]byte, 64)
			buf := make([]byte, transport.MaxDatagram)
			step := func() {
				eps[0].Send(1, msg)
				eps[1].Send(0, msg)
				net.Advance(time.Millisecond)
				for _, e := range eps {
					for {
						if _, _, ok, _ := e.Receive(buf); !ok {
							break
						}
					}
				}
			}
			for range 5000 { // warm up: grow the heap, inboxes and pool
				step()
			}
			if got := testing.AllocsPerRun(1000, step); got != 0 {
				t.Fatalf("Send+Advance+Receive: got %v allocs per run, want 0", got)
			}
		})
	}
}

// BenchmarkSendDeliver measures one datagram's trip: Send, Advance past its
// arrival, Receive. The Pipelined case keeps about 1000 datagrams in flight
// so the arrival heap is deep.
func BenchmarkSendDeliver(b *testing.B) {
	for _, bc := range []struct {
		name    string
		link    LinkConfig
		advance time.Duration
	}{
		{"Perfect", LinkConfig{}, 0},
		{"Impaired", impairedLink, 100 * time.Millisecond},
		{"Pipelined", LinkConfig{Latency: Latency{Base: time.Second, Jitter: 100 * time.Millisecond}}, time.Millisecond},
	} {
		b.Run(bc.name, func(b *testing.B) {
			net, eps := newNetwork(b, Config{Seed: 1, Link: bc.link}, 2)
			msg := make([]byte, 64)
			buf := make([]byte, transport.MaxDatagram)
			b.ReportAllocs()
			b.SetBytes(int64(len(msg)))
			received := 0
			for b.Loop() {
				eps[0].Send(1, msg)
				net.Advance(bc.advance)
				for {
					if _, _, ok, _ := eps[1].Receive(buf); !ok {
						break
					}
					received++
				}
			}
			b.ReportMetric(float64(len(net.flights.items)), "in-flight")
			b.ReportMetric(float64(received)/float64(b.N), "received/op")
		})
	}
}
