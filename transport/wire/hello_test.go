package wire

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
)

// TestAmplification checks the anti-amplification property: every Hello
// is exactly HelloSize bytes, and the largest possible packet of every type
// that may answer an unvalidated Hello is no larger.
func TestAmplification(t *testing.T) {
	full := ConfigDigest{Players: 255, InputSize: 0xffff, TickRate: 0xffff, ChecksumInterval: 0xffff, InputLayout: math.MaxUint64}
	for _, seq := range []uint64{0, 127, 128, 1 << 20, 1 << 40, math.MaxUint64} {
		hello, err := AppendHello(nil, NewKey(math.MaxUint64), seq, &Hello{Protocol: 0xffff, Nonce: math.MaxUint64, Config: full})
		if err != nil || len(hello) != HelloSize {
			t.Fatalf("seq %d: hello is %d bytes (%v), want %d", seq, len(hello), err, HelloSize)
		}
	}
	big := time.Duration(math.MaxInt64)
	const seq = math.MaxUint64
	replies := map[string]func() ([]byte, error){
		"hello-reply": func() ([]byte, error) {
			return AppendHelloReply(nil, testKey, seq, &HelloReply{Status: ReplyRefuseConfig, Protocol: 0xffff, Nonce: math.MaxUint64, Config: full})
		},
		"keep-alive": func() ([]byte, error) {
			return AppendKeepAlive(nil, testKey, seq, &KeepAlive{Stamp: big, Echo: math.MinInt64, EchoDelay: big, HasEcho: true})
		},
		"leave": func() ([]byte, error) {
			return AppendLeave(nil, testKey, seq, &Leave{Reason: LeaveRefused, Frame: math.MaxInt32})
		},
		"quality": func() ([]byte, error) {
			return AppendQuality(nil, testKey, seq, &Quality{Frame: math.MaxInt32, RTT: big, Jitter: big, LossPermille: 1000})
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
	p, _, _ := c.AppendInput(nil, testKey, 0, &core.Message[input2]{})
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
	reserved := append([]byte(nil), p...)
	reserved[longHeader+2+8+1] = 1 // the digest's reserved byte
	if _, err := DecodeHello(resign(reserved, nil), testKey, nil, &h); !errorsIs(err, ErrMalformed) {
		t.Errorf("hello with reserved digest byte set: got %v, want ErrMalformed", err)
	}
	if _, err := DecodeHello(p, NewKey(2), nil, &h); !errorsIs(err, ErrWrongToken) {
		t.Errorf("hello of another match: got %v, want ErrWrongToken", err)
	}
}
