package dtls

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/rollstep/rollstep/internal/connhook"
	"github.com/rollstep/rollstep/transport"
)

func TestWrongPSKFailsWithinDeadline(t *testing.T) {
	const timeout = time.Second
	scfg := pskServer()
	scfg.HandshakeTimeout = timeout
	srv := listen(t, scfg)
	ccfg := pskClient()
	ccfg.PSK = pskFor("player-1", []byte("a key from another match"))
	ccfg.HandshakeTimeout = timeout
	start := time.Now()
	_, err := dial(t, srv, nil, ccfg)
	elapsed := time.Since(start)
	if !errors.Is(err, ErrHandshake) {
		t.Fatalf("Dial with the wrong key: got %v, want ErrHandshake", err)
	}
	// The deadline bounds the failure (a refused key usually fails at once
	// with an alert). Only liveness is asserted: a loaded machine can take
	// several times the deadline, and without one Dial would never return.
	if elapsed > waitLimit {
		t.Fatalf("Dial with the wrong key took %v: the %v deadline does not bound it", elapsed, timeout)
	}
	waitFor(t, srv, "the server counting the failure", func(s connhook.DTLSStats) bool { return s.HandshakeFailures == 1 })
	if s := srv.snapshot(); s.Peers != 0 || s.Handshakes != 0 {
		t.Fatalf("server after a wrong key: got %d peers and %d handshakes, want 0 and 0", s.Peers, s.Handshakes)
	}
	t.Logf("wrong PSK refused after %v (timeout %v): %v", elapsed.Round(time.Millisecond), errors.Is(err, ErrHandshakeTimeout), err)
}

// TestHandshakeTimeout dials a socket that never answers.
func TestHandshakeTimeout(t *testing.T) {
	hello, elapsed, err := captureClientHello(t, 300*time.Millisecond)
	if !errors.Is(err, ErrHandshakeTimeout) || !errors.Is(err, ErrHandshake) {
		t.Fatalf("Dial to a silent server: got %v, want ErrHandshakeTimeout", err)
	}
	if elapsed > waitLimit { // liveness, as in TestWrongPSKFailsWithinDeadline
		t.Fatalf("Dial to a silent server took %v: the 300ms deadline does not bound it", elapsed)
	}
	if len(hello) < 13 || hello[0] != 22 {
		t.Fatalf("first datagram of a client: got %d bytes starting %x, want a handshake record", len(hello), hello[:min(len(hello), 4)])
	}
}

func TestDialContextCancel(t *testing.T) {
	sink, err := net.ListenUDP("udp4", loopback)
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	pc, err := net.ListenUDP("udp4", loopback)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Dial(ctx, pc, sink.LocalAddr(), pskClient())
	if !errors.Is(err, ErrHandshake) || errors.Is(err, ErrHandshakeTimeout) {
		t.Fatalf("Dial with a cancelled context: got %v, want ErrHandshake without a timeout", err)
	}
}

// captureClientHello dials a plain socket that never answers and returns
// the first datagram the client sent, with Dial's duration and error.
func captureClientHello(t *testing.T, timeout time.Duration) ([]byte, time.Duration, error) {
	t.Helper()
	sink, err := net.ListenUDP("udp4", loopback)
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	pc, err := net.ListenUDP("udp4", loopback)
	if err != nil {
		t.Fatal(err)
	}
	cfg := pskClient()
	cfg.HandshakeTimeout = timeout
	start := time.Now()
	_, err = Dial(context.Background(), pc, sink.LocalAddr(), cfg)
	elapsed := time.Since(start)
	sink.SetReadDeadline(time.Now().Add(waitLimit))
	buf := make([]byte, 2048)
	n, rerr := sink.Read(buf)
	if rerr != nil {
		t.Fatalf("reading the ClientHello: %v", rerr)
	}
	return buf[:n], elapsed, err
}

func TestCertificatePinning(t *testing.T) {
	_, _, other := certs(t)
	tests := []struct {
		name          string
		wrongOnClient bool // the client pins another certificate than the server's
		wrongOnServer bool // the server pins another certificate than the client's
	}{
		{"Match", false, false},
		{"ClientRefusesServer", true, false},
		{"ServerRefusesClient", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			scfg, ccfg := certPair(t)
			scfg.HandshakeTimeout, ccfg.HandshakeTimeout = 3*time.Second, 3*time.Second
			if tt.wrongOnClient {
				ccfg.PeerFingerprints = []Fingerprint{FingerprintOf(other)}
			}
			if tt.wrongOnServer {
				scfg.PeerFingerprints = []Fingerprint{FingerprintOf(other)}
			}
			srv := listen(t, scfg)
			cli, err := dial(t, srv, nil, ccfg)
			if !tt.wrongOnClient && !tt.wrongOnServer {
				if err != nil {
					t.Fatalf("Dial with matching pins: %v", err)
				}
				waitFor(t, srv, "the server registering the client", func(s connhook.DTLSStats) bool { return s.Peers == 1 })
				info, ok := srv.Peer(20)
				if !ok || info.Fingerprint != FingerprintOf(*ccfg.Certificate) {
					t.Fatalf("server's Peer(20): got (%x, %v), want the client's fingerprint", info.Fingerprint, ok)
				}
				if info, _ := cli.Peer(10); info.Fingerprint != FingerprintOf(*scfg.Certificate) {
					t.Fatalf("client's Peer(10): got %x, want the server's fingerprint", info.Fingerprint)
				}
				return
			}
			if !errors.Is(err, ErrHandshake) {
				t.Fatalf("Dial with a pin mismatch: got %v, want ErrHandshake", err)
			}
			if tt.wrongOnClient {
				if !errors.Is(err, ErrPinMismatch) || !strings.Contains(err.Error(), FingerprintOf(*scfg.Certificate).String()) {
					t.Fatalf("Dial: got %v, want ErrPinMismatch naming the server's certificate", err)
				}
			}
			waitFor(t, srv, "the server counting the failure", func(s connhook.DTLSStats) bool { return s.HandshakeFailures == 1 })
			if s := srv.snapshot(); s.Peers != 0 {
				t.Fatalf("server after a pin mismatch: got %d peers, want 0", s.Peers)
			}
		})
	}
}

func TestPeerInfoPSK(t *testing.T) {
	srv := listen(t, pskServer())
	cli := dialReady(t, srv, nil, pskClient())
	if err := cli.Send(10, []byte("hi")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 100)
	_, from := recv(t, srv, buf)
	info, ok := srv.Peer(from)
	if !ok || string(info.Identity) != "player-1" || info.Addr == nil {
		t.Fatalf("Peer(%v): got (%+v, %v), want identity \"player-1\" and an address", from, info, ok)
	}
	if err := srv.Forget(from); err != nil {
		t.Fatal(err)
	}
	if _, ok := srv.Peer(from); ok {
		t.Fatal("Peer after Forget: still known")
	}
	waitFor(t, cli, "the client seeing close_notify", func(s connhook.DTLSStats) bool { return s.Peers == 0 })
	if err := srv.Forget(from); !errors.Is(err, transport.ErrUnknownPeer) {
		t.Fatalf("second Forget: got %v, want transport.ErrUnknownPeer", err)
	}
}
