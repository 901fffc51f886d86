package bench

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/transport"
)

// memConn is an in-memory transport.Conn that allocates nothing: Send
// copies the datagram into the other end's fixed queue at once (so the
// path is lossless and has no latency), Receive copies it out.
type memConn struct {
	self, to transport.Addr
	peer     *memConn
	slots    [16]struct {
		n   int
		buf [transport.MaxDatagram]byte
	}
	head, n int
}

func memPair() (*memConn, *memConn) {
	a, b := &memConn{self: 1, to: 2}, &memConn{self: 2, to: 1}
	a.peer, b.peer = b, a
	return a, b
}

func (c *memConn) Send(to transport.Addr, p []byte) error {
	if to != c.to || len(p) > transport.MaxDatagram {
		return transport.ErrUnknownPeer
	}
	q := c.peer
	if q.n == len(q.slots) { // full: the oldest goes, as a socket queue would drop
		q.head, q.n = (q.head+1)%len(q.slots), q.n-1
	}
	s := &q.slots[(q.head+q.n)%len(q.slots)]
	s.n = copy(s.buf[:], p)
	q.n++
	return nil
}

func (c *memConn) Receive(buf []byte) (int, transport.Addr, bool, error) {
	if c.n == 0 {
		return 0, 0, false, nil
	}
	s := &c.slots[c.head]
	if len(buf) < s.n {
		return 0, 0, false, transport.ErrShortBuffer
	}
	c.head, c.n = (c.head+1)%len(c.slots), c.n-1
	return copy(buf, s.buf[:s.n]), c.to, true, nil
}

func (c *memConn) Close() error { return nil }

// sessionDelay is the fixed input delay of both sides of
// BenchmarkSession: with instant delivery, two frames of delay mean that
// neither side ever predicts, so neither rolls back.
const sessionDelay = 2

// sessionPair is two Rollback sessions of the mix game over a memConn
// pair: peer 0 runs first in every frame, then peer 1.
type sessionPair struct {
	s     [2]*rollstep.Session[mixState, uint32]
	now   time.Duration
	tick  time.Duration
	frame [2]core.Frame
}

func newSessionPair(tb testing.TB) *sessionPair {
	a, b := memPair()
	conns := [2]*memConn{a, b}
	sp := &sessionPair{tick: time.Second / 60}
	for i := range 2 {
		cfg := rollstep.Config{Mode: rollstep.Rollback, TickRate: 60, Inputs: rollstep.Held,
			InputDelay: sessionDelay, FixedDelay: true,
			Local: []core.PlayerHandle{core.PlayerHandle(i)},
			Peers: []rollstep.Peer{{Addr: conns[i].to, Players: []core.PlayerHandle{core.PlayerHandle(1 - i)}}},
			Game:  core.GameVersion("bench mix")}
		s, err := rollstep.NewSession(cfg, core.Game[mixState, uint32](mix{}), mixState{}, conns[i])
		if err != nil {
			tb.Fatal(err)
		}
		sp.s[i] = s
	}
	return sp
}

// step runs one frame period of both game loops (input, Update, events)
// and returns the time they took together.
func (sp *sessionPair) step() time.Duration {
	sp.now += sp.tick
	t0 := time.Now()
	for i, s := range sp.s {
		p := core.PlayerHandle(i)
		_ = s.AddLocalInput(p, mixInputs(p, sp.frame[i]+sessionDelay))
		_ = s.Update(sp.now)
		s.Events()
	}
	d := time.Since(t0)
	for i, s := range sp.s {
		sp.frame[i] = s.Frame()
	}
	return d
}

// enginePair is BenchmarkSession's baseline: the two engines the sessions
// wrap, configured alike, passing each other's messages by pointer in the
// same order, with no transport, codec, endpoint or session around them.
type enginePair struct {
	e     [2]*engine.Engine[mixState, uint32]
	now   time.Duration
	tick  time.Duration
	inbox [2]engine.Message[engine.Slot[uint32]]
	has   [2]bool
}

