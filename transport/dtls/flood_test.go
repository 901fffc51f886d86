package dtls

import (
	"net"
	"runtime"
	"testing"
	"time"

	"github.com/rollstep/rollstep/internal/connhook"
)

// attacker kinds: what a hostile source sends to a listening Conn.
const (
	sendNothing       = iota // a socket that sends nothing at all
	sendGarbage              // random bytes: no DTLS record
	sendFakeHello            // a handshake-typed record with a garbage body
	sendHalfHandshake        // a real ClientHello, never followed up
	kinds
)

// attacker is the address the attack's sockets bind: another loopback
// address than the real clients' 127.0.0.1, so the per-IP handshake limit
// tells them apart.
var attacker = &net.UDPAddr{IP: net.IPv4(127, 0, 0, 2)}

// attack opens n sockets per kind on the attacker's IP address and sends
// each kind's datagram once. It returns how many sources sent a handshake
// record, which is what reaches the accept loop.
func attack(t *testing.T, srv *Conn, n int) (handshakeRecords int) {
	t.Helper()
	if s, err := net.ListenUDP("udp4", attacker); err != nil {
		t.Skip("cannot bind a second loopback address:", err)
	} else {
		s.Close()
	}
	hello, _, _ := captureClientHello(t, 100*time.Millisecond)
	fake := append([]byte{22, 0xfe, 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 40}, make([]byte, 40)...)
	for i := range fake[13:] {
		fake[13+i] = byte(i * 37)
	}
	garbage := []byte("\x17\x00GET / HTTP/1.1 definitely not dtls")
	to := srv.local
	for kind := range kinds {
		for range n {
			s, err := net.ListenUDP("udp4", attacker)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			var p []byte
			switch kind {
			case sendGarbage:
				p = garbage
			case sendFakeHello:
				p, handshakeRecords = fake, handshakeRecords+1
			case sendHalfHandshake:
				p, handshakeRecords = hello, handshakeRecords+1
			}
			if p != nil {
				if _, err := s.WriteTo(p, to); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return handshakeRecords
}

// TestSilentClientsDoNotBlock has a few silent or half-open clients hold
// handshake slots for a long deadline while a real client connects.
func TestSilentClientsDoNotBlock(t *testing.T) {
	cfg := pskServer()
	cfg.HandshakeTimeout = 30 * time.Second // far longer than the test may take
	cfg.MaxHandshakes = 16
	cfg.MaxHandshakesPerIP = 16 // this test is about the global slots
	srv := listen(t, cfg)
	held := attack(t, srv, 3)
	waitFor(t, srv, "the attackers taking slots", func(s connhook.DTLSStats) bool { return s.HandshakesInFlight == held })

	ccfg := pskClient()
	ccfg.HandshakeTimeout = 5 * time.Second
	start := time.Now()
	if _, err := dial(t, srv, nil, ccfg); err != nil {
		t.Fatalf("a real client with %d silent ones holding slots: %v", held, err)
	}
	t.Logf("real client connected in %v with %d silent clients mid-handshake", time.Since(start).Round(time.Millisecond), held)
	waitFor(t, srv, "the server registering the client", func(s connhook.DTLSStats) bool { return s.Peers == 1 })
	if s := srv.snapshot(); s.HandshakesInFlight != held {
		t.Fatalf("the silent clients' handshakes: got %d in flight, want %d still waiting", s.HandshakesInFlight, held)
	}
}

// TestFloodBoundsGoroutines sends more half-open handshakes than there are
// slots. The excess is refused at once, the goroutine count stays bounded,
// a real client still connects once the short deadline frees slots, and
// everything the attack started is gone afterwards.
func TestFloodBoundsGoroutines(t *testing.T) {
	const slots = 8
	cfg := pskServer()
	cfg.HandshakeTimeout = 500 * time.Millisecond
	cfg.MaxHandshakes = slots
	cfg.MaxHandshakesPerIP = slots
	srv := listen(t, cfg)
	before := runtime.NumGoroutine()

	sent := attack(t, srv, 25) // 50 handshake records for 8 slots
	waitFor(t, srv, "every attacker being accepted, refused or evicted", func(s connhook.DTLSStats) bool {
		return uint64(s.HandshakesInFlight)+s.HandshakesRefused+s.HandshakesEvicted+s.HandshakeFailures >= uint64(sent)
	})
	during := runtime.NumGoroutine()
	// Each handshake in flight costs our goroutine plus pion's; 6 per slot
	// is a generous bound, against about 3 per source without the cap.
	if limit := before + 6*slots + 10; during > limit {
		t.Fatalf("goroutines during the flood: got %d, want at most %d (%d before)", during, limit, before)
	}
	if s := srv.snapshot(); s.HandshakesEvicted == 0 || s.HandshakesInFlight > slots {
		t.Fatalf("with %d handshakes for %d slots: %d evicted, %d in flight; want some evicted, at most %d in flight",
			sent, slots, s.HandshakesEvicted, s.HandshakesInFlight, slots)
	}

	ccfg := pskClient()
	ccfg.HandshakeTimeout = 10 * time.Second
	start := time.Now()
	if _, err := dial(t, srv, nil, ccfg); err != nil {
		t.Fatalf("a real client after the flood: %v", err)
	}
	t.Logf("goroutines: %d before, %d during the flood of %d; real client connected in %v", before, during, sent, time.Since(start).Round(time.Millisecond))

	waitFor(t, srv, "the flood's handshakes timing out", func(s connhook.DTLSStats) bool { return s.HandshakesInFlight == 0 })
	// The one real association adds its reader and pion's goroutines.
	deadline := time.Now().Add(waitLimit)
	for runtime.NumGoroutine() > before+10 && time.Now().Before(deadline) {
		<-time.After(5 * time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before+10 {
		t.Fatalf("goroutines after the flood: got %d, want at most %d", after, before+10)
	}
}

// TestNoAmplification checks that a listening Conn answers a ClientHello
// from an unvalidated address with fewer bytes than it received: the
// stateless cookie exchange (RFC 6347 §4.2.1).
func TestNoAmplification(t *testing.T) {
	srv := listen(t, pskServer())
	hello, _, _ := captureClientHello(t, 100*time.Millisecond)
	s, err := net.ListenUDP("udp4", loopback)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.WriteTo(hello, srv.local); err != nil {
		t.Fatal(err)
	}
	s.SetReadDeadline(time.Now().Add(waitLimit))
	buf := make([]byte, 2048)
	n, err := s.Read(buf)
	if err != nil {
		t.Fatalf("reading the reply: %v", err)
	}
	if n >= len(hello) {
		t.Fatalf("reply to a %d-byte ClientHello: got %d bytes, want fewer", len(hello), n)
	}
}

// TestHandshakesPerIPLimit has one host open more half-open handshakes
// than MaxHandshakesPerIP while slots remain: each handshake beyond its
// share evicts the host's oldest (none of them answered the cookie), the
// host holds no more than its share, and a real client from another
// address connects.
func TestHandshakesPerIPLimit(t *testing.T) {
	cfg := pskServer()
	cfg.HandshakeTimeout = 30 * time.Second // far longer than the test may take
	cfg.MaxHandshakes = 16
	cfg.MaxHandshakesPerIP = 3
	srv := listen(t, cfg)
	sent := attack(t, srv, 4) // 8 handshake records from one IP address
	waitFor(t, srv, "every attacker being accepted or evicted", func(s connhook.DTLSStats) bool {
		return uint64(s.HandshakesInFlight)+s.HandshakesEvicted >= uint64(sent)
	})
	s := srv.snapshot()
	if s.HandshakesInFlight != 3 || s.HandshakesEvicted != uint64(sent-3) || s.HandshakesRefused != 0 {
		t.Fatalf("%d handshakes from one IP with a limit of 3: %d in flight, %d evicted, %d refused; want 3, %d, 0",
			sent, s.HandshakesInFlight, s.HandshakesEvicted, s.HandshakesRefused, sent-3)
	}
	ccfg := pskClient()
	ccfg.HandshakeTimeout = 5 * time.Second
	if _, err := dial(t, srv, nil, ccfg); err != nil {
		t.Fatalf("a real client from another address: %v", err)
	}
	waitFor(t, srv, "the server registering the client", func(s connhook.DTLSStats) bool { return s.Peers == 1 })
}

// TestSpoofedFloodCannotKeepClientsOut: spoofed ClientHellos never echo
// the server's cookie, so however many keep coming they cannot hold the
// slots a real client needs. Before handshakes could be evicted, 16
// ClientHellos from 4 addresses every handshake timeout kept every client
// out; here a flood fills every slot, from three other IP addresses and
// the client's own, and keeps coming at 1,000
// ClientHellos a second while a real client dials, which connects long
// before the flood's handshakes would time out.
func TestSpoofedFloodCannotKeepClientsOut(t *testing.T) {
	cfg := pskServer()
	cfg.HandshakeTimeout = 30 * time.Second // far longer than the test may take
	srv := listen(t, cfg)
	hello, _, _ := captureClientHello(t, 100*time.Millisecond)
	var socks []*net.UDPConn
	// Three other addresses fill 12 of the 16 slots, the client's own
	// its 4.
	for _, ip := range []net.IP{attacker.IP, net.IPv4(127, 0, 0, 3), net.IPv4(127, 0, 0, 4), loopback.IP} {
		for range 2 * defaultMaxHandshakesPerIP {
			s, err := net.ListenUDP("udp4", &net.UDPAddr{IP: ip})
			if err != nil {
				t.Skip("cannot bind a second loopback address:", err)
			}
			t.Cleanup(func() { s.Close() })
			socks = append(socks, s)
		}
	}
	fill := time.NewTicker(time.Millisecond) // at the pace of the accept loop
	for _, s := range socks {
		_, _ = s.WriteTo(hello, srv.local)
		<-fill.C
	}
	fill.Stop()
	waitFor(t, srv, "the flood taking every slot", func(s connhook.DTLSStats) bool { return s.HandshakesInFlight == defaultMaxHandshakes })

	dialed := make(chan error, 1)
	go func() {
		ccfg := pskClient()
		ccfg.HandshakeTimeout = 5 * time.Second
		_, err := dial(t, srv, nil, ccfg)
		dialed <- err
	}()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case err := <-dialed:
			if err != nil {
				t.Fatalf("a real client during the flood: %v; stats %+v", err, srv.snapshot())
			}
			s := srv.snapshot()
			t.Logf("connected after %d spoofed ClientHellos; %d handshakes evicted, %d refused", len(socks)+i, s.HandshakesEvicted, s.HandshakesRefused)
			if s.HandshakesEvicted == 0 {
				t.Fatal("no handshake was evicted")
			}
			return
		case <-tick.C:
			_, _ = socks[i%len(socks)].WriteTo(hello, srv.local)
		}
	}
}
