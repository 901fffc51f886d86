package wire

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
)

// TestAmplification checks the anti-amplification property: every Hello
// is exactly HelloSize bytes, and the largest possible packet of every type
// that may answer an unvalidated Hello is no larger.
func TestAmplification(t *testing.T) {
	full := ConfigDigest{Players: 255, InputSize: 0xffff, TickRate: 0xffff, ChecksumInterval: 0xffff, InputLayout: math.MaxUint64}
	for _, seq := range []uint64{0, 127, 128, 1 << 20, 1 << 40, math.MaxUint64} {
		hello, err := AppendHello(nil, NewKey(math.MaxUint64), seq, &Hello{Protocol: 0xffff, Nonce: math.MaxUint64, Config: full, Seat: SeatOf(15)})
		if err != nil || len(hello) != HelloSize {
			t.Fatalf("seq %d: hello is %d bytes (%v), want %d", seq, len(hello), err, HelloSize)
		}
	}
	big := time.Duration(math.MaxInt64)
	const seq = math.MaxUint64
	replies := map[string]func() ([]byte, error){
		"hello-reply": func() ([]byte, error) {
			return AppendHelloReply(nil, testKey, seq, &HelloReply{Status: ReplyRefuseConfig, Protocol: 0xffff, Nonce: math.MaxUint64, Config: full, Replier: math.MaxUint64})
		},
		"keep-alive": func() ([]byte, error) {
			return AppendKeepAlive(nil, testKey, seq, &KeepAlive{Stamp: big, Echo: math.MinInt64, EchoDelay: big, HasEcho: true})
		},
		"leave": func() ([]byte, error) {
			return AppendLeave(nil, testKey, seq, &Leave{Reason: LeaveRefused, Frame: math.MaxInt32})
		},
	}
	for name, f := range replies {
		p, err := f()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("largest %s: %d bytes", name, len(p))
		if _, err := ParseHeader(p, testKey, winAt(seq)); err != nil {
			t.Fatalf("largest %s: %v", name, err)
		}
		if len(p) > HelloSize {
			t.Errorf("largest %s is %d bytes, more than a %d-byte hello", name, len(p), HelloSize)
		}
	}
	// Input packets can be larger than a Hello: an endpoint sends them
	// only to peers that completed the handshake.
	c, _ := NewCodec[input2]()
	p, _, _ := c.AppendInput(nil, testKey, 0, &engine.Message[input2]{})
	t.Logf("smallest input packet: %d bytes", len(p))
}

// TestExtremeStamps round-trips the largest and smallest stamps.
func TestExtremeStamps(t *testing.T) {
	for _, k := range []KeepAlive{
		{Stamp: math.MaxInt64, Echo: math.MinInt64, EchoDelay: math.MaxInt64, HasEcho: true},
		{Stamp: 0, Echo: math.MaxInt64, HasEcho: true},
		{Stamp: math.MaxInt64, Echo: math.MaxInt64, HasEcho: true},
	} {
		p, err := AppendKeepAlive(nil, testKey, 1, &k)
		if err != nil {
			t.Fatal(err)
		}
		var got KeepAlive
		if _, err := DecodeKeepAlive(p, testKey, nil, &got); err != nil {
			t.Fatalf("%+v: %v", k, err)
		}
		want := KeepAlive{Stamp: k.Stamp.Truncate(time.Microsecond), Echo: k.Echo.Truncate(time.Microsecond), EchoDelay: k.EchoDelay.Truncate(time.Microsecond), HasEcho: true}
		if got != want {
			t.Errorf("got %+v, want %+v", got, want)
		}
	}
	// An echo past the largest duration is refused, not wrapped.
	p := appendHeader(nil, TypeKeepAlive, flagEcho, 1)
	p = appendDur(p, math.MaxInt64)
	p = appendVarint(p, 1) // Echo one microsecond past the largest
	p = appendDur(p, 0)
	p = seal(p, 1)
	var got KeepAlive
	_, err := DecodeKeepAlive(p, testKey, nil, &got)
	var de *DecodeError
	if !errors.As(err, &de) || !errors.Is(err, ErrMalformed) || !strings.HasPrefix(de.What, "echo") {
		t.Errorf("echo past range: got %v (%+v), want ErrMalformed for echo", err, got)
	}
}

