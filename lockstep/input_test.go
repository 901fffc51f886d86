package lockstep

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/fixed"
	"github.com/rollstep/rollstep/internal/probe"
	"github.com/rollstep/rollstep/transport/sim"
)

// TestRequeueWhenDelayFalls: the link goes from 300 ms to 10 ms, so the
// controller first raises D and then lowers it. D comes down at turns
// where a player has nothing queued (each gives a command every third turn
// on average: see TestLoweringDelayKeepsNoBacklog for one every turn), and
// every command of every player is applied exactly once and in order
// (tState.Bad == 0), including across the turns filled when D rose and
// those skipped when it fell.
func TestRequeueWhenDelayFalls(t *testing.T) {
	link := sim.LinkConfig{Latency: sim.Latency{Base: 300 * ms},
		Schedule: []sim.Step{{At: 15 * time.Second, Latency: sim.Latency{Base: 10 * ms}}}}
	m := newMatch(t, 3, 41, link, Config{TurnPeriod: 50 * ms, InputDelay: 1})
	for _, p := range m.peers {
		p.every = 3
	}
	m.run(60 * time.Second)
	m.check()
	var up, down int
	d := 1
	for _, ev := range m.peers[0].events {
		if e, ok := ev.(core.DelayEvent); ok {
			if e.Delay > d {
				up++
			} else if e.Delay < d {
				down++
			}
			d = e.Delay
		}
	}
	st := m.peers[0].sess.Stats()
	t.Logf("D raised %d times, lowered %d times, now %d; %d inputs re-queued", up, down, st.Delay, st.Requeued)
	if up == 0 || down == 0 || st.Delay > 2 {
		t.Fatalf("D raised %d times, lowered %d, now %d, re-queued %d: the test proves nothing", up, down, st.Delay, st.Requeued)
	}
	for i, p := range m.peers {
		// Issued commands are applied, still queued, or scheduled for the
		// next D turns.
		got, want := p.sess.State().Next[i], p.seq-uint32(p.sess.Stats().Queued)
		if d := p.sess.Stats().Delay; got > want || got+uint32(d) < want {
			t.Errorf("peer %d: %d own commands applied, want %d issued and not queued, less at most D=%d", i, got, want, d)
		}
	}
}

// TestNoTurnBeforeAllInputs: over a lossy, jittery link, no lockstep turn
// ever steps with a predicted input, and the engine never saves or loads
// a state.
func TestNoTurnBeforeAllInputs(t *testing.T) {
	link := sim.LinkConfig{Latency: sim.Latency{Base: 120 * ms, Jitter: 100 * ms}, Loss: 0.2,
		Duplicate: 0.1, Reorder: 0.1, ReorderDelay: 50 * ms}
	m := newMatch(t, 4, 42, link, Config{TurnPeriod: 30 * ms, InputDelay: 1, FixedDelay: true})
	m.run(20 * time.Second)
	m.check()
	for i, p := range m.peers {
		st := p.sess.Stats()
		if saves := probe.EngineStats(p.sess).Saves; p.predicts != 0 || st.Rollbacks != 0 || saves != 0 {
			t.Fatalf("peer %d: %d predicted inputs, %d rollbacks, %d saves", i, p.predicts,
				st.Rollbacks, saves)
		}
		if st.StalledFrames == 0 {
			t.Fatalf("peer %d never stalled: the test proves nothing", i)
		}
	}
}

// TestInterpolation: Previous is the state before the latest turn, State
// after it, and Fraction runs from 0 to One across the turn.
func TestInterpolation(t *testing.T) {
	m := newMatch(t, 2, 43, sim.LinkConfig{Latency: sim.Latency{Base: 5 * ms}}, Config{TurnPeriod: 100 * ms, FixedDelay: true})
	m.dt = 10 * ms
	m.run(3 * time.Second)
	s := m.peers[0].sess
	f := s.Frame()
	var last fixed.F = -1
	for s.Frame() == f {
		if got := s.Fraction(); got < last || got > fixed.One {
			t.Fatalf("fraction %v after %v", got, last)
		} else {
			last = got
		}
		m.run(m.now + m.dt)
	}
	if last < fixed.One*8/10 {
		t.Fatalf("fraction reached only %v before the next turn", last)
	}
	if got := s.Fraction(); got > fixed.One/5 {
		t.Fatalf("fraction %v just after a turn", got)
	}
	if s.Previous().Frame != s.State().Frame-1 {
		t.Fatalf("previous at game step %d, current %d", s.Previous().Frame, s.State().Frame)
	}
}

// TestHostilePackets: garbage from an unknown address and replayed
// datagrams mid-match change nothing.
func TestHostilePackets(t *testing.T) {
	m := newMatch(t, 2, 44, sim.LinkConfig{Latency: sim.Latency{Base: 20 * ms}, Duplicate: 0.3}, Config{TurnPeriod: 50 * ms})
	evil := m.net.NewEndpoint()
	junk := make([]byte, 200)
	for step := 0; m.now < 10*time.Second; step++ {
		for i := range junk {
			junk[i] = byte(step*31 + i*7)
		}
		_ = evil.Send(m.peers[0].conn.ID(), junk[:step%len(junk)])
		m.run(m.now + m.dt)
	}
	if f := m.check(); f < 150 {
		t.Fatalf("only %d turns", f)
	}
	if st := probe.Transport(m.peers[0].sess); st.Unknown == 0 {
		t.Fatal("no garbage datagram was counted")
	}
	if ps := probe.Peer(m.peers[1].sess, 0); ps.Replayed == 0 {
		t.Fatal("no duplicated datagram was dropped as a replay")
	}
}
