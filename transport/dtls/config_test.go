package dtls

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/rollstep/rollstep/transport"
)

func TestConfigValidate(t *testing.T) {
	s, _, _ := certs(t)
	psk := pskFor("x", matchKey)
	tests := []struct {
		name  string
		cfg   Config
		field string
	}{
		{"Empty", Config{}, "PSK"},
		{"Both", Config{PSK: psk, Certificate: &s}, "Certificate"},
		{"NoPins", Config{Certificate: &s}, "PeerFingerprints"},
		{"NegativeTimeout", Config{PSK: psk, HandshakeTimeout: -1}, "HandshakeTimeout"},
		{"NegativeFlight", Config{PSK: psk, FlightInterval: -1}, "FlightInterval"},
		{"FlightAboveTimeout", Config{PSK: psk, HandshakeTimeout: time.Second, FlightInterval: 2 * time.Second}, "FlightInterval"},
		{"NegativeMaxHandshakes", Config{PSK: psk, MaxHandshakes: -1}, "MaxHandshakes"},
		{"NegativeMaxHandshakesPerIP", Config{PSK: psk, MaxHandshakesPerIP: -1}, "MaxHandshakesPerIP"},
		{"NegativeMaxPeers", Config{PSK: psk, MaxPeers: -1}, "MaxPeers"},
		{"NegativeQueue", Config{PSK: psk, QueueLen: -1}, "QueueLen"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.validate()
			var ce *transport.ConfigError
			if !errors.As(err, &ce) || !errors.Is(err, transport.ErrInvalidConfig) || ce.Field != "dtls.Config."+tt.field {
				t.Fatalf("validate: got %v, want a *transport.ConfigError for dtls.Config.%s", err, tt.field)
			}
			if _, err := Listen(&net.UDPConn{}, tt.cfg); !errors.Is(err, transport.ErrInvalidConfig) {
				t.Fatalf("Listen: got %v, want transport.ErrInvalidConfig", err)
			}
		})
	}
	if err := (&Config{PSK: psk}).validate(); err != nil {
		t.Fatalf("validate of a minimal PSK config: %v", err)
	}
}

func TestDialRequiresIdentity(t *testing.T) {
	pc, err := net.ListenUDP("udp4", loopback)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Dial(context.Background(), pc, loopback, Config{PSK: pskFor("x", matchKey)})
	var ce *transport.ConfigError
	if !errors.As(err, &ce) || ce.Field != "dtls.Config.PSKIdentity" {
		t.Fatalf("Dial without an identity: got %v, want a *transport.ConfigError for dtls.Config.PSKIdentity", err)
	}
	if _, err := pc.WriteTo([]byte("x"), loopback); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("the socket after a failed Dial: got %v, want it closed", err)
	}
}