func TestHelloPadding(t *testing.T) {
	p, _ := AppendHello(nil, testKey, 1, &Hello{Protocol: Protocol, Nonce: 7})
	var h Hello
	long := resign(append(append([]byte(nil), p...), 0), nil)
	if _, err := DecodeHello(long, testKey, nil, &h); !errorsIs(err, ErrMalformed) {
		t.Errorf("hello with an extra byte: got %v, want ErrMalformed", err)
	}
	dirty := append([]byte(nil), p...)
	dirty[HelloSize-TagSize-1] = 1
	if _, err := DecodeHello(resign(dirty, nil), testKey, nil, &h); !errorsIs(err, ErrMalformed) {
		t.Errorf("hello with nonzero padding: got %v, want ErrMalformed", err)
	}
	if _, err := DecodeHello(dirty, testKey, nil, &h); !errorsIs(err, ErrWrongToken) {
		t.Errorf("hello with nonzero padding, old tag: got %v, want ErrWrongToken", err)
	}
	steps := append([]byte(nil), p...)
	steps[longHeader+2+8+1] = 2 // the digest's ExtraSteps, once a reserved byte
	if _, err := DecodeHello(resign(steps, nil), testKey, nil, &h); err != nil || h.Config.ExtraSteps != 2 {
		t.Errorf("hello with ExtraSteps 2: got %v, ExtraSteps %d", err, h.Config.ExtraSteps)
	}
	if _, err := DecodeHello(p, NewKey(2), nil, &h); !errorsIs(err, ErrWrongToken) {
		t.Errorf("hello of another match: got %v, want ErrWrongToken", err)
	}
}

// helloSeatOffset is the offset of a Hello's Seat byte: after the long
// header, Protocol, Nonce and ConfigDigest.
const helloSeatOffset = longHeader + 2 + 8 + 32

// seatedHello returns a random Hello naming seat s.
func seatedHello(r *rand.Rand, s Seat) Hello {
	h := randHello(r)
	h.Seat = s
	return h
}

// TestHelloSeat round-trips every seat, checks the byte it travels as, and
// that an out-of-range seat is refused by the encoder (an *EncodeError,
// dst unchanged) and the decoder (ErrMalformed at the seat's offset).
func TestHelloSeat(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for s := NoSeat; s <= core.MaxPlayers; s++ {
		t.Run(s.String(), func(t *testing.T) {
			h := seatedHello(r, s)
			seq := r.Uint64()
			p, err := AppendHello(nil, testKey, seq, &h)
			if err != nil || len(p) != HelloSize {
				t.Fatalf("AppendHello: %d bytes, %v; want %d bytes", len(p), err, HelloSize)
			}
			if p[helloSeatOffset] != byte(s) {
				t.Errorf("seat byte %d, want %d", p[helloSeatOffset], byte(s))
			}
			var got Hello
			hd, err := DecodeHello(p, testKey, nil, &got)
			if err != nil || got != h || hd.Seq != seq {
				t.Fatalf("round trip: %+v seq %d, %v; want %+v seq %d", got, hd.Seq, err, h, seq)
			}
		})
	}
	for v := core.MaxPlayers + 1; v <= math.MaxUint8; v++ {
		h := Hello{Protocol: Protocol, Nonce: 1, Seat: Seat(v)}
		dst := []byte{1, 2, 3}
		out, err := AppendHello(dst, testKey, 1, &h)
		var ee *EncodeError
		if !errors.As(err, &ee) || ee.Field != "Seat" || !bytes.Equal(out, dst) {
			t.Fatalf("AppendHello(seat %d): %v, %x; want an *EncodeError for Seat and dst unchanged", v, err, out)
		}
		h.Seat = NoSeat
		p, _ := AppendHello(nil, testKey, 1, &h)
		p[helloSeatOffset] = byte(v)
		got := Hello{Nonce: 42}
		_, err = DecodeHello(resign(p, nil), testKey, nil, &got)
		var de *DecodeError
		if !errors.As(err, &de) || !errors.Is(err, ErrMalformed) || de.Offset != helloSeatOffset || got.Nonce != 42 {
			t.Fatalf("seat byte %d: got %v, %+v; want ErrMalformed at offset %d and the Hello unchanged", v, err, got, helloSeatOffset)
		}
	}
}

