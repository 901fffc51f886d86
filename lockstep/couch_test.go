package lockstep

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/sim"
)

// TestCouch: peer 0 plays players 0 and 1 on one machine, peer 1 plays
// player 2. Both agree; commands of all three players arrive once and in
// order.
func TestCouch(t *testing.T) {
	net, err := sim.New(sim.Config{Seed: 61, Link: sim.LinkConfig{Latency: sim.Latency{Base: 30 * ms, Jitter: 20 * ms}, Loss: 0.05}})
	if err != nil {
		t.Fatal(err)
	}
	conns := []*sim.Endpoint{net.NewEndpoint(), net.NewEndpoint()}
	owned := [][]core.PlayerHandle{{0, 1}, {2}}
	m := &match{t: t, net: net, dt: 5 * ms}
	for i := range 2 {
		cfg := Config{Players: 3, Local: owned[i], TurnPeriod: 40 * ms,
			Peers: []rollstep.Peer{{Addr: conns[1-i].ID(), Players: owned[1-i]}}}
		cfg.Transport.Rand = rand.NewChaCha8([32]byte{byte(i), 61})
		p := &tPeer{conn: conns[i], rng: rand.New(rand.NewPCG(61, uint64(i)))}
		s, err := NewSession(cfg, core.GameFunc[tState, tInput](p.step), tState{}, conns[i])
		if err != nil {
			t.Fatalf("peer %d: %v", i, err)
		}
		p.sess = s
		m.peers = append(m.peers, p)
	}
	seq := [3]uint32{}
	for m.now < 15*time.Second {
		m.now += m.dt
		net.RunUntil(m.now)
		for i, p := range m.peers {
			for _, pl := range owned[i] {
				if p.sess.Frame() != p.lastF || m.now == m.dt {
					seq[pl]++
					if err := p.sess.AddLocalInput(pl, tInput{Seq: seq[pl], Val: uint32(pl)}); err != nil {
						t.Fatal(err)
					}
				}
			}
			p.lastF = p.sess.Frame()
			if err := p.sess.Update(m.now); err != nil {
				t.Fatal(err)
			}
		}
	}
	f := m.check()
	if f < 200 {
		t.Fatalf("only %d turns", f)
	}
	for pl := range 3 {
		if m.peers[0].sess.State().Next[pl] == 0 {
			t.Fatalf("no command of player %d applied", pl)
		}
	}
}

// TestReadLog: the input log replays every player's commands of every
// confirmed turn, the same on both peers.
func TestReadLog(t *testing.T) {
	m := newMatch(t, 2, 62, sim.LinkConfig{Latency: sim.Latency{Base: 20 * ms}}, Config{TurnPeriod: 50 * ms, LogRetention: 1000})
	m.run(5 * time.Second)
	m.check()
	start, end := m.peers[0].sess.LogRange()
	_, end1 := m.peers[1].sess.LogRange()
	end = min(end, end1)
	if start != 0 || end < 50 {
		t.Fatalf("LogRange %d..%d", start, end)
	}
	var a, b []core.Input[tInput]
	var err error
	for f := start; f < end; f++ {
		if a, err = m.peers[0].sess.ReadLog(f, a[:0]); err != nil {
			t.Fatal(err)
		}
		if b, err = m.peers[1].sess.ReadLog(f, b[:0]); err != nil {
			t.Fatalf("peer 1, turn %d: %v", f, err)
		}
		if len(a) != 2 || a[0] != b[0] || a[1] != b[1] {
			t.Fatalf("turn %d: logs %v and %v", f, a, b)
		}
	}
	if _, err := m.peers[0].sess.ReadLog(end+100, nil); !errors.Is(err, rollstep.ErrOutOfRange) {
		t.Fatalf("ReadLog past the end: %v", err)
	}
}