func newEnginePair(tb testing.TB) *enginePair {
	ep := &enginePair{tick: time.Second / 60}
	for i := range 2 {
		cc := engine.Config{Players: 2, Local: []core.PlayerHandle{core.PlayerHandle(i)},
			Peers:      [][]core.PlayerHandle{{core.PlayerHandle(1 - i)}},
			InputDelay: sessionDelay, MaxInputDelay: sessionDelay, Prediction: 8, MaxPrediction: 8, ChecksumInterval: 1,
			// The session's engine keeps 30 s of confirmed inputs, from
			// which a rejoining peer's handoff is built.
			LogRetention: 30 * 60}
		var s mixState
		e, err := engine.NewEngine[mixState, uint32](cc, mix{}, &s)
		if err != nil {
			tb.Fatal(err)
		}
		ep.e[i] = e
	}
	return ep
}

func (ep *enginePair) step() time.Duration {
	ep.now += ep.tick
	t0 := time.Now()
	for i, e := range ep.e {
		if ep.has[i] {
			_ = e.Receive(ep.now, 0, &ep.inbox[i])
			ep.has[i] = false
		}
		p := core.PlayerHandle(i)
		_ = e.AddLocalInput(p, mixInputs(p, e.Frame()+sessionDelay))
		r := e.Advance(ep.now)
		for _, o := range r.Messages {
			copyMessage(&ep.inbox[1-i], o.Message)
			ep.has[1-i] = true
		}
	}
	return time.Since(t0)
}

// BenchmarkSession is the session's cost over the engine: two Rollback
// sessions of the mix game over an in-memory Conn (the wire codec, the
// packet tags, the endpoint, delay control, timesync and stats), beside
// the two engines they wrap exchanging messages directly, alternating
// frame by frame in the same run. Neither pair rolls back. One op is one
// frame of both peers of both pairs; the metrics are per peer-frame, from
// the median frames. over-engine-ns is the gate's metric: what a session
// adds to each peer's frame.
func BenchmarkSession(b *testing.B) {
	sp, ep := newSessionPair(b), newEnginePair(b)
	for range 240 { // handshake, start, and a warm steady state
		sp.step()
		ep.step()
	}
	if !sp.s[0].Stats().Started || !sp.s[1].Stats().Started {
		b.Fatal("the sessions did not start in 240 frames")
	}
	st0 := [2]rollstep.Stats{sp.s[0].Stats(), sp.s[1].Stats()}
	var sess, eng hist
	frames := 0
	b.ReportAllocs()
	for b.Loop() {
		sess.add(sp.step())
		eng.add(ep.step())
		frames++
	}
	for i, s := range sp.s {
		st := s.Stats()
		if rb := st.Rollbacks - st0[i].Rollbacks; rb != 0 {
			b.Fatalf("peer %d rolled back %d times in %d frames; the baseline never does", i, rb, frames)
		}
		if got := st.Frame - st0[i].Frame; int(got) < frames-1 {
			b.Fatalf("peer %d ran %d frames in %d periods", i, got, frames)
		}
	}
	se, en := float64(sess.quantile(0.5))/2, float64(eng.quantile(0.5))/2
	b.ReportMetric(se, "session-ns/peer-frame")
	b.ReportMetric(en, "engine-ns/peer-frame")
	b.ReportMetric(se-en, "over-engine-ns")
	b.ReportMetric(se/max(en, 1), "x-engine")
}

func TestSessionPairPlays(t *testing.T) {
	sp := newSessionPair(t)
	for range 600 {
		sp.step()
	}
	a, b := sp.s[0], sp.s[1]
	if !a.Stats().Started || a.Frame() < 590 {
		t.Fatalf("peer 0 at frame %d after 600 periods (started %v)", a.Frame(), a.Stats().Started)
	}
	if a.Frame() != b.Frame() || *a.State() != *b.State() {
		t.Errorf("peers at frames %d and %d; states equal %v", a.Frame(), b.Frame(), *a.State() == *b.State())
	}
	sa, sb := a.Stats(), b.Stats()
	if sa.Rollbacks != 0 || sb.Rollbacks != 0 {
		t.Errorf("rollbacks %d and %d over a lossless, instant link at delay %d", sa.Rollbacks, sb.Rollbacks, sessionDelay)
	}
	if sa.Desyncs != 0 || sb.Desyncs != 0 || sa.Checksums == 0 {
		t.Errorf("checksums compared %d, desyncs %d and %d", sa.Checksums, sa.Desyncs, sb.Desyncs)
	}
	allocs := testing.AllocsPerRun(200, func() { sp.step() })
	if allocs != 0 {
		t.Errorf("a steady-state frame of two sessions allocates %v times", allocs)
	}
}