// TestHelloSeatTruncated: every strict prefix of a Hello naming a seat
// fails the tag, and with its tag recomputed fails with ErrTruncated
// within the prefix, as TestTruncatedPrefixes requires of every type.
func TestHelloSeatTruncated(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	for range 20 {
		h := seatedHello(r, Seat(1+r.IntN(core.MaxPlayers)))
		p, _ := AppendHello(nil, testKey, r.Uint64(), &h)
		var got Hello
		for n := range len(p) {
			want := ErrWrongToken
			if n < longHeader+TagSize {
				want = ErrTruncated
			}
			var de *DecodeError
			if _, err := DecodeHello(p[:n], testKey, nil, &got); !errors.Is(err, want) || !errors.As(err, &de) || de.Offset > n {
				t.Fatalf("prefix %d: got %v, want a *DecodeError matching %v", n, err, want)
			}
			if n < longHeader+TagSize || n == len(p)-TagSize {
				continue
			}
			q := resign(append(append([]byte(nil), p[:n-TagSize]...), 0, 0, 0, 0), nil)
			if _, err := DecodeHello(q, testKey, nil, &got); !errors.Is(err, ErrTruncated) || !errors.As(err, &de) || de.Offset > n-TagSize {
				t.Fatalf("re-tagged prefix %d: got %v, want a *DecodeError matching ErrTruncated", n-TagSize, err)
			}
		}
		if got != (Hello{}) {
			t.Fatalf("a failed decode changed the Hello: %+v", got)
		}
	}
}

// TestHelloSeatAllocs: a Hello naming a seat is encoded and decoded
// without allocating, like every other packet (TestAllocs).
func TestHelloSeatAllocs(t *testing.T) {
	h := Hello{Protocol: Protocol, Nonce: 9, Seat: SeatOf(3)}
	p, _ := AppendHello(nil, testKey, 1, &h)
	buf := make([]byte, 0, MaxDatagram)
	var got Hello
	for name, f := range map[string]func(){
		"AppendHello": func() { buf, _ = AppendHello(buf[:0], testKey, 1, &h) },
		"DecodeHello": func() { _, _ = DecodeHello(p, testKey, nil, &got) },
	} {
		f()
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", name, n)
		}
	}
}

func TestSeatOf(t *testing.T) {
	for _, tc := range []struct {
		players []core.PlayerHandle
		want    Seat
	}{
		{nil, NoSeat},
		{[]core.PlayerHandle{0}, 1},
		{[]core.PlayerHandle{3, 1, 2}, 2},
		{[]core.PlayerHandle{15}, core.MaxPlayers},
		{[]core.PlayerHandle{2, 16}, NoSeat},
		{[]core.PlayerHandle{-1}, NoSeat},
	} {
		got := SeatOf(tc.players...)
		if got != tc.want {
			t.Errorf("SeatOf(%v) = %v, want %v", tc.players, got, tc.want)
		}
		p, ok := got.Player()
		if ok != (tc.want != NoSeat) || (ok && Seat(p+1) != tc.want) {
			t.Errorf("%v.Player() = %d, %v", got, p, ok)
		}
	}
	for s, want := range map[Seat]string{NoSeat: "none", 1: "player 0", 16: "player 15", 17: "invalid seat 17"} {
		if got := s.String(); got != want {
			t.Errorf("Seat(%d).String() = %q, want %q", uint8(s), got, want)
		}
	}
	if _, ok := Seat(17).Player(); ok {
		t.Error("Seat(17).Player() is ok")
	}
}

// TestWriteHelloSeatSeeds adds Hellos naming seats to the FuzzDecodeHello
// corpus when run with -update-corpus (TestWriteSeedCorpus writes those
// of randHello, which name none).
func TestWriteHelloSeatSeeds(t *testing.T) {
	if !*updateCorpus {
		t.Skip("run with -update-corpus to rewrite testdata/fuzz")
	}
	r := rand.New(rand.NewPCG(8, 8))
	dir := filepath.Join("testdata", "fuzz", "FuzzDecodeHello")
	for i, s := range []Seat{SeatOf(0), SeatOf(1), SeatOf(2), SeatOf(15)} {
		h := seatedHello(r, s)
		p, err := AppendHello(nil, testKey, r.Uint64()>>r.IntN(64), &h)
		if err != nil {
			t.Fatal(err)
		}
		body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", p)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seat%d", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
