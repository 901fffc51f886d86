package udp

import (
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"

	"github.com/rollstep/rollstep/transport"
)

func TestHostileOversized(t *testing.T) {
	// A Conn cannot send more than MaxDatagram, so a plain socket that b
	// knows as peer 1 sends the oversized datagrams, then a fine one.
	raw := listen(t)
	defer raw.Close()
	b, err := New(listen(t), Config{Peers: []Peer{{ID: 1, Addr: addrOf(raw)}}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	to := net.UDPAddrFromAddrPort(addrOf(b.pc.(*net.UDPConn)))
	for _, size := range []int{transport.MaxDatagram + 1, 1500, 9000, 65000} {
		if _, err := raw.WriteToUDP(make([]byte, size), to); err != nil {
			t.Fatalf("WriteToUDP(%d bytes): %v", size, err)
		}
	}
	if _, err := raw.WriteToUDP([]byte("fine"), to); err != nil {
		t.Fatal(err)
	}
	waitArrived(t, b, 5)
	if got, from := recv(t, b); string(got) != "fine" || from != 1 {
		t.Fatalf("got (%q from %v), want (\"fine\" from peer 1)", got, from)
	}
	if got := b.snapshot(); got.DroppedOversize != 4 || got.DatagramsIn != 1 {
		t.Fatalf("stats: got DroppedOversize=%d DatagramsIn=%d, want 4 and 1", got.DroppedOversize, got.DatagramsIn)
	}
}

func TestHostileUnknownSources(t *testing.T) {
	// 20 sources send 2 datagrams each. A closed Conn drops all 40; one
	// that accepts at most 3 provisional peers delivers all 40, each
	// source under its own Addr, evicting the oldest peer for each new
	// source beyond the third.
	tests := []struct {
		name                           string
		cfg                            Config
		wantDelivered, wantProvisional int
		wantDropped, wantEvicted       uint64
	}{
		{"Closed", Config{}, 0, 0, 40, 0},
		{"AcceptUnknownCapped", Config{AcceptUnknown: true, MaxUnknown: 3}, 20, 3, 0, 17},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, b := newPair(t, Config{}, tt.cfg)
			to := net.UDPAddrFromAddrPort(addrOf(b.pc.(*net.UDPConn)))
			const sources = 20
			for i := range sources {
				s := listen(t)
				defer s.Close()
				for range 2 {
					if _, err := s.WriteToUDP([]byte{byte(i)}, to); err != nil {
						t.Fatal(err)
					}
				}
			}
			waitArrived(t, b, 2*sources)
			st := b.snapshot()
			if st.DroppedUnknown != tt.wantDropped || st.EvictedUnknown != tt.wantEvicted || st.Provisional != tt.wantProvisional {
				t.Fatalf("DroppedUnknown %d, EvictedUnknown %d, Provisional %d; want %d, %d, %d",
					st.DroppedUnknown, st.EvictedUnknown, st.Provisional, tt.wantDropped, tt.wantEvicted, tt.wantProvisional)
			}
			seen := map[transport.Addr]int{}
			buf := make([]byte, transport.MaxDatagram)
			for {
				_, from, ok, err := b.Receive(buf)
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					break
				}
				if from == 1 {
					t.Fatal("a datagram from an unknown source was reported as the static peer 1")
				}
				seen[from]++
			}
			if len(seen) != tt.wantDelivered {
				t.Fatalf("distinct provisional senders: got %d, want %d", len(seen), tt.wantDelivered)
			}
		})
	}
}

func TestHostileQueueFull(t *testing.T) {
	a, b := newPair(t, Config{}, Config{QueueLen: 4})
	for i := range 10 {
		if err := a.Send(2, []byte{byte(i)}); err != nil {
			t.Fatal(err)
		}
	}
	waitArrived(t, b, 10)
	if got := b.snapshot(); got.DroppedFull != 6 || got.Queued != 4 {
		t.Fatalf("got DroppedFull=%d Queued=%d, want 6 and 4", got.DroppedFull, got.Queued)
	}
	for want := byte(6); want < 10; want++ { // drop-oldest keeps the newest
		if got, _ := recv(t, b); len(got) != 1 || got[0] != want {
			t.Fatalf("got %v, want [%d]", got, want)
		}
	}
}

func TestReaderStopsWhenSocketClosedUnderneath(t *testing.T) {
	_, b := newPair(t, Config{reader: true}, Config{reader: true})
	b.pc.Close()
	<-b.done
	_, _, ok, err := b.Receive(make([]byte, 10))
	if ok || !errors.Is(err, transport.ErrClosed) || !errors.Is(err, net.ErrClosed) || !strings.Contains(err.Error(), "udp reader stopped") {
		t.Fatalf("Receive: got (ok=%v, err=%v), want transport.ErrClosed wrapping net.ErrClosed", ok, err)
	}
	// The Conn stays unusable: every later Receive says so.
	if _, _, _, err := b.Receive(make([]byte, 10)); !errors.Is(err, transport.ErrClosed) {
		t.Fatalf("second Receive: got %v, want transport.ErrClosed", err)
	}
	if err := b.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

func TestNewInvalidConfig(t *testing.T) {
	good := listen(t)
	defer good.Close()
	addr := addrOf(good)
	tests := []struct {
		name  string
		cfg   Config
		field string
	}{
		{"NegativeQueue", Config{QueueLen: -1}, "QueueLen"},
		{"NegativeMaxUnknown", Config{MaxUnknown: -1}, "MaxUnknown"},
		{"ZeroPort", Config{Peers: []Peer{{ID: 1, Addr: netip.AddrPortFrom(addr.Addr(), 0)}}}, "Peers[0].Addr"},
		{"NoIP", Config{Peers: []Peer{{ID: 1, Addr: netip.AddrPortFrom(netip.Addr{}, 9)}}}, "Peers[0].Addr"},
		{"DuplicateUnboundID", Config{Peers: []Peer{{1, addr}, {ID: 1}}}, "Peers[1].ID"},
		{"DuplicateID", Config{Peers: []Peer{{1, addr}, {1, addr}}}, "Peers[1].ID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(tt.cfg.Peers)
			pc := listen(t)
			_, err := New(pc, tt.cfg)
			var ce *transport.ConfigError
			if !errors.As(err, &ce) || !errors.Is(err, transport.ErrInvalidConfig) || ce.Field != "udp.Config."+tt.field {
				t.Fatalf("New: got %v, want a *transport.ConfigError for udp.Config.%s", err, tt.field)
			}
			if len(tt.cfg.Peers) != before {
				t.Fatal("New modified the caller's Config")
			}
			if _, err := pc.WriteTo([]byte("x"), pc.LocalAddr()); !errors.Is(err, net.ErrClosed) {
				t.Fatalf("the socket after a failed New: got %v, want it closed", err)
			}
		})
	}
}
