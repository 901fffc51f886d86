package endpoint

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/wire"
)

const ms = time.Millisecond

func TestKeepAlive(t *testing.T) {
	t.Run("idle", func(t *testing.T) {
		m := connected(t) // connected at 40 ms, now 100 ms
		m.run(2*time.Second, ms)
		for i, nd := range m.nodes {
			s, _ := nd.ep.Peer(0)
			// Sent at 240, 440, ..., 1840 ms: every 200 ms after the
			// connection, and never answered (each side sent within 100 ms).
			if s.KeepAlivesSent != 9 {
				t.Errorf("node %d sent %d keep-alives in 2 s, want 9", i, s.KeepAlivesSent)
			}
			if s.RTTSamples == 0 || s.RTT != 40*ms {
				t.Errorf("node %d: RTT %v from %d samples, want 40ms", i, s.RTT, s.RTTSamples)
			}
			if len(nd.events) != 0 {
				t.Errorf("node %d events = %v, want none", i, nd.events)
			}
		}
	})
	t.Run("inputs flow", func(t *testing.T) {
		m := connected(t)
		var msg engine.Message[slotInput]
		for now := m.net.Now() + ms; now <= 2*time.Second; now += ms {
			m.step(now)
			if now%(16*ms) == 0 {
				msg.Stamp = now
				for i, nd := range m.nodes {
					msg.Inputs = []engine.InputRun[slotInput]{{Player: core.PlayerHandle(i), Start: msg.Frame, Values: []slotInput{{Value: 1}}}}
					mustNil(t, nd.ep.Send(now, []engine.Outgoing[slotInput]{{To: 0, Message: &msg}}))
				}
				msg.Frame++
			}
		}
		for i, nd := range m.nodes {
			s, _ := nd.ep.Peer(0)
			if s.KeepAlivesSent != 0 || s.InputsSent == 0 {
				t.Errorf("node %d sent %d keep-alives and %d inputs, want 0 and some", i, s.KeepAlivesSent, s.InputsSent)
			}
			if got := uint64(len(nd.rx.msgs)); got != s.InputsReceived || got < 100 {
				t.Errorf("node %d received %d messages, InputsReceived %d", i, got, s.InputsReceived)
			}
		}
	})
	t.Run("answered", func(t *testing.T) {
		// Node 1 stays silent except for answers: node 0's keep-alives are
		// answered at once, so node 0 measures the RTT.
		m := connected(t)
		a, b := m.nodes[0], m.nodes[1]
		for now := m.net.Now() + ms; now <= time.Second; now += ms {
			m.net.RunUntil(now)
			mustPoll(t)(a.ep.Poll(now, nil))
			mustNil(t, a.ep.Tick(now))
			mustPoll(t)(b.ep.Poll(now, nil)) // b never ticks
		}
		sa, _ := a.ep.Peer(0)
		sb, _ := b.ep.Peer(0)
		if sb.KeepAlivesSent == 0 || sb.KeepAlivesSent > sa.KeepAlivesSent {
			t.Errorf("node 1 answered %d of %d keep-alives", sb.KeepAlivesSent, sa.KeepAlivesSent)
		}
		if sa.RTT != 40*ms {
			t.Errorf("node 0 RTT = %v, want 40ms", sa.RTT)
		}
	})
}

// silentPeer returns a connected mesh in which only node 0 runs from now
// on, and the time node 0 last heard node 1.
func silentPeer(t *testing.T) (*mesh, time.Duration) {
	m := connected(t)
	s, _ := m.nodes[0].ep.Peer(0)
	return m, s.LastHeard
}

// tick0 advances the network and node 0 alone to now.
func tick0(t *testing.T, m *mesh, now time.Duration) []Event {
	t.Helper()
	m.net.RunUntil(now)
	mustPoll(t)(m.nodes[0].ep.Poll(now, nil))
	mustNil(t, m.nodes[0].ep.Tick(now))
	return m.nodes[0].ep.Events()
}

