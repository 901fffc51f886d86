package endpoint

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
)

// seated returns an endpoint of seat 0 in a 4-player match over a
// rebindConn, with peers of seats 1..3 at transport addresses 1..3 (none
// of which ever sends: the host does not know their addresses), ticked
// once at 0, and a function that encodes a Hello naming seat with nonce
// and sequence number seq.
func seated(t *testing.T, seats ...wire.Seat) (*Endpoint[slotInput], *rebindConn, func(seat wire.Seat, nonce, seq uint64) []byte) {
	t.Helper()
	if seats == nil {
		seats = []wire.Seat{wire.SeatOf(1), wire.SeatOf(2), wire.SeatOf(3)}
	}
	cfg := testConfig(t, 4, 1)
	cfg.Seat, cfg.Seats = wire.SeatOf(0), seats
	conn := &rebindConn{forgetConn: forgetConn{scriptConn: scriptConn{from: strangerAddr}}}
	peers := make([]transport.Addr, len(seats))
	for i := range peers {
		peers[i] = transport.Addr(i + 1)
	}
	ep, err := New[slotInput](cfg, conn, peers)
	if err != nil {
		t.Fatal(err)
	}
	mustNil(t, ep.Tick(0))
	conn.sent = nil
	hello := func(seat wire.Seat, nonce, seq uint64) []byte {
		h := wire.Hello{Protocol: wire.Protocol, Nonce: nonce, Config: cfg.Digest, Seat: seat}
		p, err := wire.AppendHello(nil, testKey, seq, &h)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	return ep, conn, hello
}

// TestFirstContactSeats: a host that knows none of its three peers'
// addresses adopts each from the Hello naming its seat, whatever order
// the Hellos arrive in, each from its own provisional address.
func TestFirstContactSeats(t *testing.T) {
	for _, order := range [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}} {
		t.Run(fmt.Sprint(order), func(t *testing.T) {
			ep, conn, hello := seated(t)
			for k, i := range order {
				// Peer i (transport address i+1, seat of player i+1) says
				// Hello from provisional address strangerAddr+i, with
				// nonce 100+i.
				from := strangerAddr + transport.Addr(i)
				deliver(t, ep, conn, from, time.Duration(10+10*k), hello(wire.SeatOf(core.PlayerHandle(i+1)), uint64(100+i), 0))
			}
			var want [][2]transport.Addr
			for _, i := range order {
				want = append(want, [2]transport.Addr{transport.Addr(i + 1), strangerAddr + transport.Addr(i)})
			}
			if !slices.Equal(conn.rebinds, want) {
				t.Fatalf("rebinds = %v, want %v", conn.rebinds, want)
			}
			for i := range 3 {
				s, _ := ep.Peer(core.PeerID(i))
				if s.FirstContacts != 1 || s.RepliesSent != 1 || !ep.peers[i].helloSeen || ep.peers[i].theirNonce != uint64(100+i) {
					t.Errorf("peer %d: FirstContacts %d, RepliesSent %d, Hello nonce %d (seen %v); want 1, 1, %d",
						i, s.FirstContacts, s.RepliesSent, ep.peers[i].theirNonce, ep.peers[i].helloSeen, 100+i)
				}
			}
			if st := ep.Stats(); st.Ambiguous != 0 || st.WrongSeat != 0 {
				t.Errorf("Ambiguous %d, WrongSeat %d; want 0, 0", st.Ambiguous, st.WrongSeat)
			}
		})
	}
}

