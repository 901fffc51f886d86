package wire

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
)

// decoder decodes one packet type, discarding the value.
type decoder struct {
	name   string
	decode func(p []byte) error
	valid  func(r *rand.Rand) []byte // a random valid packet
}

// decoders lists every decoder with a generator of valid packets.
func decoders(t testing.TB) []decoder {
	c2, err := NewCodec[input2]()
	if err != nil {
		t.Fatal(err)
	}
	cb, _ := NewCodec[inputBool]()
	c64, _ := NewCodec[input64]()
	var m2 engine.Message[input2]
	var mb engine.Message[inputBool]
	var m64 engine.Message[input64]
	w := testWindow()
	ds := []decoder{
		{"input-2", func(p []byte) error { _, err := c2.DecodeInput(p, testKey, w, &m2); return err },
			func(r *rand.Rand) []byte {
				p, _, _ := c2.AppendInput(nil, testKey, testSeq(r), randMessage(r, gen2, 4, 12))
				return p
			}},
		{"input-bool", func(p []byte) error { _, err := cb.DecodeInput(p, testKey, w, &mb); return err },
			func(r *rand.Rand) []byte {
				p, _, _ := cb.AppendInput(nil, testKey, testSeq(r), randMessage(r, genBool, 4, 12))
				return p
			}},
		{"input-64", func(p []byte) error { _, err := c64.DecodeInput(p, testKey, w, &m64); return err },
			func(r *rand.Rand) []byte {
				p, _, _ := c64.AppendInput(nil, testKey, testSeq(r), randMessage(r, gen64, 2, 4))
				return p
			}},
		{"input-desync", func(p []byte) error { _, err := c2.DecodeInput(p, testKey, w, &m2); return err },
			func(r *rand.Rand) []byte {
				p, _, _ := c2.AppendInput(nil, testKey, testSeq(r), randDesync(r))
				return p
			}},
	}
	for _, tc := range controlCases {
		ds = append(ds, decoder{tc.name, tc.decode, func(r *rand.Rand) []byte {
			seq := testSeq(r)
			if tc.typ.longSeq() {
				seq = r.Uint64() >> r.IntN(64)
			}
			p, _, _ := tc.roundTrip(r, seq)
			return p
		}})
	}
	return ds
}

// TestTruncatedPrefixes checks that every strict prefix of a valid packet of
// every type fails with a *DecodeError: ErrTruncated when it is shorter
// than the header and tag, ErrWrongToken otherwise (the tag that ends the
// packet no longer matches). With its tag recomputed, a prefix that holds
// the header and tag reaches the body decoder and must fail with
// ErrTruncated at an offset within it.
func TestTruncatedPrefixes(t *testing.T) {
	w := testWindow()
	for _, d := range decoders(t) {
		t.Run(d.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(3, 3))
			for range 100 {
				p := d.valid(r)
				if err := d.decode(p); err != nil {
					t.Fatalf("valid packet %x: %v", p, err)
				}
				hl := shortHeader
				if Type(p[0] >> 3 & 7).longSeq() {
					hl = longHeader
				}
				for n := range len(p) {
					want := ErrWrongToken
					if n < hl+TagSize {
						want = ErrTruncated
					}
					err := d.decode(p[:n])
					var de *DecodeError
					if !errors.Is(err, want) || !errors.As(err, &de) || de.Offset > n {
						t.Fatalf("prefix %d of %x: got %v, want a *DecodeError matching %v at offset <= %d", n, p, err, want, n)
					}
					if n < hl+TagSize || n == len(p)-TagSize {
						continue // no body, or the whole body with a new tag: the packet minus its tag
					}
					// The prefix's first n-TagSize bytes are a strict
					// prefix of the header and body; give them a tag.
					q := resign(append(append([]byte(nil), p[:n-TagSize]...), 0, 0, 0, 0), w)
					if n-TagSize > len(p)-TagSize {
						continue
					}
					err = d.decode(q)
					if !errors.Is(err, ErrTruncated) || !errors.As(err, &de) || de.Offset > n-TagSize {
						t.Fatalf("re-tagged prefix %d of %x: got %v, want a *DecodeError matching ErrTruncated at offset <= %d", n-TagSize, p, err, n-TagSize)
					}
				}
			}
		})
	}
}