func TestSilence(t *testing.T) {
	t.Run("boundaries", func(t *testing.T) {
		m, heard := silentPeer(t)
		for _, c := range []struct {
			at   time.Duration
			want []Event
		}{
			{heard + 499*ms, nil},
			{heard + 500*ms, []Event{{Kind: EventInterrupted, At: heard + 500*ms}}},
			{heard + 2499*ms, nil},
			{heard + 2500*ms, []Event{{Kind: EventDisconnected, At: heard + 2500*ms}}},
			{heard + 10*time.Second, nil},
		} {
			if got := tick0(t, m, c.at); !slices.Equal(got, c.want) {
				t.Errorf("Tick(%v) events = %v, want %v", c.at, got, c.want)
			}
		}
		if st := m.nodes[0].ep.State(0); st != StateDisconnected {
			t.Errorf("state = %v, want disconnected", st)
		}
		// A disconnected peer is finished: neither answered nor sent to.
		before, _ := m.nodes[0].ep.Peer(0)
		m.step(m.net.Now() + time.Second)
		after, _ := m.nodes[0].ep.Peer(0)
		if after.PacketsSent != before.PacketsSent || len(m.nodes[0].events) != 0 {
			t.Errorf("sent %d packets and raised %v after the disconnect", after.PacketsSent-before.PacketsSent, m.nodes[0].events)
		}
	})
	t.Run("resumed", func(t *testing.T) {
		m, heard := silentPeer(t)
		if got := tick0(t, m, heard+600*ms); len(got) != 1 || got[0].Kind != EventInterrupted {
			t.Fatalf("events = %v, want interrupted", got)
		}
		if got := m.nodes[0].ep.State(0); got != StateInterrupted {
			t.Fatalf("state = %v, want interrupted", got)
		}
		// Node 1 comes back: its keep-alive arrives 20 ms after it is sent.
		back := heard + 700*ms
		m.net.RunUntil(back)
		mustNil(t, m.nodes[1].ep.Tick(back))
		want := []Event{{Kind: EventResumed, At: back + 20*ms}}
		if got := tick0(t, m, back+19*ms); len(got) != 0 {
			t.Errorf("events at %v = %v, want none", back+19*ms, got)
		}
		if got := tick0(t, m, back+20*ms); !slices.Equal(got, want) {
			t.Errorf("events = %v, want %v", got, want)
		}
		if got := m.nodes[0].ep.State(0); got != StateConnected {
			t.Errorf("state = %v, want connected", got)
		}
	})
	t.Run("handshake timeout", func(t *testing.T) {
		m := newMesh(t, 2, link20ms, nil) // node 1 never runs
		tick0(t, m, 0)
		if got := tick0(t, m, DefaultHandshakeTimeout-ms); len(got) != 0 {
			t.Errorf("events before the timeout = %v", got)
		}
		got := tick0(t, m, DefaultHandshakeTimeout)
		if len(got) != 1 || got[0].Kind != EventDisconnected || !errors.Is(got[0].Err, ErrHandshakeTimeout) {
			t.Errorf("events = %v, want disconnected with ErrHandshakeTimeout", got)
		}
	})
	t.Run("deadline", func(t *testing.T) {
		m, heard := silentPeer(t)
		at, ok := m.nodes[0].ep.Deadline()
		// Connected at 40 ms: the first keep-alive is due at 240 ms, before
		// the interruption at heard+500 ms.
		if !ok || at != 240*ms {
			t.Errorf("Deadline() = %v, %v; want 240ms, true (heard at %v)", at, ok, heard)
		}
	})
}

func TestLeave(t *testing.T) {
	m := connected(t)
	now := m.net.Now()
	mustNil(t, m.nodes[0].ep.Leave(now, wire.LeaveQuit, 77))
	m.run(now+100*ms, ms)
	want := []Event{{Kind: EventLeft, At: now + 20*ms, Reason: wire.LeaveQuit, Frame: 77}}
	if got := m.nodes[1].events; !slices.Equal(got, want) {
		t.Errorf("events = %v, want %v", got, want)
	}
	s, _ := m.nodes[1].ep.Peer(0)
	if s.State != StateLeft || s.Stale != DefaultLeaveCopies-1 {
		t.Errorf("state %v, %d stale copies; want left, %d", s.State, s.Stale, DefaultLeaveCopies-1)
	}
	var msg engine.Message[slotInput]
	mustNil(t, m.nodes[1].ep.Send(now, []engine.Outgoing[slotInput]{{To: 0, Message: &msg}}))
	if s, _ := m.nodes[1].ep.Peer(0); s.Unsent != 1 {
		t.Errorf("Unsent = %d after sending to a departed peer, want 1", s.Unsent)
	}
}

