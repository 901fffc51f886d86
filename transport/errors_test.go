package transport

import (
	"errors"
	"fmt"
	"testing"
)

// TestErrors checks the sentinels: each error wrapped with its numbers in
// the form its comment gives matches its own sentinel and no other.
func TestErrors(t *testing.T) {
	sentinels := []error{ErrClosed, ErrDatagramTooLarge, ErrUnknownPeer, ErrShortBuffer, ErrInvalidConfig}
	for _, tc := range []struct {
		name     string
		err      error
		sentinel error
		msg      string
	}{
		{"DatagramTooLarge", fmt.Errorf("%w: %d bytes, over the %d-byte limit", ErrDatagramTooLarge, 1500, MaxDatagram),
			ErrDatagramTooLarge, "transport: datagram too large: 1500 bytes, over the 1200-byte limit"},
		{"UnknownPeer", fmt.Errorf("%w %d", ErrUnknownPeer, Addr(7)), ErrUnknownPeer, "transport: unknown peer 7"},
		{"ShortBuffer", fmt.Errorf("%w: %d bytes for a datagram of %d bytes", ErrShortBuffer, 10, 100),
			ErrShortBuffer, "transport: receive buffer too small: 10 bytes for a datagram of 100 bytes"},
		{"Config", &ConfigError{Field: "udp.Config.Peers[2].Addr", Reason: "empty"}, ErrInvalidConfig,
			"transport: invalid config: udp.Config.Peers[2].Addr: empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.err.Error(); got != tc.msg {
				t.Errorf("Error(): got %q, want %q", got, tc.msg)
			}
			for _, s := range sentinels {
				if got, want := errors.Is(tc.err, s), s == tc.sentinel; got != want {
					t.Errorf("errors.Is(%v, %v): got %v, want %v", tc.err, s, got, want)
				}
			}
		})
	}
}

func TestAddrString(t *testing.T) {
	if got := Addr(4294967295).String(); got != "peer 4294967295" {
		t.Fatalf("got %q, want %q", got, "peer 4294967295")
	}
}
