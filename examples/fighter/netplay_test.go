package fighter_test

import (
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/examples/fighter/internal/match"
	"github.com/rollstep/rollstep/internal/testenv"
	"github.com/rollstep/rollstep/rollback"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/udp"
)

// TestTwoPeersAgreeAt100msAnd5PercentLoss plays a minute of bots over a
// simulated network with 100 ms one-way latency and 5 % loss, plus a
// spectator, and requires every frame's checksum to be equal on both
// peers, no desync event, and the spectator to replay the same final state.
func TestTwoPeersAgreeAt100msAnd5PercentLoss(t *testing.T) {
	r, err := match.RunSim(match.SimConfig{Frames: 3600, Latency: 100 * time.Millisecond, Loss: 0.05, Seed: 7, Spectate: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.HasMismatch {
		t.Fatalf("checksums differ from frame %d on", r.Mismatch)
	}
	a, b := r.Peers[0], r.Peers[1]
	if a.Checksum != b.Checksum || a.Final != b.Final {
		t.Fatalf("final states differ: %#x and %#x", a.Checksum, b.Checksum)
	}
	if !r.Spectated || r.Spectator != a.Checksum {
		t.Errorf("spectator's final checksum %#x, players' %#x", r.Spectator, a.Checksum)
	}
	for i, s := range r.Peers {
		if s.Counts.Desyncs != 0 || s.Counts.Lost != 0 {
			t.Errorf("player %d: %d desyncs, %d peers lost", i, s.Counts.Desyncs, s.Counts.Lost)
		}
		if s.Rollbacks == 0 {
			t.Errorf("player %d never rolled back: the match exercises too little", i)
		}
		// Effects of confirmed frames are delivered once each, so every
		// peer plays as many hits as the final state counts.
		f := &s.Final.Fighters
		if got, want := s.Counts.Hits, int(f[0].Hits+f[1].Hits); got != want {
			t.Errorf("player %d played %d hit effects (net of cancellations), the state counts %d", i, got, want)
		}
		t.Logf("player %d: %d rollbacks, %d frames re-simulated, %d stalls (%v), D %d, RTT %v, %d effects cancelled",
			i, s.Rollbacks, s.ResimFrames, s.Stalls, s.StallTime, s.Delay, s.RTT, s.Counts.Cancelled)
	}
	if f := a.Final.Fighters; f[0].Wins+f[1].Wins < 2 {
		t.Errorf("only %d rounds finished in a minute", f[0].Wins+f[1].Wins)
	}
}

func TestSyncTest(t *testing.T) {
	st, err := rollback.NewSyncTest[fighter.State, fighter.Input](rollback.SyncTestConfig{CheckDistance: 8}, fighter.Game{}, fighter.New(3))
	if err != nil {
		t.Fatal(err)
	}
	bots := [2]*fighter.Bot{fighter.NewBot(0, 3), fighter.NewBot(1, 3)}
	in := make([]fighter.Input, 2)
	for f := range 3000 {
		for i, b := range bots { // one bot decision per frame, both from the same state
			in[i] = b.Next(st.State())
		}
		if _, err := st.AdvanceFrame(in); err != nil {
			t.Fatalf("frame %d: %v", f, err)
		}
	}
	if s := st.State(); s.Fighters[0].Hits+s.Fighters[1].Hits == 0 {
		t.Error("no hit in 3,000 frames: the sync test exercises too little")
	}
}

// TestRealUDPLoopback plays 90 frames (300 in the soak run) between two
// sessions over real UDP sockets on 127.0.0.1, in one process on the real
// clock, and requires equal checksums for every frame, within 20 s.
func TestRealUDPLoopback(t *testing.T) {
	if testing.Short() {
		t.Skip("real sockets and a real clock")
	}
	var socks [2]*net.UDPConn
	var addrs [2]netip.AddrPort
	for i := range socks {
		s, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Skipf("no loopback UDP: %v", err)
		}
		socks[i], addrs[i] = s, s.LocalAddr().(*net.UDPAddr).AddrPort()
	}
	frames := testenv.Pick(90, 300)
	var peers []*match.Peer
	for i := range 2 {
		c, err := udp.New(socks[i], udp.Config{Peers: []udp.Peer{{ID: 1, Addr: addrs[1-i]}}})
		if err != nil {
			t.Fatal(err)
		}
		p, err := match.NewPeer(match.Config(i, transport.Addr(1), match.Token(5), nil), c, frames, 5)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Session.Close()
		peers = append(peers, p)
	}
	clk, stop := match.NewClock(time.Millisecond)
	defer stop()
	if err := match.RunRealtime(peers, clk, 20*time.Second, 0); err != nil {
		t.Fatal(err)
	}
	a, b := peers[0].Rec.Sums, peers[1].Rec.Sums
	for f := range a {
		if a[f] != b[f] {
			t.Fatalf("frame %d: checksums %#x and %#x", f, a[f], b[f])
		}
	}
	for _, p := range peers {
		if s := p.Summary(); s.Counts.Desyncs != 0 {
			t.Errorf("player %d: %d desyncs", p.Player, s.Counts.Desyncs)
		}
	}
}