func TestDisconnect(t *testing.T) {
	m := connected(t)
	a := m.nodes[0].ep
	if err := a.Disconnect(5); !errors.Is(err, ErrUnknownPeer) {
		t.Errorf("Disconnect(5) = %v, want ErrUnknownPeer", err)
	}
	mustNil(t, a.Disconnect(0))
	before, _ := a.Peer(0)
	m.run(m.net.Now()+time.Second, ms)
	after, _ := a.Peer(0)
	// The peer, still alive, goes on sending: that is a split, reported
	// once and answered with one probe at once; the next probe waits for
	// DisconnectTimeout/2.
	if len(m.nodes[0].events) == 0 {
		t.Fatal("no event after Disconnect of a peer that goes on sending")
	}
	want := []Event{{Kind: EventSplit, Peer: 0, At: m.nodes[0].events[0].At}}
	if after.State != StateDisconnected || after.PacketsSent != before.PacketsSent+1 || !slices.Equal(m.nodes[0].events, want) {
		t.Errorf("state %v, %d packets sent, events %v after Disconnect; want disconnected, 1, one split", after.State, after.PacketsSent-before.PacketsSent, m.nodes[0].events)
	}
	if after.Stale == before.Stale {
		t.Errorf("the peer's keep-alives were not dropped as stale")
	}
	// A peer dropped by Disconnect (the others agreed it is gone) is
	// told, by the probe: it may hear this endpoint and wait for its
	// inputs for good.
	told := false
	for _, e := range m.nodes[1].events {
		told = told || e.Kind == EventDropped && errors.Is(e.Err, ErrDropped) && e.Peer == 0
	}
	if !told {
		t.Errorf("the peer dropped by Disconnect was not told: events %v", m.nodes[1].events)
	}
}

// One direction of the link fails: node 0 hears nothing and loses node 1
// to silence; node 1 still hears node 0's probes, which say node 0 lost
// it: node 1 raises EventDropped (with ErrDropped) for each, and keeps
// node 0 as it was (its front end decides). Before, nothing told node 1.
func TestProbeSaysLost(t *testing.T) {
	m := connected(t)
	m.net.Cut(m.nodes[1].conn.ID(), m.nodes[0].conn.ID())
	m.run(m.net.Now()+4*time.Second, ms)
	var lost []Event
	for _, e := range m.nodes[0].events {
		if e.Kind == EventDisconnected {
			lost = append(lost, e)
		}
	}
	if len(lost) != 1 || lost[0].Err != nil {
		t.Fatalf("node 0's disconnects %v, want one, to silence", lost)
	}
	dropped := 0
	for _, e := range m.nodes[1].events {
		switch {
		case e.Kind == EventDropped && errors.Is(e.Err, ErrDropped) && e.Peer == 0:
			dropped++
		case e.Kind == EventDisconnected || e.Kind == EventSplit || e.Kind == EventDropped:
			t.Errorf("node 1 raised %v", e)
		}
	}
	if dropped == 0 {
		t.Errorf("node 1's events %v, want EventDropped", m.nodes[1].events)
	}
	if s, _ := m.nodes[1].ep.Peer(0); s.State != StateConnected && s.State != StateInterrupted {
		t.Errorf("node 1 counts node 0 %v, want it as it was", s.State)
	}
}

// Resume takes a peer lost while alive back on its old session, once it
// was heard again on it (a split), and only then; what it sends counts
// again.
func TestResume(t *testing.T) {
	m := connected(t)
	a := m.nodes[0].ep
	now := m.net.Now()
	if a.Resume(now, 0) || a.Resume(now, 5) {
		t.Fatal("Resume took back a connected peer, or one outside the table")
	}
	mustNil(t, a.Disconnect(0))
	if a.Resume(now, 0) {
		t.Fatal("Resume took back a peer not heard since it was lost")
	}
	m.run(now+time.Second, ms) // node 1 goes on sending: a split
	before, _ := a.Peer(0)
	if !a.Resume(m.net.Now(), 0) {
		t.Fatal("Resume did not take back a lost peer heard again")
	}
	if a.Resume(m.net.Now(), 0) {
		t.Error("Resume took back a connected peer")
	}
	m.run(m.net.Now()+time.Second, ms)
	after, _ := a.Peer(0)
	if after.State != StateConnected || after.Stale != before.Stale {
		t.Errorf("after Resume: state %v, %d more packets dropped as stale; want connected, none", after.State, after.Stale-before.Stale)
	}
}

// A pending restart of the peer (a new process's Hello, answered) stops
// Resume while the new process may still prove itself, and not once it
// has been silent for a handshake timeout: a new process that stopped,
// or a replayed Hello, must not keep a peer heard again on its old
// session lost for good.
func TestResumeDropsAStaleRestart(t *testing.T) {
	m := connected(t)
	a := m.nodes[0].ep
	mustNil(t, a.Disconnect(0))
	m.run(m.net.Now()+time.Second, ms) // node 1 goes on sending: a split
	now := m.net.Now()
	a.peers[0].restart = &restart{at: now - time.Second, replied: true, lastReply: now - time.Second}
	if a.Resume(now, 0) {
		t.Fatal("Resume took back a peer whose new process's handshake is under way")
	}
	later := now + a.cfg.HandshakeTimeout
	if !a.Resume(later, 0) {
		t.Fatal("Resume kept a peer heard again lost for a restart silent for a handshake timeout")
	}
	if a.peers[0].restart != nil {
		t.Error("the stale restart is still pending")
	}
}