// TestFirstContactWrongSeat: a stranger's Hello naming a seat that is
// taken, this host's own, or no peer's (while every peer has a seat)
// adopts nothing and is counted in Stats.WrongSeat; one naming no seat
// while several peers wait is ambiguous, and with one peer waiting it is
// adopted by the rule from before Hellos named seats.
func TestFirstContactWrongSeat(t *testing.T) {
	ep, conn, hello := seated(t)
	// Peer 1 (seat of player 2) is adopted at strangerAddr.
	deliver(t, ep, conn, strangerAddr, 10, hello(wire.SeatOf(2), 50, 0))
	if len(conn.rebinds) != 1 {
		t.Fatalf("rebinds = %v, want one", conn.rebinds)
	}
	conn.sent = nil
	for k, tc := range []struct {
		name      string
		seat      wire.Seat
		wrong     uint64 // Stats.WrongSeat after it
		ambiguous uint64 // Stats.Ambiguous after it
	}{
		{"occupied seat", wire.SeatOf(2), 1, 0},
		{"host's own seat", wire.SeatOf(0), 2, 0},
		{"nobody's seat", wire.SeatOf(9), 3, 0},
		{"no seat, two waiting", wire.NoSeat, 3, 1},
	} {
		deliver(t, ep, conn, strangerAddr+1, time.Duration(20+k), hello(tc.seat, uint64(60+k), 0))
		st := ep.Stats()
		if len(conn.rebinds) != 1 || len(conn.sent) != 0 || st.WrongSeat != tc.wrong || st.Ambiguous != tc.ambiguous {
			t.Fatalf("%s: rebinds %v, %d answers, WrongSeat %d, Ambiguous %d; want one rebind, no answer, %d, %d",
				tc.name, conn.rebinds, len(conn.sent), st.WrongSeat, st.Ambiguous, tc.wrong, tc.ambiguous)
		}
	}
	for i, s := range ep.Stats().Peers {
		if adopted := i == 1; s.FirstContacts != map[bool]uint64{true: 1}[adopted] || s.Heard != adopted {
			t.Errorf("peer %d: FirstContacts %d, Heard %v; want adopted %v only", i, s.FirstContacts, s.Heard, adopted)
		}
	}
	// Peer 0 says Hello from where it was expected, naming its seat; now
	// only peer 2 waits, and a Hello naming no seat is its.
	deliver(t, ep, conn, 1, 30, hello(wire.SeatOf(1), 70, 0))
	deliver(t, ep, conn, strangerAddr+2, 40, hello(wire.NoSeat, 80, 0))
	if want := [2]transport.Addr{3, strangerAddr + 2}; len(conn.rebinds) != 2 || conn.rebinds[1] != want {
		t.Fatalf("rebinds = %v, want a second one %v", conn.rebinds, want)
	}
}

// TestHelloWrongSeat: a Hello naming another seat than its peer's is not
// that peer's: from the peer's own address it is dropped (PeerStats.
// WrongSeat), not answered and not refused, so the peer's real Hello
// still completes the handshake; from a new address with an interrupted
// peer's nonce it moves nothing.
func TestHelloWrongSeat(t *testing.T) {
	ep, conn, hello := seated(t)
	deliver(t, ep, conn, 1, 10, hello(wire.SeatOf(3), 11, 0))
	s, _ := ep.Peer(0)
	if s.WrongSeat != 1 || s.Heard || s.RepliesSent != 0 || len(conn.sent) != 0 || s.State != StateHandshaking {
		t.Fatalf("WrongSeat %d, Heard %v, RepliesSent %d, state %v; want 1, false, 0, handshaking", s.WrongSeat, s.Heard, s.RepliesSent, s.State)
	}
	if evs := ep.Events(); len(evs) != 0 {
		t.Fatalf("events %v, want none", evs)
	}
	// The real peer: its Hello names its seat, its reply accepts ours.
	deliver(t, ep, conn, 1, 20, hello(wire.SeatOf(1), 12, 1))
	reply := wire.HelloReply{Status: wire.ReplyAccept, Protocol: wire.Protocol, Nonce: ep.peers[0].nonce, Config: ep.Config().Digest}
	deliver(t, ep, conn, 1, 30, must(wire.AppendHelloReply(nil, testKey, 2, &reply)))
	if ep.State(0) != StateConnected {
		t.Fatalf("state %v, want connected", ep.State(0))
	}
	// The peer falls silent (interrupted); its nonce from a new address,
	// naming another seat: no rebind.
	mustNil(t, ep.Tick(700*ms))
	require.Equal(t, StateInterrupted, ep.State(0))
	deliver(t, ep, conn, strangerAddr, 710, hello(wire.SeatOf(2), 12, 3))
	if len(conn.rebinds) != 0 {
		t.Errorf("rebinds %v, want none", conn.rebinds)
	}
	// Naming its seat: the NAT moved it.
	deliver(t, ep, conn, strangerAddr, 720, hello(wire.SeatOf(1), 12, 4))
	if want := [][2]transport.Addr{{1, strangerAddr}}; !slices.Equal(conn.rebinds, want) {
		t.Errorf("rebinds %v, want %v", conn.rebinds, want)
	}
}