// TestDecodeErrors checks the documented error for each kind of damage.
// Damage behind the header is re-tagged (resign) so that it reaches the
// body decoder.
func TestDecodeErrors(t *testing.T) {
	c, _ := NewCodec[input2]()
	var m engine.Message[input2]
	const seq = 300
	w := winAt(seq - 1)
	good, _, _ := c.AppendInput(nil, testKey, seq, &engine.Message[input2]{
		Frame: 300, Held: [core.MaxPlayers]core.Frame{300, 298},
		Inputs: []engine.InputRun[input2]{{Player: 0, Start: 297, Values: []input2{{1, 0}, {1, 0}, {1, 2}}}},
	})
	// good: header byte at 0 (flags: timing, runs end at held), sequence
	// 1-2, Frame at 3 (seq 300 minus 300: 0), shape at 4, Held at 5-6,
	// then the timing, one run and the tag.
	if good[0]&^flagTiming != Version<<6|byte(TypeInput)<<3|flagAtHeld {
		t.Fatalf("header byte %#x", good[0])
	}
	// notHeld is good with Held[0] 301: the run ends before it, so its
	// start is on the wire (one byte after the run head).
	notHeld, _, _ := c.AppendInput(nil, testKey, seq, &engine.Message[input2]{
		Frame: 300, Held: [core.MaxPlayers]core.Frame{301, 298},
		Inputs: []engine.InputRun[input2]{{Player: 0, Start: 297, Values: []input2{{1, 0}, {1, 0}, {1, 2}}}},
	})
	mod := func(f func(p []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	re := func(f func(p []byte) []byte) []byte { return resign(mod(f), w) }
	ins := func(at int, b ...byte) func(p []byte) []byte {
		return func(p []byte) []byte { return append(append(p[:at:at], b...), p[at:]...) }
	}
	tests := []struct {
		name string
		p    []byte
		want error
	}{
		{"empty", nil, ErrTruncated},
		{"header only", good[:3], ErrTruncated},
		{"too large", make([]byte, MaxDatagram+1), ErrTooLarge},
		{"bad version", mod(func(p []byte) []byte { p[0] ^= 0xc0; return p }), ErrBadVersion},
		{"version 1", mod(func(p []byte) []byte { p[0] = p[0]&0x3f | 1<<6; return p }), ErrBadVersion},
		{"type zero", mod(func(p []byte) []byte { p[0] &^= 7 << 3; return p }), ErrUnknownType},
		{"type 7 (match), input flags", mod(func(p []byte) []byte { p[0] |= 7 << 3; return p }), ErrMalformed},
		{"undefined flag", mod(func(p []byte) []byte { p[0] = Version<<6 | byte(TypeLeave)<<3 | flagEcho; return p }), ErrMalformed},
		{"keep-alive flag 0x4", mod(func(p []byte) []byte { p[0] = Version<<6 | byte(TypeKeepAlive)<<3 | 4; return p }), ErrMalformed},
		{"wrong tag", mod(func(p []byte) []byte { p[len(p)-1] ^= 1; return p }), ErrWrongToken},
		{"damaged body", mod(func(p []byte) []byte { p[5] ^= 1; return p }), ErrWrongToken},
		{"sequence off by 2^16", resign(good, winAt(seq+1<<16)), ErrWrongToken},
		{"wrong type", re(func(p []byte) []byte { p[0] = Version<<6 | byte(TypeKeepAlive)<<3; return p }), ErrWrongType},
		{"trailing byte", re(ins(len(good)-TagSize, 0)), ErrMalformed},
		{"frame past 2^31-1", re(func(p []byte) []byte {
			return append(appendVarint(p[:3:3], -1<<31), p[4:]...) // Frame = seq + 2^31
		}), ErrMalformed},
		{"held frame negative", re(func(p []byte) []byte {
			return append(append(p[:5:5], 0xd9, 0x04), p[6:]...) // -301
		}), ErrMalformed},
		{"17 held entries", re(func(p []byte) []byte { p[4] = p[4]&0xe0 | 17; return p }), ErrTooLarge},
		{"ext flag, ext zero", re(func(p []byte) []byte { p[0] |= flagExt; return ins(3, 0)(p) }), ErrMalformed},
		{"ext flag, undefined bit", re(func(p []byte) []byte { p[0] |= flagExt; return ins(3, 0x10)(p) }), ErrMalformed},
		{"gone flag, empty mask", re(func(p []byte) []byte { p[0] |= flagExt; return ins(3, extGone)(ins(7, 0, 0)(p)) }), ErrMalformed},
		{"checksum ack 0 present", re(func(p []byte) []byte { p[0] |= flagExt; return ins(3, extAck)(ins(7, 0xd7, 0x04)(p)) }), ErrMalformed}, // 0 - 300
		{"starts implied by held", resign(append(append([]byte(nil), notHeld[:5]...), append([]byte{0}, notHeld[6:]...)...), w), ErrMalformed},
		{"held flag, held entry zero", re(func(p []byte) []byte { p[5] = 0xd7; return ins(6, 0x04)(p) }), ErrMalformed}, // Held[0] = 0
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.DecodeInput(tt.p, testKey, w, &m)
			var de *DecodeError
			if !errors.Is(err, tt.want) || !errors.As(err, &de) {
				t.Fatalf("got %v, want a *DecodeError matching %v", err, tt.want)
			}
			if de.Error() == "" {
				t.Error("empty message")
			}
		})
	}
	if _, err := c.DecodeInput(good, testKey, w, &m); err != nil {
		t.Fatalf("unmodified packet: %v", err)
	}
}

