package wire

import (
	"errors"
	"testing"
)

func TestDigestOf(t *testing.T) {
	game := [16]byte{1, 2, 3}
	d, err := DigestOf[input2](2, 60, 0, game)
	if err != nil {
		t.Fatal(err)
	}
	if d.Players != 2 || d.InputSize != 2 || d.TickRate != 60 || d.ChecksumInterval != 1 || d.Game != game || d.InputLayout == 0 {
		t.Fatalf("got %+v", d)
	}
	bad := map[string]func() error{
		"players 0":       func() error { _, err := DigestOf[input2](0, 60, 1, game); return err },
		"players 17":      func() error { _, err := DigestOf[input2](17, 60, 1, game); return err },
		"tick 0":          func() error { _, err := DigestOf[input2](2, 0, 1, game); return err },
		"interval 70000":  func() error { _, err := DigestOf[input2](2, 60, 70000, game); return err },
		"input too large": func() error { _, err := DigestOf[[600]byte](2, 60, 1, game); return err },
	}
	for name, f := range bad {
		if err := f(); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("%s: got %v, want ErrInvalidConfig", name, err)
		}
	}
	if _, err := DigestOf[*int](2, 60, 1, game); err == nil {
		t.Error("pointer input type accepted")
	}
	if _, err := NewCodec[[600]byte](); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("NewCodec of 600-byte input: got %v", err)
	}
}

// TestCompareIsCore checks that wire's names are core's: a mismatch found
// by Compare is a *ConfigMismatchError matching ErrConfigMismatch (the
// cases are in core's TestCompareNamesField).
func TestCompareIsCore(t *testing.T) {
	base, _ := DigestOf[input2](2, 60, 1, [16]byte{9})
	other := base
	other.TickRate = 30
	var ce *ConfigMismatchError
	if err := Compare(base, other); !errors.As(err, &ce) || !errors.Is(err, ErrConfigMismatch) || ce.Field != "TickRate" {
		t.Fatalf("got %v, want a *ConfigMismatchError for TickRate", err)
	}
}

func TestCheckProtocol(t *testing.T) {
	if err := CheckProtocol(Protocol); err != nil {
		t.Fatal(err)
	}
	err := CheckProtocol(Protocol + 1)
	var ve *VersionError
	if !errors.Is(err, ErrBadVersion) || !errors.As(err, &ve) || ve.Remote != Protocol+1 {
		t.Fatalf("got %v", err)
	}
}

// TestHandshakeRefusedBothSides runs a refused handshake: both sides name
// the same field.
func TestHandshakeRefusedBothSides(t *testing.T) {
	a, _ := DigestOf[input2](2, 60, 1, [16]byte{1})
	b, _ := DigestOf[input2](2, 30, 1, [16]byte{1})
	hello, _ := AppendHello(nil, testKey, 0, &Hello{Protocol: Protocol, Nonce: 0xfeed, Config: a})
	var h Hello
	if _, err := DecodeHello(hello, testKey, nil, &h); err != nil {
		t.Fatal(err)
	}
	errB := Compare(b, h.Config)
	reply, _ := AppendHelloReply(nil, testKey, 0, &HelloReply{Status: ReplyRefuseConfig, Protocol: Protocol, Nonce: h.Nonce, Config: b})
	if len(reply) > len(hello) {
		t.Fatalf("reply %d bytes, hello %d", len(reply), len(hello))
	}
	var hr HelloReply
	if _, err := DecodeHelloReply(reply, testKey, nil, &hr); err != nil {
		t.Fatal(err)
	}
	errA := Compare(a, hr.Config)
	var ea, eb *ConfigMismatchError
	if !errors.As(errA, &ea) || !errors.As(errB, &eb) || ea.Field != "TickRate" || eb.Field != "TickRate" || hr.Nonce != 0xfeed {
		t.Fatalf("a: %v, b: %v, nonce %#x", errA, errB, hr.Nonce)
	}
}