// TestFirstContactSeatless: peers configured without a seat (a spectator,
// or an endpoint given no Seats) take the Hellos that name no configured
// seat when they alone wait without one.
func TestFirstContactSeatless(t *testing.T) {
	t.Run("spectator among players", func(t *testing.T) {
		// Peers 0 and 1 play (seats of players 1 and 2), peer 2 watches.
		ep, conn, hello := seated(t, wire.SeatOf(1), wire.SeatOf(2), wire.NoSeat)
		deliver(t, ep, conn, strangerAddr, 10, hello(wire.NoSeat, 90, 0))
		deliver(t, ep, conn, strangerAddr+1, 20, hello(wire.SeatOf(2), 91, 0))
		want := [][2]transport.Addr{{3, strangerAddr}, {2, strangerAddr + 1}}
		if !slices.Equal(conn.rebinds, want) {
			t.Fatalf("rebinds %v, want %v", conn.rebinds, want)
		}
	})
	t.Run("no Seats configured", func(t *testing.T) {
		// An endpoint that knows no seats falls back to the rule of one
		// waiting peer, whatever seat a Hello names.
		ep, conn, hello := seated(t, wire.NoSeat, wire.NoSeat)
		deliver(t, ep, conn, strangerAddr, 10, hello(wire.SeatOf(5), 90, 0))
		if st := ep.Stats(); len(conn.rebinds) != 0 || st.Ambiguous != 1 {
			t.Fatalf("rebinds %v, Ambiguous %d; want none, 1", conn.rebinds, st.Ambiguous)
		}
		deliver(t, ep, conn, 1, 20, hello(wire.SeatOf(1), 91, 0))
		deliver(t, ep, conn, strangerAddr, 30, hello(wire.SeatOf(5), 90, 1))
		if want := [][2]transport.Addr{{2, strangerAddr}}; !slices.Equal(conn.rebinds, want) {
			t.Fatalf("rebinds %v, want %v", conn.rebinds, want)
		}
	})
}

// TestHelloCarriesSeat: an endpoint's Hellos name Config.Seat.
func TestHelloCarriesSeat(t *testing.T) {
	cfg := testConfig(t, 3, 1)
	cfg.Seat = wire.SeatOf(2)
	conn := &captureConn{}
	ep, err := New[slotInput](cfg, conn, []transport.Addr{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	mustNil(t, ep.Tick(0))
	if len(conn.sent) != 2 {
		t.Fatalf("%d datagrams sent, want 2 Hellos", len(conn.sent))
	}
	for _, p := range conn.sent {
		var h wire.Hello
		if _, err := wire.DecodeHello(p, testKey, nil, &h); err != nil || h.Seat != cfg.Seat {
			t.Errorf("Hello %+v, %v; want seat %v", h, err, cfg.Seat)
		}
	}
}

// captureConn is a Conn that keeps copies of what is sent and receives
// nothing.
type captureConn struct{ sent [][]byte }

func (c *captureConn) Receive([]byte) (int, transport.Addr, bool, error) { return 0, 0, false, nil }
func (c *captureConn) Send(_ transport.Addr, p []byte) error {
	c.sent = append(c.sent, slices.Clone(p))
	return nil
}
func (c *captureConn) Close() error { return nil }
