package endpoint_test

import (
	"math/rand/v2"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/rollstep/rollstep/internal/arena"
	"github.com/rollstep/rollstep/internal/probe"

	"github.com/rollstep/rollstep"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/udp"
)

// seatFrames is the number of frames every session of
// TestRollbackFirstContactSeats must confirm.
const seatFrames = 300

// seatState is the state of TestRollbackFirstContactSeats' game.
type seatState struct {
	Frame int64
	Pos   [3]int64
	Acc   uint64
}

// seatGame moves each player by its input and records, for every frame f
// below seatFrames, the checksum of the state after simulating f (a
// rollback overwrites it, so a confirmed frame's record is final).
type seatGame struct{ sums [seatFrames]uint64 }

func (g *seatGame) Step(s *seatState, in []core.Input[uint16], _ core.Effects) {
	for p, v := range in {
		s.Pos[p] += int64(v.Value&7) - 3
		s.Acc = s.Acc*31 + uint64(v.Value)
	}
	s.Frame++
	if f := s.Frame - 1; f < seatFrames {
		g.sums[f] = arena.Checksum(s)
	}
}

// TestRollbackFirstContactSeats plays a 3-player rollback match over real
// UDP sockets on 127.0.0.1 whose host (player 0) knows neither client's
// address: it lists both with the zero address and learns each from the
// Hello naming the client's seat, in whatever order they arrive. Client 1
// knows only the host's address, and learns client 2's the same way
// (while the host may still be waiting too); client 2 knows both. Before
// Hellos named seats, the host's two waiting peers made every Hello
// ambiguous and the match never started. All three must confirm
// seatFrames frames with identical checksums within 10 s (about 2 s in
// practice). Skipped with -short: real sockets and real time.
func TestRollbackFirstContactSeats(t *testing.T) {
	if testing.Short() {
		t.Skip("real sockets and a real clock")
	}
	var socks [3]*net.UDPConn
	var addrs [3]netip.AddrPort
	for i := range socks {
		s, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Skipf("no loopback UDP: %v", err)
		}
		socks[i], addrs[i] = s, s.LocalAddr().(*net.UDPAddr).AddrPort()
	}
	// known[i][j]: session i is told session j's address.
	known := [3][3]bool{
		0: {},
		1: {0: true},
		2: {0: true, 1: true},
	}
	type player struct {
		s    *rollstep.Session[seatState, uint16]
		game *seatGame
	}
	var players [3]player
	for i := range players {
		var up []udp.Peer
		cfg := rollstep.Config{
			Mode:     rollstep.Rollback,
			Players:  3,
			Local:    []core.PlayerHandle{core.PlayerHandle(i)},
			TickRate: 200,
			Game:     [16]byte{'s', 'e', 'a', 't', 's'},
			Transport: transport.Config{
				Token: 0x5ea7_5ea7_5ea7_5ea7,
				Rand:  rand.NewChaCha8([32]byte{byte(i), 's', 'e', 'a', 't'}),
			},
		}
		for j := range 3 {
			if j == i {
				continue
			}
			p := udp.Peer{ID: transport.Addr(j)}
			if known[i][j] {
				p.Addr = addrs[j]
			}
			up = append(up, p)
			cfg.Peers = append(cfg.Peers, rollstep.Peer{Addr: p.ID, Players: []core.PlayerHandle{core.PlayerHandle(j)}})
		}
		conn, err := udp.New(socks[i], udp.Config{Peers: up, AcceptUnknown: true})
		if err != nil {
			t.Fatalf("udp.New: %v", err)
		}
		players[i].game = new(seatGame)
		players[i].s, err = rollstep.NewSession[seatState, uint16](cfg, players[i].game, seatState{}, conn)
		if err != nil {
			conn.Close()
			t.Fatalf("session %d: %v", i, err)
		}
		t.Cleanup(func() { players[i].s.Close() })
	}

	start := time.Now()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		now := time.Since(start)
		if now > 10*time.Second {
			host := probe.Transport(players[0].s)
			t.Fatalf("%d frames not confirmed in 10 s: frames %d, %d, %d; host: Ambiguous %d, WrongSeat %d", seatFrames,
				players[0].s.Frame(), players[1].s.Frame(), players[2].s.Frame(), host.Ambiguous, host.WrongSeat)
		}
		done := true
		for i, p := range players {
			h := core.PlayerHandle(i)
			f := p.s.Frame()
			if err := p.s.AddLocalInput(h, uint16(uint32(f/core.Frame(3+i))*2654435761>>13)); err != nil {
				t.Fatalf("session %d: AddLocalInput: %v", i, err)
			}
			if err := p.s.Update(now); err != nil {
				t.Fatalf("session %d: Update at %v: %v", i, now, err)
			}
			p.s.Events()
			if c, ok := p.s.ConfirmedFrame(); !ok || c < seatFrames {
				done = false
			}
		}
		if done {
			break
		}
		<-tick.C
	}
	for f := range seatFrames {
		if a, b, c := players[0].game.sums[f], players[1].game.sums[f], players[2].game.sums[f]; a != b || a != c {
			t.Fatalf("frame %d: checksums %x, %x, %x differ", f, a, b, c)
		}
	}
	// The host adopted each client once, from its seat, and never guessed.
	host := probe.Transport(players[0].s)
	for i, ps := range host.Peers {
		if ps.FirstContacts != 1 || ps.WrongSeat != 0 {
			t.Errorf("host's peer %d: FirstContacts %d, WrongSeat %d; want 1, 0", i, ps.FirstContacts, ps.WrongSeat)
		}
	}
	if host.Ambiguous != 0 || host.WrongSeat != 0 {
		t.Errorf("host: Ambiguous %d, WrongSeat %d; want 0, 0", host.Ambiguous, host.WrongSeat)
	}
	if c1 := probe.Transport(players[1].s); c1.Peers[1].FirstContacts != 1 {
		t.Errorf("client 1's peer 1 (client 2): FirstContacts %d, want 1", c1.Peers[1].FirstContacts)
	}
	t.Logf("%d frames agreed in %v", seatFrames, time.Since(start).Round(time.Millisecond))
}

