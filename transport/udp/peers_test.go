package udp

import (
	"errors"
	"net"
	"testing"
	"time"

	"github.com/rollstep/rollstep/internal/connhook"
	"github.com/rollstep/rollstep/transport"
)

// rawSend sends p from socket s to c's address.
func rawSend(t *testing.T, s *net.UDPConn, c *Conn, p string) {
	t.Helper()
	if _, err := s.WriteToUDPAddrPort([]byte(p), addrOf(c.udp)); err != nil {
		t.Fatal(err)
	}
}

// rawRecv reads one datagram from s, failing the test after 5 s.
func rawRecv(t *testing.T, s *net.UDPConn) string {
	t.Helper()
	s.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 2000)
	n, err := s.Read(buf)
	if err != nil {
		t.Fatalf("raw read: %v", err)
	}
	return string(buf[:n])
}

func expectFrom(t *testing.T, c *Conn, wantData string, wantFrom transport.Addr) {
	t.Helper()
	if got, from := recv(t, c); string(got) != wantData || from != wantFrom {
		t.Fatalf("got (%q from %v), want (%q from %v)", got, from, wantData, wantFrom)
	}
}

// TestProvisionalLifecycle walks the hooks the endpoint uses: an unknown
// source arrives under a provisional ID, is forgotten or confirmed, and a
// static peer whose NAT mapping changed is rebound to its new address.
func TestProvisionalLifecycle(t *testing.T) {
	a, b := newPair(t, Config{}, Config{AcceptUnknown: true, MaxUnknown: 1, FirstUnknown: 100})
	s1, s2, s3 := listen(t), listen(t), listen(t)
	defer s1.Close()
	defer s2.Close()
	defer s3.Close()

	rawSend(t, s1, b, "x")
	expectFrom(t, b, "x", 100)
	// Over the cap of one provisional peer: the oldest, 100, makes room.
	rawSend(t, s2, b, "y")
	expectFrom(t, b, "y", 101)
	if st := b.snapshot(); st.Provisional != 1 || st.EvictedUnknown != 1 || st.DroppedUnknown != 0 {
		t.Fatalf("got Provisional=%d EvictedUnknown=%d DroppedUnknown=%d, want 1, 1 and 0", st.Provisional, st.EvictedUnknown, st.DroppedUnknown)
	}
	if _, ok := b.peerAddr(100); ok {
		t.Fatal("Addr(100): the evicted provisional peer still exists")
	}
	// The endpoint finds a bad token on peer 101 and forgets it; its
	// address comes back under a new Addr.
	if err := b.forget(101); err != nil {
		t.Fatal(err)
	}
	rawSend(t, s2, b, "y2")
	expectFrom(t, b, "y2", 102)
	// A good token: peer 102 is confirmed and no longer counts.
	if err := b.confirm(102); err != nil {
		t.Fatal(err)
	}
	if err := b.Send(102, []byte("welcome")); err != nil {
		t.Fatal(err)
	}
	if got := rawRecv(t, s2); got != "welcome" {
		t.Fatalf("s2 got %q, want \"welcome\"", got)
	}

	// Peer 1's NAT mapping changes: its datagrams now come from s3, under a
	// provisional ID, until the endpoint sees peer 1's token and rebinds.
	rawSend(t, s3, b, "moved")
	expectFrom(t, b, "moved", 103)
	if err := b.rebind(1, 103); err != nil {
		t.Fatal(err)
	}
	if got, _ := b.peerAddr(1); got != addrOf(s3) {
		t.Fatalf("Addr(1): got %v, want %v", got, addrOf(s3))
	}
	if _, ok := b.peerAddr(103); ok {
		t.Fatal("Addr(103): the rebound provisional peer still exists")
	}
	if err := b.Send(1, []byte("to new addr")); err != nil {
		t.Fatal(err)
	}
	if got := rawRecv(t, s3); got != "to new addr" {
		t.Fatalf("s3 got %q, want \"to new addr\"", got)
	}
	// The old address is now a stranger.
	if err := a.Send(2, []byte("old")); err != nil {
		t.Fatal(err)
	}
	expectFrom(t, b, "old", 104)
}

