package endpoint

import (
	"slices"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
)

// strangerAddr is the transport address from which the scripted Hellos of the
// first-contact tests arrive: a provisional peer of the Conn.
const strangerAddr transport.Addr = 7

// firstContact returns an endpoint over a rebindConn with peers at the
// given transport addresses, ticked once at 0 (so its Hellos are out), and
// a function that encodes a Hello with nonce and the sequence number seq.
func firstContact(t *testing.T, peers ...transport.Addr) (*Endpoint[slotInput], *rebindConn, func(nonce, seq uint64) []byte) {
	t.Helper()
	cfg := testConfig(t, len(peers)+1, 1)
	conn := &rebindConn{forgetConn: forgetConn{scriptConn: scriptConn{from: strangerAddr}}}
	ep, err := New[slotInput](cfg, conn, peers)
	if err != nil {
		t.Fatal(err)
	}
	mustNil(t, ep.Tick(0))
	conn.sent = nil
	hello := func(nonce, seq uint64) []byte {
		h := wire.Hello{Protocol: wire.Protocol, Nonce: nonce, Config: cfg.Digest}
		p, err := wire.AppendHello(nil, testKey, seq, &h)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	return ep, conn, hello
}

// deliver polls ep at now ms with datagrams ps arriving from address
// from.
func deliver(t *testing.T, ep *Endpoint[slotInput], conn *rebindConn, from transport.Addr, now time.Duration, ps ...[]byte) {
	t.Helper()
	conn.from, conn.queue = from, ps
	mustPoll(t)(ep.Poll(now*ms, nil))
}

// TestFirstContact: a host that does not know its only peer's address
// adopts the address of the first Hello of the match, from a provisional
// peer, and completes the handshake there.
func TestFirstContact(t *testing.T) {
	ep, conn, hello := firstContact(t, 1)
	deliver(t, ep, conn, strangerAddr, 10, hello(99, 0))
	if want := [][2]transport.Addr{{1, strangerAddr}}; !slices.Equal(conn.rebinds, want) {
		t.Fatalf("rebinds = %v, want %v", conn.rebinds, want)
	}
	if len(conn.sent) != 1 || len(conn.forgot) != 0 {
		t.Fatalf("answered %d datagrams, forgot %v; want 1 HelloReply and nothing forgotten", len(conn.sent), conn.forgot)
	}
	s, _ := ep.Peer(0)
	if s.FirstContacts != 1 || s.Rebinds != 0 || s.RepliesSent != 1 || !s.Heard {
		t.Errorf("FirstContacts %d, Rebinds %d, RepliesSent %d, Heard %v; want 1, 0, 1, true",
			s.FirstContacts, s.Rebinds, s.RepliesSent, s.Heard)
	}
	// The Conn now delivers the peer's datagrams under its own PeerID: its
	// answer to our Hello completes the handshake.
	reply := wire.HelloReply{Status: wire.ReplyAccept, Protocol: wire.Protocol, Nonce: ep.peers[0].nonce, Config: ep.Config().Digest}
	p, _ := wire.AppendHelloReply(nil, testKey, 1, &reply)
	deliver(t, ep, conn, 1, 20, p)
	if ep.State(0) != StateConnected {
		t.Fatalf("state %v, want connected", ep.State(0))
	}
	// Another Hello of the match from another stranger finds nobody
	// waiting: only the nonce rule could move the peer now.
	conn.sent = nil
	deliver(t, ep, conn, strangerAddr+1, 30, hello(100, 2))
	if len(conn.rebinds) != 1 || len(conn.sent) != 0 {
		t.Errorf("a second stranger: rebinds %v, %d answers; want the first rebind only, none", conn.rebinds, len(conn.sent))
	}
	if st := ep.Stats(); st.Ambiguous != 0 {
		t.Errorf("Ambiguous = %d, want 0", st.Ambiguous)
	}
}

// TestFirstContactAmbiguous: with two peers waiting for a first Hello, a
// stranger's Hello could be either's, so it is dropped and counted; once
// the other peer's Hello has come from its known address, the stranger's
// next Hello is a first contact.
func TestFirstContactAmbiguous(t *testing.T) {
	ep, conn, hello := firstContact(t, 1, 2)
	deliver(t, ep, conn, strangerAddr, 10, hello(55, 0))
	if len(conn.rebinds) != 0 || len(conn.sent) != 0 {
		t.Fatalf("ambiguous Hello: rebinds %v, %d answers; want none", conn.rebinds, len(conn.sent))
	}
	if st := ep.Stats(); st.Ambiguous != 1 || st.Unknown != 1 {
		t.Fatalf("Ambiguous %d, Unknown %d; want 1, 1", st.Ambiguous, st.Unknown)
	}
	for p := range 2 {
		if s, _ := ep.Peer(core.PeerID(p)); s.FirstContacts != 0 || s.Heard {
			t.Errorf("peer %d: FirstContacts %d, Heard %v after an ambiguous Hello", p, s.FirstContacts, s.Heard)
		}
	}
	// Peer 0 (address 1) says Hello from where it was expected.
	deliver(t, ep, conn, 1, 20, hello(11, 0))
	// The stranger repeats its Hello: only peer 1 (address 2) waits now.
	deliver(t, ep, conn, strangerAddr, 110, hello(55, 1))
	if want := [][2]transport.Addr{{2, strangerAddr}}; !slices.Equal(conn.rebinds, want) {
		t.Fatalf("rebinds = %v, want %v", conn.rebinds, want)
	}
	if s, _ := ep.Peer(1); s.FirstContacts != 1 || !s.Heard {
		t.Errorf("peer 1: FirstContacts %d, Heard %v; want 1, true", s.FirstContacts, s.Heard)
	}
	if st := ep.Stats(); st.Ambiguous != 1 {
		t.Errorf("Ambiguous = %d, want 1", st.Ambiguous)
	}
}

// TestFirstContactHostile: nothing but a Hello of this match (the token's
// tag, this protocol and configuration digest, a nonce no peer uses)
// adopts an address; nothing else from a stranger is answered, and every
// stranger not adopted is forgotten, tag or no tag, so that replays of
// the match's own packets cannot fill the Conn's provisional slots.
func TestFirstContactHostile(t *testing.T) {
	other := testConfig(t, 3, 1).Digest // a 3-player match: another digest
	forged := func(key wire.Key, mod func(*wire.Hello)) []byte {
		h := wire.Hello{Protocol: wire.Protocol, Nonce: 5, Config: testDigest(t, 2)}
		mod(&h)
		p, err := wire.AppendHello(nil, key, 0, &h)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name   string
		p      []byte
		forget bool // the Conn is told to forget the stranger
	}{
		{"wrong token", forged(wire.NewKey(testToken+1), func(*wire.Hello) {}), true},
		{"wrong digest", forged(testKey, func(h *wire.Hello) { h.Config = other }), true},
		{"wrong protocol", forged(testKey, func(h *wire.Hello) { h.Protocol++ }), true},
		{"garbage", []byte("hello, I am your peer"), true},
		// A packet of the match, but no Hello: never a first contact.
		{"input packet", inputPacket(t, testToken, 40, 1), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ep, conn, _ := firstContact(t, 1)
			deliver(t, ep, conn, strangerAddr, 10, tc.p)
			if len(conn.rebinds) != 0 || len(conn.sent) != 0 {
				t.Errorf("rebinds %v, %d answers; want none", conn.rebinds, len(conn.sent))
			}
			if forgot := slices.Equal(conn.forgot, []transport.Addr{strangerAddr}); forgot != tc.forget {
				t.Errorf("forgot %v, want forgotten %v", conn.forgot, tc.forget)
			}
			s, _ := ep.Peer(0)
			if s.FirstContacts != 0 || s.Heard || s.State != StateHandshaking {
				t.Errorf("FirstContacts %d, Heard %v, state %v; want 0, false, handshaking", s.FirstContacts, s.Heard, s.State)
			}
		})
	}
	t.Run("nonce of a handshaking peer", func(t *testing.T) {
		// Peer 0's Hello arrived from its address; the same Hello from a
		// stranger is not a first contact of the waiting peer 1.
		ep, conn, hello := firstContact(t, 1, 2)
		deliver(t, ep, conn, 1, 10, hello(11, 0))
		conn.sent = nil
		deliver(t, ep, conn, strangerAddr, 20, hello(11, 1))
		if len(conn.rebinds) != 0 || len(conn.sent) != 0 {
			t.Errorf("rebinds %v, %d answers; want none", conn.rebinds, len(conn.sent))
		}
	})
	t.Run("no Rebinder", func(t *testing.T) {
		conn := &scriptConn{from: strangerAddr}
		cfg := testConfig(t, 2, 1)
		ep, err := New[slotInput](cfg, conn, []transport.Addr{1})
		if err != nil {
			t.Fatal(err)
		}
		h := wire.Hello{Protocol: wire.Protocol, Nonce: 5, Config: cfg.Digest}
		conn.queue = [][]byte{must(wire.AppendHello(nil, testKey, 0, &h))}
		mustPoll(t)(ep.Poll(0, nil))
		if s, _ := ep.Peer(0); len(conn.sent) != 0 || s.FirstContacts != 0 {
			t.Errorf("%d answers, FirstContacts %d over a Conn that cannot rebind; want 0, 0", len(conn.sent), s.FirstContacts)
		}
	})
}

// must returns v, ignoring err: for encoders of valid values.
func must[T any](v T, _ error) T { return v }
