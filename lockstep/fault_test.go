package lockstep

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

// TestDropAfterTimeout: a peer stops at 5 s. The survivors, whose links to
// it have different latencies, notice its silence at different times, yet
// every survivor drops its player at the same agreed turn and they go on
// in agreement.
func TestDropAfterTimeout(t *testing.T) {
	tests := []struct {
		peers   int
		latency []time.Duration // latency between each survivor i and the dead peer
	}{
		{3, []time.Duration{20 * ms, 250 * ms}},
		{4, []time.Duration{10 * ms, 120 * ms, 300 * ms}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%dpeers", tt.peers), func(t *testing.T) {
			dead := tt.peers - 1
			m := newMatch(t, tt.peers, 11, sim.LinkConfig{Latency: sim.Latency{Base: 40 * ms, Jitter: 10 * ms}},
				Config{TurnPeriod: 50 * ms})
			for i, l := range tt.latency {
				a, b := m.peers[i].conn.ID(), m.peers[dead].conn.ID()
				for _, ends := range [][2]transport.Addr{{a, b}, {b, a}} {
					if err := m.net.SetLink(ends[0], ends[1], sim.LinkConfig{Latency: sim.Latency{Base: l}}); err != nil {
						t.Fatal(err)
					}
				}
			}
			m.run(5 * time.Second)
			m.peers[dead].dead = true
			m.run(15 * time.Second)
			var noticed []time.Duration
			var at []core.Frame
			for i, p := range m.peers[:dead] {
				ev := peerEvents(p, endpoint.EventDisconnected)
				if len(ev) != 1 || ev[0].Peer != peerID(i, dead) {
					t.Fatalf("peer %d: disconnect events %+v", i, ev)
				}
				noticed = append(noticed, ev[0].At)
				// The nearest survivor times the dead peer out itself; the
				// others learn of it first through the agreement.
				for _, e := range p.events {
					if l, ok := e.(core.PeerLostEvent); ok && l.Agreed != (i > 0) {
						t.Errorf("peer %d: %+v, want Agreed %v", i, l, i > 0)
					}
				}
				var got []core.DisconnectEvent
				for _, e := range p.events {
					if d, ok := e.(core.DisconnectEvent); ok {
						got = append(got, d)
					}
				}
				if len(got) != 1 || got[0].Player != core.PlayerHandle(dead) {
					t.Fatalf("peer %d: %+v, want one DisconnectEvent for player %d", i, got, dead)
				}
				at = append(at, got[0].Frame)
				if p.sess.Stats().Peers[peerID(i, dead)].Stall == 0 {
					t.Errorf("peer %d: no stall charged to the dead peer", i)
				}
			}
			for i := range at {
				if at[i] != at[0] {
					t.Fatalf("survivors drop the player at turns %v, want one agreed turn", at)
				}
			}
			if noticed[0] == noticed[len(noticed)-1] {
				t.Fatalf("survivors noticed at the same time %v: the test proves nothing", noticed)
			}
			f := m.check()
			if f < at[0]+100 {
				t.Fatalf("survivors reached turn %d only, drop at %d", f, at[0])
			}
			if m.peers[0].sess.State().Gone[dead] == 0 {
				t.Error("the dead player's inputs never came as disconnected")
			}
			t.Logf("noticed at %v, dropped at turn %d, survivors at turn %d", noticed, at[0], f)
		})
	}
}

// TestPauseSameTurn: player 1 pauses and player 2 resumes; every peer
// pauses and resumes at the same turns, and the game does not step while
// paused.
func TestPauseSameTurn(t *testing.T) {
	link := sim.LinkConfig{Latency: sim.Latency{Base: 60 * ms, Jitter: 40 * ms}, Loss: 0.05}
	m := newMatch(t, 3, 12, link, Config{TurnPeriod: 50 * ms})
	m.lossyCommands = true // those already scheduled for paused turns
	m.run(3 * time.Second)
	if err := m.peers[1].sess.Pause(1); err != nil {
		t.Fatal(err)
	}
	m.run(6 * time.Second)
	if !m.peers[0].sess.Stats().Paused {
		t.Fatal("peer 0 not paused")
	}
	played := m.peers[0].sess.Stats().Played
	m.run(7 * time.Second)
	if got := m.peers[0].sess.Stats().Played; got != played {
		t.Fatalf("game stepped while paused: %d → %d", played, got)
	}
	if err := m.peers[2].sess.Resume(2); err != nil {
		t.Fatal(err)
	}
	m.run(10 * time.Second)
	var pauses [][]core.PauseEvent
	for i, p := range m.peers {
		var got []core.PauseEvent
		for _, ev := range p.events {
			if e, ok := ev.(core.PauseEvent); ok {
				got = append(got, e)
			}
		}
		if len(got) != 2 || !got[0].Paused || got[0].Player != 1 || got[1].Paused || got[1].Player != 2 {
			t.Fatalf("peer %d: pause events %+v", i, got)
		}
		pauses = append(pauses, got)
	}
	for i := range pauses {
		if pauses[i][0] != pauses[0][0] || pauses[i][1] != pauses[0][1] {
			t.Fatalf("pause events differ: %+v", pauses)
		}
	}
	st := m.peers[0].sess.Stats()
	if st.Played >= int64(st.Frame) || st.Paused {
		t.Fatalf("played %d of %d turns, paused %v", st.Played, st.Frame, st.Paused)
	}
	m.check()
	t.Logf("paused at %d, resumed at %d", pauses[0][0].Frame, pauses[0][1].Frame)
}