func TestPeerHookErrors(t *testing.T) {
	_, b := newPair(t, Config{}, Config{})
	other := listen(t)
	defer other.Close()
	for name, err := range map[string]error{
		"Confirm":     b.confirm(7),
		"Forget":      b.forget(7),
		"RebindTo":    b.rebind(7, 1),
		"RebindFrom":  b.rebind(1, 7),
		"SendUnknown": b.Send(7, nil),
	} {
		if !errors.Is(err, transport.ErrUnknownPeer) || err.Error() != "transport: unknown peer 7" {
			t.Errorf("%s: got %v, want ErrUnknownPeer for peer 7", name, err)
		}
	}
	aAddr, _ := b.peerAddr(1)
	if err := b.bind(5, aAddr); !errors.Is(err, errAddrInUse) {
		t.Errorf("bind to a used address: got %v, want errAddrInUse", err)
	}
	if err := b.bind(5, addrOf(other)); err != nil {
		t.Errorf("bind(5): %v", err)
	}
	if err := b.bind(5, addrOf(other)); err != nil {
		t.Errorf("bind(5) again to the same address: %v", err)
	}
	b.Close()
	for name, err := range map[string]error{
		"Bind":    b.bind(6, addrOf(other)),
		"Confirm": b.confirm(1),
		"Rebind":  b.rebind(1, 5),
		"Forget":  b.forget(1),
	} {
		if !errors.Is(err, transport.ErrClosed) {
			t.Errorf("%s after Close: got %v, want ErrClosed", name, err)
		}
	}
}

// TestUnboundPeer walks peers whose address is unknown at New (the zero
// Addr): a send to one is dropped without an error, the first datagram
// from a new address arrives under a provisional ID, and rebind gives the
// peer that address, as the session's endpoint does at first contact; a
// second unbound peer gets its address from bind.
func TestUnboundPeer(t *testing.T) {
	b, err := New(listen(t), Config{Peers: []Peer{{ID: 1}, {ID: 2}}, AcceptUnknown: true, FirstUnknown: 100})
	if err != nil {
		t.Fatalf("New with unbound peers: %v", err)
	}
	t.Cleanup(func() { b.Close() })
	if addr, ok := b.peerAddr(1); !ok || addr.IsValid() {
		t.Fatalf("Addr(1) = %v, %v; want the zero address, true", addr, ok)
	}
	if err := b.Send(1, []byte("lost")); err != nil {
		t.Fatalf("Send to an unbound peer: %v, want nil", err)
	}
	if st := b.snapshot(); st.DroppedUnbound != 1 || st.DatagramsOut != 0 || st.WriteErrors != 0 {
		t.Fatalf("after a send to an unbound peer: DroppedUnbound %d, DatagramsOut %d, WriteErrors %d; want 1, 0, 0",
			st.DroppedUnbound, st.DatagramsOut, st.WriteErrors)
	}

	// First contact: the client's Hello arrives under provisional peer 100,
	// and the endpoint adopts its address for peer 1.
	s1 := listen(t)
	defer s1.Close()
	rawSend(t, s1, b, "hello")
	expectFrom(t, b, "hello", 100)
	if err := b.rebind(1, 100); err != nil {
		t.Fatalf("rebind(1, 100): %v", err)
	}
	if got, _ := b.peerAddr(1); got != addrOf(s1) {
		t.Fatalf("Addr(1) = %v, want %v", got, addrOf(s1))
	}
	if st := b.snapshot(); st.Provisional != 0 {
		t.Fatalf("Provisional = %d after the rebind, want 0", st.Provisional)
	}
	if err := b.Send(1, []byte("welcome")); err != nil {
		t.Fatal(err)
	}
	if got := rawRecv(t, s1); got != "welcome" {
		t.Fatalf("s1 got %q, want \"welcome\"", got)
	}
	rawSend(t, s1, b, "again")
	expectFrom(t, b, "again", 1)

	// Peer 2 is still unbound; a matchmaker's answer binds it.
	s2 := listen(t)
	defer s2.Close()
	if err := b.bind(2, addrOf(s2)); err != nil {
		t.Fatalf("bind(2): %v", err)
	}
	if err := b.Send(2, []byte("hi")); err != nil {
		t.Fatal(err)
	}
	if got := rawRecv(t, s2); got != "hi" {
		t.Fatalf("s2 got %q, want \"hi\"", got)
	}
	if st := b.snapshot(); st.DroppedUnbound != 1 {
		t.Errorf("DroppedUnbound = %d, want 1", st.DroppedUnbound)
	}
}