// TestDecodeGarbage feeds random bytes, and random corruptions of valid
// packets, to every decoder: each must return an error or a value, never
// panic.
func TestDecodeGarbage(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for _, d := range decoders(t) {
		for range 2000 {
			p := d.valid(r)
			for range 1 + r.IntN(4) {
				if len(p) > 0 {
					p[r.IntN(len(p))] ^= byte(1 << r.IntN(8))
				}
			}
			_ = d.decode(p)
			q := make([]byte, r.IntN(64))
			for i := range q {
				q[i] = byte(r.Uint32())
			}
			if len(q) > 1 {
				q[0] = q[0]&0x3f | Version<<6
			}
			_ = d.decode(q)
			q = resign(q, testWindow()) // reach the body decoders
			_ = d.decode(q)
		}
	}
}

// TestDecodeBounds crafts packets whose counts exceed the bounds: a few
// bytes must not make the decoder materialise unbounded values.
func TestDecodeBounds(t *testing.T) {
	c, _ := NewCodec[input2]()
	var m engine.Message[input2]
	body := func(runs, n int) []byte {
		p := appendHeader(nil, TypeInput, 0, 1)
		p = append(p, 2)                     // Frame 0: seq 1 minus 1
		p = append(p, byte(min(runs, 7))<<5) // shape: no held entries; no ack, no timing
		if runs >= 7 {
			p = append(p, byte(runs-7))
		}
		for k := range runs {
			p = append(p, byte(k%16))
			p = binary.AppendUvarint(p, uint64(n))
			p = append(p, 0)                       // Start 0
			p = binary.AppendUvarint(p, uint64(n)) // one gap: n zero values
		}
		return seal(p, 1)
	}
	if _, err := c.DecodeInput(body(4, MaxRunValues), testKey, nil, &m); err != nil {
		t.Fatalf("4 runs of %d: %v", MaxRunValues, err)
	}
	for name, p := range map[string][]byte{
		"run over MaxRunValues": body(1, MaxRunValues+1),
		"values over MaxValues": body(5, MaxRunValues),
		"17 runs":               body(17, 1),
	} {
		if _, err := c.DecodeInput(p, testKey, nil, &m); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: got %v, want ErrTooLarge", name, err)
		}
	}
}

// TestDecodeInputBodyRefusesOtherHeaders checks DecodeInputBody's own
// guards: a header of another type, or one longer than the datagram.
func TestDecodeInputBodyRefusesOtherHeaders(t *testing.T) {
	c, err := NewCodec[input2]()
	if err != nil {
		t.Fatal(err)
	}
	m := &engine.Message[input2]{Frame: 9, NoStamp: true}
	p, _, err := c.AppendInput(nil, testKey, 9, m)
	if err != nil {
		t.Fatal(err)
	}
	h, err := ParseHeader(p, testKey, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out engine.Message[input2]
	if err := c.DecodeInputBody(p, h, &out); err != nil || out.Frame != 9 {
		t.Fatalf("decoding its own header: frame %d, %v", out.Frame, err)
	}
	other := h
	other.Type = TypeKeepAlive
	if err := c.DecodeInputBody(p, other, &out); !errors.Is(err, ErrWrongType) {
		t.Errorf("a keep-alive header: %v, want ErrWrongType", err)
	}
	long := h
	long.Len = len(p)
	if err := c.DecodeInputBody(p, long, &out); !errors.Is(err, ErrTruncated) {
		t.Errorf("a header longer than the datagram: %v, want ErrTruncated", err)
	}
}