// helloConn is a Conn that decodes the Hellos sent through it under key
// and receives nothing.
type helloConn struct {
	key    wire.Key
	hellos []wire.Hello
}

func (c *helloConn) Receive([]byte) (int, transport.Addr, bool, error) { return 0, 0, false, nil }
func (c *helloConn) Send(_ transport.Addr, p []byte) error {
	var h wire.Hello
	if _, err := wire.DecodeHello(p, c.key, nil, &h); err == nil {
		c.hellos = append(c.hellos, h)
	}
	return nil
}
func (c *helloConn) Close() error { return nil }

// TestFrontEndsSendSeats: the lockstep and rollback sessions of player 2
// of a 3-player match name its seat in their Hellos, and configure their
// endpoint with their peers' seats.
func TestFrontEndsSendSeats(t *testing.T) {
	const token = 0x5ea7
	check := func(t *testing.T, c *helloConn) {
		t.Helper()
		if len(c.hellos) != 2 {
			t.Fatalf("%d Hellos sent, want 2", len(c.hellos))
		}
		for _, h := range c.hellos {
			if h.Seat != wire.SeatOf(2) {
				t.Errorf("Hello names seat %v, want %v", h.Seat, wire.SeatOf(2))
			}
		}
	}
	step := func(*seatState, []core.Input[uint16], core.Effects) {}
	// session is what the test needs of either front end.
	type session interface {
		Update(now time.Duration) error
		Close() error
	}
	peers := []core.PlayerHandle{0, 1}
	for _, fe := range []struct {
		name string
		open func(conn transport.Conn) (session, error)
	}{
		{"rollback", func(conn transport.Conn) (session, error) {
			cfg := rollstep.Config{Mode: rollstep.Rollback, Players: 3, Local: []core.PlayerHandle{2}, Transport: transport.Config{Token: token}}
			for _, p := range peers {
				cfg.Peers = append(cfg.Peers, rollstep.Peer{Addr: transport.Addr(p), Players: []core.PlayerHandle{p}})
			}
			return rollstep.NewSession[seatState, uint16](cfg, core.GameFunc[seatState, uint16](step), seatState{}, conn)
		}},
		{"lockstep", func(conn transport.Conn) (session, error) {
			cfg := rollstep.Config{Mode: rollstep.Lockstep, Players: 3, Local: []core.PlayerHandle{2}, Transport: transport.Config{Token: token}}
			for _, p := range peers {
				cfg.Peers = append(cfg.Peers, rollstep.Peer{Addr: transport.Addr(p), Players: []core.PlayerHandle{p}})
			}
			return rollstep.NewSession[seatState, uint16](cfg, core.GameFunc[seatState, uint16](step), seatState{}, conn)
		}},
	} {
		t.Run(fe.name, func(t *testing.T) {
			conn := &helloConn{key: wire.NewKey(token)}
			s, err := fe.open(conn)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := s.Update(0); err != nil {
				t.Fatal(err)
			}
			check(t, conn)
		})
	}
}
