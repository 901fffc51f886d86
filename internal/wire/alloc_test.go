package wire

import (
	"errors"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
)

// TestAllocs requires every encoder and decoder to allocate nothing after
// warm-up.
func TestAllocs(t *testing.T) {
	c, _ := NewCodec[input2]()
	c64, _ := NewCodec[input64]()
	m := steadyMessage(20000)
	m.Checksums = []engine.ChecksumReport{{Frame: 19990, Sum: 1}, {Frame: 19991, Sum: 2}}
	m.Blocks = engine.BlockReport{Frame: 19990, BlockSize: 64, Hashes: []uint64{1, 2, 3}}
	m.Answers = [engine.MaxAnswers]engine.BlockAnswer{{Frame: 19990, Length: 64, Differ: 5}, {Frame: 19990, Offset: 64, Length: 64, Unavailable: true}}
	m.Gone = 2
	big := &engine.Message[input64]{Frame: 100}
	for p := range 16 {
		run := engine.InputRun[input64]{Player: core.PlayerHandle(p), Start: 50}
		for k := range 200 {
			run.Values = append(run.Values, input64{A: [8]uint64{uint64(k * p)}})
		}
		big.Inputs = append(big.Inputs, run)
	}
	buf := make([]byte, 0, MaxDatagram)
	var got engine.Message[input2]
	var got64 engine.Message[input64]
	p, _, _ := c.AppendInput(nil, testKey, 9, m)
	pb, _, _ := c64.AppendInput(nil, testKey, 9, big)
	hello, _ := AppendHello(nil, testKey, 1, &Hello{Nonce: 1})
	ka, _ := AppendKeepAlive(nil, testKey, 1, &KeepAlive{Stamp: time.Second, HasEcho: true})
	offer := Match{Kind: MatchOffered, Offer: MatchOffer{Players: 2, TickRate: 60, Params: make([]byte, MaxMatchParams)}}
	mp, _ := AppendMatch(nil, testKey, 1, &offer)
	var (
		h  Hello
		mt Match
		k  KeepAlive
		w  ReplayWindow
		sq uint64
	)
	tests := map[string]func(){
		"AppendInput":        func() { buf, _, _ = c.AppendInput(buf[:0], testKey, 9, m) },
		"AppendInput cut":    func() { buf, _, _ = c64.AppendInput(buf[:0], testKey, 9, big) },
		"DecodeInput":        func() { _, _ = c.DecodeInput(p, testKey, nil, &got) },
		"DecodeInput big":    func() { _, _ = c64.DecodeInput(pb, testKey, nil, &got64) },
		"ParseHeader":        func() { _, _ = ParseHeader(p, testKey, &w) },
		"AppendHello":        func() { buf, _ = AppendHello(buf[:0], testKey, 1, &h) },
		"DecodeHello":        func() { _, _ = DecodeHello(hello, testKey, nil, &h) },
		"AppendKeepAlive":    func() { buf, _ = AppendKeepAlive(buf[:0], testKey, 1, &k) },
		"DecodeKeepAlive":    func() { _, _ = DecodeKeepAlive(ka, testKey, nil, &k) },
		"AppendMatch":        func() { buf, _ = AppendMatch(buf[:0], testKey, 1, &offer) },
		"DecodeMatch":        func() { _, _ = DecodeMatch(mp, testKey, nil, &mt) },
		"ReplayWindow":       func() { sq++; _ = w.Accept(sq); _ = w.Accept(sq) },
		"Expand":             func() { sq += uint64(w.Expand(uint16(sq))) & 1 },
		"DecodeInput replay": func() { _, _ = c.DecodeInput(p, testKey, nil, &got); _ = w.Check(9) },
	}
	for name, f := range tests {
		f() // warm up
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", name, n)
		}
	}
}

// TestRejectAllocs requires every header rejection to allocate nothing, in
// ParseHeader and in every decoder: a flood of garbage costs no garbage.
func TestRejectAllocs(t *testing.T) {
	c, _ := NewCodec[input2]()
	good, _, _ := c.AppendInput(nil, testKey, 9, steadyMessage(20000))
	flip := func(i int, x byte) []byte {
		p := append([]byte(nil), good...)
		p[i] ^= x
		return p
	}
	cases := []struct {
		name string
		p    []byte
		want error
	}{
		{"too large", make([]byte, MaxDatagram+1), ErrTooLarge},
		{"empty", nil, ErrTruncated},
		{"truncated header", good[:2], ErrTruncated},
		{"no room for the tag", good[:shortHeader+TagSize-1], ErrTruncated},
		{"bad version", flip(0, 0x80), ErrBadVersion},
		{"unknown type", flip(0, 3<<3), ErrUnknownType}, // input (3) becomes 0
		{"bad flags", []byte{Version<<6 | byte(TypeLeave)<<3 | 1, 0, 0, 0, 0, 0, 0}, ErrMalformed},
		{"wrong tag", flip(len(good)-1, 1), ErrWrongToken},
		{"wrong key", good, ErrWrongToken}, // decoded with another key below
	}
	other := NewKey(testToken + 1)
	var m engine.Message[input2]
	var h Hello
	var k KeepAlive
	var l Leave
	var hr HelloReply
	var mt Match
	var w ReplayWindow
	for _, tc := range cases {
		key := testKey
		if tc.name == "wrong key" {
			key = other
		}
		decoders := map[string]func() error{
			"ParseHeader":      func() error { _, err := ParseHeader(tc.p, key, &w); return err },
			"DecodeInput":      func() error { _, err := c.DecodeInput(tc.p, key, &w, &m); return err },
			"DecodeHello":      func() error { _, err := DecodeHello(tc.p, key, &w, &h); return err },
			"DecodeHelloReply": func() error { _, err := DecodeHelloReply(tc.p, key, &w, &hr); return err },
			"DecodeKeepAlive":  func() error { _, err := DecodeKeepAlive(tc.p, key, &w, &k); return err },
			"DecodeLeave":      func() error { _, err := DecodeLeave(tc.p, key, &w, &l); return err },
			"DecodeMatch":      func() error { _, err := DecodeMatch(tc.p, key, &w, &mt); return err },
		}
		for name, dec := range decoders {
			err := dec()
			var de *DecodeError
			if !errorsIs(err, tc.want) && !errorsIs(err, ErrWrongType) || !errors.As(err, &de) {
				t.Errorf("%s, %s: got %v, want a *DecodeError matching %v", tc.name, name, err, tc.want)
			}
			if n := testing.AllocsPerRun(100, func() { _ = dec() }); n != 0 {
				t.Errorf("%s, %s: %v allocations per rejection, want 0", tc.name, name, n)
			}
		}
	}
}
