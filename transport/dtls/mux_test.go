package dtls

import (
	"net"
	"testing"
	"time"

	"github.com/rollstep/rollstep/internal/connhook"
)

// TestMuxDropsNonHandshakeSources sends garbage and oversized datagrams
// from many unknown sources: none creates an association slot, and the
// listener keeps serving a real client.
func TestMuxDropsNonHandshakeSources(t *testing.T) {
	srv := listen(t, pskServer())
	for i := range 30 {
		s, err := net.ListenUDP("udp4", loopback)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		p := []byte{23, 0xfe, 0xfd, byte(i)} // application data before any handshake
		if i%2 == 1 {
			p = make([]byte, 9000) // oversized, content type 0
		}
		if _, err := s.WriteTo(p, srv.local); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := dial(t, srv, nil, pskClient()); err != nil {
		t.Fatalf("a real client after garbage: %v", err)
	}
	waitFor(t, srv, "the server registering the client", func(s connhook.DTLSStats) bool { return s.Peers == 1 })
	srv.mux.mu.Lock()
	subconns := len(srv.mux.conns)
	srv.mux.mu.Unlock()
	if subconns != 1 {
		t.Fatalf("subconns after 30 garbage sources and one client: got %d, want 1", subconns)
	}
}

// TestMuxLimit fills the mux's table of sources: further new sources are
// refused or evict an older handshake and are counted, not queued without
// bound, and an evicted handshake's source leaves the table.
func TestMuxLimit(t *testing.T) {
	cfg := pskServer()
	cfg.MaxHandshakes, cfg.MaxPeers = 2, 1 // room for 2*2+1 = 5 sources
	cfg.HandshakeTimeout = 30 * time.Second
	srv := listen(t, cfg)
	sent := attack(t, srv, 10) // 20 handshake records
	waitFor(t, srv, "every source being accepted, refused or evicted", func(s connhook.DTLSStats) bool {
		return uint64(s.HandshakesInFlight)+s.HandshakesRefused+s.HandshakesEvicted >= uint64(sent)
	})
	srv.mux.mu.Lock()
	subconns := len(srv.mux.conns)
	srv.mux.mu.Unlock()
	if subconns > 5 {
		t.Fatalf("subconns: got %d, want at most 5", subconns)
	}
	if s := srv.snapshot(); s.HandshakesInFlight != 2 {
		t.Fatalf("handshakes in flight: got %d, want 2 (the slots)", s.HandshakesInFlight)
	}
}

func TestDeadline(t *testing.T) {
	var d deadline
	if isClosed(d.wait()) {
		t.Fatal("zero deadline: already passed")
	}
	d.set(time.Now().Add(-time.Second))
	if !isClosed(d.wait()) {
		t.Fatal("past deadline: not passed")
	}
	d.set(time.Time{})
	if isClosed(d.wait()) {
		t.Fatal("cleared deadline: still passed")
	}
	w := d.wait()
	d.set(time.Now().Add(time.Hour))
	d.set(time.Now().Add(time.Millisecond)) // a waiter sees a moved deadline
	select {
	case <-w:
	case <-time.After(waitLimit):
		t.Fatal("a 1ms deadline did not pass")
	}
}
