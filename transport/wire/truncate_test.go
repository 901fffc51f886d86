package wire

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/rollstep/rollstep/core"
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
	var m2 core.Message[input2]
	var mb core.Message[inputBool]
	var m64 core.Message[input64]
	ds := []decoder{
		{"input-2", func(p []byte) error { _, err := c2.DecodeInput(p, testToken, &m2); return err },
			func(r *rand.Rand) []byte {
				p, _, _ := c2.AppendInput(nil, testToken, r.Uint64()>>r.IntN(64), randMessage(r, gen2, 4, 12))
				return p
			}},
		{"input-bool", func(p []byte) error { _, err := cb.DecodeInput(p, testToken, &mb); return err },
			func(r *rand.Rand) []byte {
				p, _, _ := cb.AppendInput(nil, testToken, r.Uint64()>>r.IntN(64), randMessage(r, genBool, 4, 12))
				return p
			}},
		{"input-64", func(p []byte) error { _, err := c64.DecodeInput(p, testToken, &m64); return err },
			func(r *rand.Rand) []byte {
				p, _, _ := c64.AppendInput(nil, testToken, r.Uint64()>>r.IntN(64), randMessage(r, gen64, 2, 4))
				return p
			}},
		{"input-desync", func(p []byte) error { _, err := c2.DecodeInput(p, testToken, &m2); return err },
			func(r *rand.Rand) []byte {
				p, _, _ := c2.AppendInput(nil, testToken, r.Uint64()>>r.IntN(64), randDesync(r))
				return p
			}},
	}
	for _, tc := range controlCases {
		ds = append(ds, decoder{tc.name, tc.decode, func(r *rand.Rand) []byte {
			p, _, _ := tc.roundTrip(r, r.Uint64()>>r.IntN(64))
			return p
		}})
	}
	return ds
}

// TestTruncatedPrefixes checks that every strict prefix of a valid packet of
// every type fails with a *DecodeError matching ErrTruncated.
func TestTruncatedPrefixes(t *testing.T) {
	for _, d := range decoders(t) {
		t.Run(d.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(3, 3))
			for range 100 {
				p := d.valid(r)
				if err := d.decode(p); err != nil {
					t.Fatalf("valid packet %x: %v", p, err)
				}
				for n := range len(p) {
					err := d.decode(p[:n])
					var de *DecodeError
					if !errors.Is(err, ErrTruncated) || !errors.As(err, &de) || de.Offset > n {
						t.Fatalf("prefix %d of %x: got %v, want a *DecodeError matching ErrTruncated at offset <= %d", n, p, err, n)
					}
				}
			}
		})
	}
}

// TestDecodeErrors checks the documented error for each kind of damage.
func TestDecodeErrors(t *testing.T) {
	c, _ := NewCodec[input2]()
	var m core.Message[input2]
	good, _, _ := c.AppendInput(nil, testToken, 300, &core.Message[input2]{
		Frame: 300, Held: [core.MaxPlayers]core.Frame{300, 298},
		Inputs: []core.InputRun[input2]{{Player: 0, Start: 297, Values: []input2{{1, 0}, {1, 0}, {1, 2}}}},
	})
	mod := func(f func(p []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	// The body starts at 12: Frame 300 (1 byte: seq 300 minus 0), shape at
	// 13, Held at 14-15, then ChecksumAck, the timing and one run.
	tests := []struct {
		name string
		p    []byte
		want error
	}{
		{"empty", nil, ErrTruncated},
		{"too large", make([]byte, MaxDatagram+1), ErrTooLarge},
		{"bad magic", mod(func(p []byte) []byte { p[0] = 0x51; return p }), ErrBadMagic},
		{"bad version", mod(func(p []byte) []byte { p[0] = 0xA2; return p }), ErrBadVersion},
		{"type zero", mod(func(p []byte) []byte { p[1] = 0; return p }), ErrUnknownType},
		{"type 7", mod(func(p []byte) []byte { p[1] = 7; return p }), ErrUnknownType},
		{"undefined flag", mod(func(p []byte) []byte { p[1] = byte(TypeLeave) | flagEcho; return p }), ErrMalformed},
		{"wrong token", mod(func(p []byte) []byte { p[9] ^= 1; return p }), ErrWrongToken},
		{"wrong type", mod(func(p []byte) []byte { p[1] = byte(TypeKeepAlive); return p }), ErrWrongType},
		{"trailing byte", append(append([]byte(nil), good...), 0), ErrMalformed},
		{"non-minimal seq", mod(func(p []byte) []byte {
			return append(append(p[:10:10], 0xac, 0x82, 0x00), p[12:]...)
		}), ErrMalformed},
		{"frame past 2^31-1", mod(func(p []byte) []byte {
			return append(append(p[:12:12], 0xda, 0x04), p[13:]...) // seq - 301 = -1
		}), ErrMalformed},
		{"held frame negative", mod(func(p []byte) []byte {
			return append(append(p[:14:14], 0xd9, 0x04), p[15:]...) // -301
		}), ErrMalformed},
		{"17 held entries", mod(func(p []byte) []byte { p[13] = p[13]&0xe0 | 17; return p }), ErrTooLarge},
		{"gone flag, empty mask", mod(func(p []byte) []byte {
			p[1] |= flagGone
			return append(append(p[:16:16], 0, 0), p[16:]...)
		}), ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.DecodeInput(tt.p, testToken, &m)
			var de *DecodeError
			if !errors.Is(err, tt.want) || !errors.As(err, &de) {
				t.Fatalf("got %v, want a *DecodeError matching %v", err, tt.want)
			}
			if de.Error() == "" {
				t.Error("empty message")
			}
		})
	}
	if _, err := c.DecodeInput(good, testToken, &m); err != nil {
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
				q[0] = 0xA1
			}
			_ = d.decode(q)
		}
	}
}

// TestDecodeBounds crafts packets whose counts exceed the bounds: a few
// bytes must not make the decoder materialise unbounded values.
func TestDecodeBounds(t *testing.T) {
	c, _ := NewCodec[input2]()
	var m core.Message[input2]
	body := func(runs, n int) []byte {
		p := appendHeader(nil, TypeInput, 0, testToken, 1)
		p = append(p, 2)                     // Frame 0: seq 1 minus 1
		p = append(p, byte(min(runs, 7))<<5) // shape: no held entries
		p = append(p, 0)                     // ChecksumAck; no timing
		if runs >= 7 {
			p = append(p, byte(runs-7))
		}
		for k := range runs {
			p = append(p, byte(k%16))
			p = binary.AppendUvarint(p, uint64(n))
			p = append(p, 0)                       // Start 0
			p = binary.AppendUvarint(p, uint64(n)) // one gap: n zero values
		}
		return p
	}
	if _, err := c.DecodeInput(body(4, MaxRunValues), testToken, &m); err != nil {
		t.Fatalf("4 runs of %d: %v", MaxRunValues, err)
	}
	for name, p := range map[string][]byte{
		"run over MaxRunValues": body(1, MaxRunValues+1),
		"values over MaxValues": body(5, MaxRunValues),
		"17 runs":               body(17, 1),
	} {
		if _, err := c.DecodeInput(p, testToken, &m); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: got %v, want ErrTooLarge", name, err)
		}
	}
}
