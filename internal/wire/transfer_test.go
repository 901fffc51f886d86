package wire

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
)

func TestTransferRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	for i := range 500 {
		payload := make([]byte, 1+r.IntN(MaxTransferPayload))
		for j := range payload {
			payload[j] = byte(r.Uint32())
		}
		seq := r.Uint64() >> uint(r.IntN(64))
		p, err := AppendTransfer(nil, testKey, seq, payload)
		if err != nil {
			t.Fatalf("packet %d: %v", i, err)
		}
		if len(p) > MaxDatagram {
			t.Fatalf("packet %d is %d bytes", i, len(p))
		}
		h, got, err := DecodeTransfer(p, testKey, winAt(seq))
		if err != nil || h.Seq != seq || h.Type != TypeTransfer || !bytes.Equal(got, payload) {
			t.Fatalf("packet %d: %+v, %d bytes, %v", i, h, len(got), err)
		}
	}
}

func TestTransferRefused(t *testing.T) {
	for _, n := range []int{0, MaxTransferPayload + 1} {
		if _, err := AppendTransfer(nil, testKey, 1, make([]byte, n)); !errors.Is(err, ErrInvalidMessage) {
			t.Errorf("payload of %d bytes: %v, want ErrInvalidMessage", n, err)
		}
	}
	p, err := AppendTransfer(nil, testKey, 7, []byte{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := DecodeTransfer(p, NewKey(99), winAt(7)); !errors.Is(err, ErrWrongToken) {
		t.Errorf("another key: %v, want ErrWrongToken", err)
	}
	empty, _ := AppendTransfer(nil, testKey, 7, []byte{1})
	empty = appendTag(empty[:shortHeader], testKey, 7, 0)
	if _, _, err := DecodeTransfer(empty, testKey, winAt(7)); !errors.Is(err, ErrTruncated) {
		t.Errorf("empty payload: %v, want ErrTruncated", err)
	}
	ka, _ := AppendKeepAlive(nil, testKey, 7, &KeepAlive{})
	if _, _, err := DecodeTransfer(ka, testKey, winAt(7)); err == nil {
		t.Error("a keep-alive decoded as a transfer")
	}
}

func TestTransferDecodeAllocs(t *testing.T) {
	p, _ := AppendTransfer(nil, testKey, 9, bytes.Repeat([]byte{5}, 900))
	w := winAt(9)
	if n := testing.AllocsPerRun(100, func() {
		if _, _, err := DecodeTransfer(p, testKey, w); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("DecodeTransfer allocates %v times", n)
	}
}

// FuzzDecodeTransfer: any datagram decodes to a payload inside it or to
// an error, never a panic; what decodes re-encodes to the same bytes.
func FuzzDecodeTransfer(f *testing.F) {
	for i, n := range []int{1, 2, 17, 600, MaxTransferPayload} {
		// Sequence numbers testWindow expands back to themselves, so that
		// the seeds pass the tag and reach the body.
		p, _ := AppendTransfer(nil, testKey, testBase-uint64(i*1000), bytes.Repeat([]byte{byte(i + 1)}, n))
		if _, _, err := DecodeTransfer(p, testKey, testWindow()); err != nil {
			f.Fatalf("seed %d does not decode: %v", i, err)
		}
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		// As it came, and signed again, so that a mutated body reaches the
		// decoder instead of failing the tag.
		for _, p := range [][]byte{p, resign(p, testWindow())} {
			h, payload, err := DecodeTransfer(p, testKey, testWindow())
			if err != nil {
				continue
			}
			q, err := AppendTransfer(nil, testKey, h.Seq, payload)
			if err != nil || !bytes.Equal(p, q) {
				t.Fatalf("decoded %x re-encodes to %x (%v)", p, q, err)
			}
		}
	})
}
