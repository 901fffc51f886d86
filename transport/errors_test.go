package transport

import (
	"errors"
	"testing"
)

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		name     string
		err      error
		sentinel error
		msg      string
	}{
		{"DatagramSize", &DatagramSizeError{Size: 1500}, ErrDatagramTooLarge, "transport: datagram of 1500 bytes exceeds the 1200-byte limit"},
		{"UnknownPeer", &UnknownPeerError{Peer: 7}, ErrUnknownPeer, "transport: unknown peer 7"},
		{"ShortBuffer", &ShortBufferError{Need: 100, Have: 10}, ErrShortBuffer, "transport: receive buffer of 10 bytes is too small for a datagram of 100 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.err.Error(); got != tc.msg {
				t.Errorf("Error(): got %q, want %q", got, tc.msg)
			}
			if !errors.Is(tc.err, tc.sentinel) {
				t.Errorf("errors.Is(%v, %v): got false, want true", tc.err, tc.sentinel)
			}
			if errors.Is(tc.err, ErrClosed) {
				t.Errorf("errors.Is(%v, ErrClosed): got true, want false", tc.err)
			}
		})
	}
}

func TestAddrString(t *testing.T) {
	if got := Addr(4294967295).String(); got != "peer 4294967295" {
		t.Fatalf("got %q, want %q", got, "peer 4294967295")
	}
}
