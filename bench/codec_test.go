package bench

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/wire"
)

// codecMessage is a steady-state message of a 2-player rollback match at
// 60 Hz: eight unacknowledged frames of a 2-byte input that changes every
// other frame (in slots, as engines send them, with no command), an echo
// and one checksum report.
func codecMessage() *engine.Message[engine.Slot[uint16]] {
	m := &engine.Message[engine.Slot[uint16]]{Frame: 20000, ChecksumAck: 19990, Stamp: 333 * time.Second,
		Echo: 333*time.Second - 50*time.Millisecond, EchoDelay: 2 * time.Millisecond, HasEcho: true}
	m.Held[0], m.Held[1] = 19995, 19993
	var vals []engine.Slot[uint16]
	for _, v := range []uint16{1, 1, 5, 5, 4, 4, 0, 0} {
		vals = append(vals, engine.Slot[uint16]{Value: v})
	}
	m.Inputs = []engine.InputRun[engine.Slot[uint16]]{{Player: 0, Start: 19992, Values: vals}}
	m.Checksums = []engine.ChecksumReport{{Frame: 19990, Sum: 0x0123456789abcdef}}
	return m
}

// BenchmarkCodec encodes and decodes codecMessage with internal/wire's
// Codec. It reports the packet size in bytes (B/packet, without IP and UDP
// headers) beside the time; neither side may allocate.
func BenchmarkCodec(b *testing.B) {
	c, err := wire.NewCodec[engine.Slot[uint16]]()
	if err != nil {
		b.Fatal(err)
	}
	m := codecMessage()
	buf := make([]byte, 0, wire.MaxDatagram)
	p, _, err := c.AppendInput(buf, wire.NewKey(7), 1000, m)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf, _, _ = c.AppendInput(buf[:0], wire.NewKey(7), 1000, m)
		}
		b.ReportMetric(float64(len(buf)), "B/packet")
	})
	b.Run("decode", func(b *testing.B) {
		var out engine.Message[engine.Slot[uint16]]
		if _, err := c.DecodeInput(p, wire.NewKey(7), nil, &out); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			_, _ = c.DecodeInput(p, wire.NewKey(7), nil, &out)
		}
		b.ReportMetric(float64(len(p)), "B/packet")
	})
}
