package webrtc

import (
	"testing"

	"github.com/rollstep/rollstep/transport"
)

// BenchmarkSendReceive is one datagram's round through two Conns over
// loopback: Send on one, Receive on the other once it has arrived. pion
// allocates per message (SCTP keeps a copy until it is acknowledged, and
// delivers each message in a new buffer); the Conn's own Receive does not.
func BenchmarkSendReceive(b *testing.B) {
	cs := mesh(b, 1, 2)
	p := make([]byte, 64)
	buf := make([]byte, transport.MaxDatagram)
	b.ReportAllocs()
	for b.Loop() {
		if err := cs[0].Send(2, p); err != nil {
			b.Fatal(err)
		}
		for {
			_, _, ok, err := cs[1].Receive(buf)
			if err != nil {
				b.Fatal(err)
			}
			if ok {
				break
			}
			<-cs[1].changed
		}
	}
}