// TestInterruptedThenResumed: a peer silent for less than the timeout is
// reported interrupted and resumed, and is not dropped.
func TestInterruptedThenResumed(t *testing.T) {
	m := newMatch(t, 3, 13, sim.LinkConfig{Latency: sim.Latency{Base: 30 * ms}}, Config{TurnPeriod: 50 * ms})
	m.run(3 * time.Second)
	m.peers[2].dead = true
	m.run(4500 * time.Millisecond)
	m.peers[2].dead = false
	m.run(10 * time.Second)
	for i, p := range m.peers[:2] {
		if len(peerEvents(p, endpoint.EventInterrupted)) != 1 || len(peerEvents(p, endpoint.EventResumed)) != 1 {
			t.Errorf("peer %d: want one interruption and one resume, events %v", i, p.events)
		}
		if len(peerEvents(p, endpoint.EventDisconnected)) != 0 {
			t.Errorf("peer %d: dropped a peer silent for less than the timeout", i)
		}
	}
	if f := m.check(); f < 150 {
		t.Fatalf("only %d turns", f)
	}
}

// TestBlackout: every link of one peer is cut for 1 s (shorter than the
// disconnect timeout) while everyone keeps running. The match stalls,
// nobody is dropped, and it resumes in agreement.
func TestBlackout(t *testing.T) {
	m := newMatch(t, 3, 14, sim.LinkConfig{Latency: sim.Latency{Base: 25 * ms, Jitter: 5 * ms}}, Config{TurnPeriod: 50 * ms})
	m.run(4 * time.Second)
	ids := []transport.Addr{m.peers[0].conn.ID(), m.peers[1].conn.ID()}
	m.net.Partition([]transport.Addr{m.peers[2].conn.ID()}, ids)
	before := m.peers[0].sess.Frame()
	m.run(5 * time.Second)
	m.net.Heal()
	if during := m.peers[0].sess.Frame() - before; during > 2*core.Frame(16) {
		t.Fatalf("%d turns ran during the blackout", during)
	}
	m.run(12 * time.Second)
	for i, p := range m.peers {
		if n := len(peerEvents(p, endpoint.EventDisconnected)); n != 0 {
			t.Fatalf("peer %d dropped someone after a 1 s blackout", i)
		}
		if p.sess.Stats().MaxStall < 500*ms {
			t.Fatalf("peer %d: longest stall %v, want the blackout", i, p.sess.Stats().MaxStall)
		}
	}
	if f := m.check(); f < 150 {
		t.Fatalf("only %d turns", f)
	}
}

// TestLeave: a peer that closes its session tells the others at once;
// they drop its player at one agreed turn without waiting for the timeout.
func TestLeave(t *testing.T) {
	m := newMatch(t, 3, 15, sim.LinkConfig{Latency: sim.Latency{Base: 30 * ms, Jitter: 10 * ms}}, Config{TurnPeriod: 50 * ms})
	m.run(3 * time.Second)
	if err := m.peers[2].sess.Close(); err != nil {
		t.Fatal(err)
	}
	if err := m.peers[2].sess.Update(m.now); err != rollstep.ErrClosed {
		t.Fatalf("Update after Close: %v", err)
	}
	m.peers[2].dead = true
	left := m.now
	m.run(left + 2*time.Second) // under the 2.5 s disconnect timeout
	var at []core.Frame
	for i, p := range m.peers[:2] {
		if len(peerEvents(p, endpoint.EventLeft)) != 1 {
			t.Fatalf("peer %d: no EventLeft", i)
		}
		for _, ev := range p.events {
			if d, ok := ev.(core.DisconnectEvent); ok {
				at = append(at, d.Frame)
			}
		}
	}
	if len(at) != 2 || at[0] != at[1] {
		t.Fatalf("disconnect turns %v, want one agreed turn per survivor", at)
	}
	if f := m.check(); f < at[0]+20 {
		t.Fatalf("survivors at turn %d, drop at %d", f, at[0])
	}
}

// TestRefusedConfig: peers of different game builds refuse each other and
// Update reports which field differs.
func TestRefusedConfig(t *testing.T) {
	m := newMatch(t, 2, 16, sim.LinkConfig{Latency: sim.Latency{Base: 10 * ms}}, Config{TurnPeriod: 50 * ms})
	// Rebuild peer 1 with another game build.
	c := m.peers[1].cfg
	c.Game = [16]byte{9}
	s, err := NewSession(c, core.GameFunc[tState, tInput](m.peers[1].step), tState{}, m.peers[1].conn)
	if err != nil {
		t.Fatal(err)
	}
	m.peers[1].sess = s
	var errs [2]error
	for now := time.Duration(0); now < time.Second && (errs[0] == nil || errs[1] == nil); now += 5 * ms {
		m.net.RunUntil(now)
		for i, p := range m.peers {
			if errs[i] == nil {
				errs[i] = p.sess.Update(now)
			}
		}
	}
	for i, err := range errs {
		var he *endpoint.HandshakeError
		if !errors.Is(err, rollstep.ErrRefused) || !errors.As(err, &he) || !strings.Contains(err.Error(), "Game") {
			t.Fatalf("peer %d: %v, want rollstep.ErrRefused naming Game", i, err)
		}
	}
	if f := m.peers[0].sess.Frame(); f != 0 {
		t.Fatalf("a refused match ran %d turns", f)
	}
}