// TestOrphanedProvisionalPeers: provisional peers that nobody confirms or
// forgets (their datagrams were dropped from a full queue, or replayed by
// an attacker and never handled) do not keep a new source out. Before
// provisional peers were evicted oldest first, eight such datagrams from
// eight ports filled the default table for good and every later new
// source, a joining player among them, was dropped.
func TestOrphanedProvisionalPeers(t *testing.T) {
	const orphans = 8
	_, b := newPair(t, Config{}, Config{AcceptUnknown: true, MaxUnknown: orphans, QueueLen: 2})
	for range orphans {
		s := listen(t)
		defer s.Close()
		rawSend(t, s, b, "replayed")
	}
	waitArrived(t, b, orphans)
	player := listen(t)
	defer player.Close()
	rawSend(t, player, b, "hello")
	waitArrived(t, b, orphans+1)
	st := b.snapshot()
	if st.DroppedUnknown != 0 || st.EvictedUnknown != 1 || st.Provisional != orphans {
		t.Fatalf("DroppedUnknown %d, EvictedUnknown %d, Provisional %d; want 0, 1, %d", st.DroppedUnknown, st.EvictedUnknown, st.Provisional, orphans)
	}
	// The queue of 2 dropped the orphans' datagrams; the player's is there.
	buf := make([]byte, transport.MaxDatagram)
	var got []string
	for {
		n, _, ok, err := b.Receive(buf)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		got = append(got, string(buf[:n]))
	}
	if len(got) == 0 || got[len(got)-1] != "hello" {
		t.Fatalf("queued %q, want the player's hello last", got)
	}
}

// TestPeersHook checks the peer table that internal/connhook hands the
// session's endpoint: its Forget and Rebind are the Conn's.
func TestPeersHook(t *testing.T) {
	_, b := newPair(t, Config{}, Config{AcceptUnknown: true, FirstUnknown: 100})
	p, ok := connhook.UDPPeers(b)
	if !ok {
		t.Fatal("UDPPeers(*Conn): not ok")
	}
	if _, ok := connhook.UDPPeers(struct{ transport.Conn }{b}); ok {
		t.Fatal("UDPPeers of another Conn type: ok")
	}
	s1, s2 := listen(t), listen(t)
	defer s1.Close()
	defer s2.Close()
	rawSend(t, s1, b, "x")
	expectFrom(t, b, "x", 100)
	if err := p.Forget(100); err != nil {
		t.Fatalf("Forget(100): %v", err)
	}
	if _, ok := b.peerAddr(100); ok {
		t.Fatal("peer 100 is still known after Forget")
	}
	rawSend(t, s2, b, "y")
	expectFrom(t, b, "y", 101)
	if err := p.Rebind(1, 101); err != nil {
		t.Fatalf("Rebind(1, 101): %v", err)
	}
	if got, _ := b.peerAddr(1); got != addrOf(s2) {
		t.Fatalf("peer 1 at %v after Rebind, want %v", got, addrOf(s2))
	}
	if err := p.Forget(7); !errors.Is(err, transport.ErrUnknownPeer) {
		t.Fatalf("Forget(7): got %v, want ErrUnknownPeer", err)
	}
}
