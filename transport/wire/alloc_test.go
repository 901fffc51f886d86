package wire

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
)

// TestAllocs requires every encoder and decoder to allocate nothing after
// warm-up.
func TestAllocs(t *testing.T) {
	c, _ := NewCodec[input2]()
	c64, _ := NewCodec[input64]()
	m := steadyMessage(20000)
	m.Checksums = []core.ChecksumReport{{Frame: 19990, Sum: 1}, {Frame: 19991, Sum: 2}}
	m.Blocks = core.BlockReport{Frame: 19990, BlockSize: 64, Hashes: []uint64{1, 2, 3}}
	m.Gone = 2
	big := &core.Message[input64]{Frame: 100}
	for p := range 16 {
		run := core.InputRun[input64]{Player: core.PlayerHandle(p), Start: 50}
		for k := range 200 {
			run.Values = append(run.Values, input64{A: [8]uint64{uint64(k * p)}})
		}
		big.Inputs = append(big.Inputs, run)
	}
	buf := make([]byte, 0, MaxDatagram)
	var got core.Message[input2]
	var got64 core.Message[input64]
	p, _, _ := c.AppendInput(nil, testToken, 9, m)
	pb, _, _ := c64.AppendInput(nil, testToken, 9, big)
	hello, _ := AppendHello(nil, testToken, 1, &Hello{Nonce: 1})
	ka, _ := AppendKeepAlive(nil, testToken, 1, &KeepAlive{Stamp: time.Second, HasEcho: true})
	var (
		h  Hello
		k  KeepAlive
		w  ReplayWindow
		sq uint64
	)
	tests := map[string]func(){
		"AppendInput":        func() { buf, _, _ = c.AppendInput(buf[:0], testToken, 9, m) },
		"AppendInput cut":    func() { buf, _, _ = c64.AppendInput(buf[:0], testToken, 9, big) },
		"DecodeInput":        func() { _, _ = c.DecodeInput(p, testToken, &got) },
		"DecodeInput big":    func() { _, _ = c64.DecodeInput(pb, testToken, &got64) },
		"ParseHeader":        func() { _, _ = ParseHeader(p, testToken) },
		"AppendHello":        func() { buf, _ = AppendHello(buf[:0], testToken, 1, &h) },
		"DecodeHello":        func() { _, _ = DecodeHello(hello, testToken, &h) },
		"AppendKeepAlive":    func() { buf, _ = AppendKeepAlive(buf[:0], testToken, 1, &k) },
		"DecodeKeepAlive":    func() { _, _ = DecodeKeepAlive(ka, testToken, &k) },
		"ReplayWindow":       func() { sq++; _ = w.Accept(sq); _ = w.Accept(sq) },
		"DecodeInput replay": func() { _, _ = c.DecodeInput(p, testToken, &got); _ = w.Check(9) },
	}
	for name, f := range tests {
		f() // warm up
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", name, n)
		}
	}
}
