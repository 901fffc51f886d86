package wire

import (
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/transport"
)

// BenchmarkAppendInput encodes a steady-state packet of a 2-player match
// with 2-byte inputs and six unacknowledged frames.
func BenchmarkAppendInput(b *testing.B) {
	c, _ := NewCodec[input2]()
	m := steadyMessage(20000)
	buf := make([]byte, 0, MaxDatagram)
	b.ReportAllocs()
	for b.Loop() {
		buf, _, _ = c.AppendInput(buf[:0], testKey, 20000, m)
	}
	b.ReportMetric(float64(len(buf)), "bytes/packet")
	b.ReportMetric(float64(len(buf)+transport.HeaderOverhead), "ip-bytes/packet")
}

// BenchmarkDecodeInput decodes the packet of BenchmarkAppendInput.
func BenchmarkDecodeInput(b *testing.B) {
	c, _ := NewCodec[input2]()
	p, _, _ := c.AppendInput(nil, testKey, 20000, steadyMessage(20000))
	var m engine.Message[input2]
	w := winAt(19999)
	b.ReportAllocs()
	for b.Loop() {
		h, err := ParseHeader(p, testKey, w)
		if err != nil {
			b.Fatal(err)
		}
		_ = w.Check(h.Seq)
		if _, err := c.DecodeInput(p, testKey, w, &m); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(p)), "bytes/packet")
}

// BenchmarkAppendInputCut encodes a message that does not fit: 16 players
// with 200 unacknowledged frames of 64-byte inputs each, so the encoder
// searches for the cut-off frame.
func BenchmarkAppendInputCut(b *testing.B) {
	c, _ := NewCodec[input64]()
	m := &engine.Message[input64]{Frame: 300}
	for p := range core.MaxPlayers {
		run := engine.InputRun[input64]{Player: core.PlayerHandle(p), Start: 100}
		for k := range 200 {
			run.Values = append(run.Values, input64{A: [8]uint64{uint64(k), uint64(p)}})
		}
		m.Inputs = append(m.Inputs, run)
	}
	buf := make([]byte, 0, MaxDatagram)
	var fit Fit
	b.ReportAllocs()
	for b.Loop() {
		buf, fit, _ = c.AppendInput(buf[:0], testKey, 1, m)
	}
	b.ReportMetric(float64(len(buf)), "bytes/packet")
	b.ReportMetric(float64(fit.Values), "values/packet")
}

// BenchmarkRejectGarbage parses a packet whose tag is wrong: the cost of
// each datagram of a flood that passes the first byte's checks.
func BenchmarkRejectGarbage(b *testing.B) {
	c, _ := NewCodec[input2]()
	p, _, _ := c.AppendInput(nil, testKey, 20000, steadyMessage(20000))
	p[len(p)-1] ^= 1
	w := winAt(19999)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseHeader(p, testKey, w); err == nil {
			b.Fatal("accepted")
		}
	}
}

// BenchmarkTag is the packet tag of a 55-byte steady-state packet, which
// every packet pays twice: once to send, once to receive.
func BenchmarkTag(b *testing.B) {
	p := make([]byte, 55)
	k := NewKey(99)
	var x uint32
	for b.Loop() {
		x += tag(k, 12345, p)
	}
	_ = x
}
