package endpoint

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
)

// TestHelloFlood floods an endpoint with valid Hellos, each with a fresh
// sequence number and nonce: from an address outside the peer table (no
// answer at all) and from a peer's address with the right token (answers
// rate-limited, each smaller than the Hello). The endpoint's state does not
// grow: Poll allocates nothing while it drops them.
func TestHelloFlood(t *testing.T) {
	t.Run("known address", func(t *testing.T) {
		m := connected(t)
		flooder, victim := m.nodes[0].conn, m.nodes[1]
		h := wire.Hello{Protocol: wire.Protocol, Config: victim.ep.Config().Digest}
		var sent, sentBytes, replies, replyBytes int
		buf := make([]byte, transport.MaxDatagram)
		start := m.net.Now()
		for now := start; now < start+time.Second; now += ms {
			for range 20 {
				h.Nonce = uint64(sent)
				p, _ := wire.AppendHello(nil, testKey, 1_000_000+uint64(sent), &h)
				rawSend(t, flooder, 1, p)
				sent++
				sentBytes += len(p)
			}
			m.net.RunUntil(now)
			mustPoll(t)(victim.ep.Poll(now, nil))
			// Drain what the flooder's address receives (node 0 is silent).
			for {
				n, _, ok, err := flooder.Receive(buf)
				if err != nil || !ok {
					break
				}
				if hd, err := wire.ParseHeader(buf[:n], testKey, nil); err == nil && hd.Type == wire.TypeHelloReply {
					replies++
					replyBytes += n
					if n > wire.HelloSize {
						t.Fatalf("a %d-byte reply to a %d-byte Hello", n, wire.HelloSize)
					}
				}
			}
		}
		// One answer per HelloInterval/2 = 50 ms at most.
		if replies == 0 || replies > 21 || replyBytes >= sentBytes {
			t.Errorf("%d Hellos (%d bytes) got %d replies (%d bytes), want 1..21 replies", sent, sentBytes, replies, replyBytes)
		}
		s, _ := victim.ep.Peer(0)
		if s.Limited == 0 || s.State != StateConnected {
			t.Errorf("Limited = %d, state %v; want some, connected", s.Limited, s.State)
		}
		t.Logf("%d Hellos, %d B in; %d replies, %d B out", sent, sentBytes, replies, replyBytes)
	})
	t.Run("no growth", func(t *testing.T) {
		ep, conn := floodEndpoint(t)
		for _, src := range []transport.Addr{9, 1} { // unknown, then the peer
			conn.from = src
			mustPoll(t)(ep.Poll(0, nil)) // warm up
			now := time.Duration(0)
			got := testing.AllocsPerRun(100, func() {
				now += time.Millisecond
				if _, err := ep.Poll(now, nil); err != nil {
					t.Fatal(err)
				}
			})
			if got != 0 {
				t.Errorf("Poll of %d Hellos from %v: %v allocs per run, want 0", ep.cfg.MaxPoll, src, got)
			}
		}
		st := ep.Stats()
		if st.Unknown == 0 || st.Peers[0].Limited == 0 || st.Peers[0].RepliesSent > 101 {
			t.Errorf("stats %+v", st)
		}
	})
}

// floodConn is a Conn that delivers an endless stream of distinct valid
// Hellos from one address and counts what is sent.
type floodConn struct {
	from  transport.Addr
	seq   uint64
	hello wire.Hello
	sent  int
}

func (c *floodConn) Receive(buf []byte) (int, transport.Addr, bool, error) {
	c.seq++
	c.hello.Nonce = c.seq
	p, _ := wire.AppendHello(buf[:0], testKey, c.seq, &c.hello)
	return len(p), c.from, true, nil
}

func (c *floodConn) Send(transport.Addr, []byte) error { c.sent++; return nil }
func (c *floodConn) Close() error                      { return nil }

func floodEndpoint(t *testing.T) (*Endpoint[slotInput], *floodConn) {
	c := testConfig(t, 2, 1)
	conn := &floodConn{hello: wire.Hello{Protocol: wire.Protocol, Config: c.Digest}}
	ep, err := New[slotInput](c, conn, []transport.Addr{1})
	if err != nil {
		t.Fatal(err)
	}
	return ep, conn
}

// TestSteadyStateAllocs checks that a round of a connected pair — Send an
// engine message, move virtual time, Poll it into a Receiver, Tick —
// allocates nothing after warm-up.
func TestSteadyStateAllocs(t *testing.T) {
	t.Run("endpoint", func(t *testing.T) {
		m := connected(t)
		var sink discard
		msgs := make([]engine.Outgoing[slotInput], 1)
		var msg engine.Message[slotInput]
		msg.Inputs = []engine.InputRun[slotInput]{{Player: 0, Values: make([]slotInput, 6)}}
		msgs[0] = engine.Outgoing[slotInput]{To: 0, Message: &msg}
		now := m.net.Now()
		round := func() {
			now += time.Second / 60
			msg.Frame++
			msg.Inputs[0].Start = msg.Frame
			msg.Inputs[0].Values[msg.Frame%6].Value++
			msg.Stamp, msg.Echo, msg.HasEcho = now, now-50*ms, true
			m.net.RunUntil(now)
			for _, nd := range m.nodes {
				if _, err := nd.ep.Poll(now, &sink); err != nil {
					t.Fatal(err)
				}
				if err := nd.ep.Send(now, msgs); err != nil {
					t.Fatal(err)
				}
				if err := nd.ep.Tick(now); err != nil {
					t.Fatal(err)
				}
				nd.ep.Events()
			}
		}
		for range 1000 {
			round()
		}
		if got := testing.AllocsPerRun(1000, round); got != 0 {
			t.Errorf("Poll+Send+Tick round: %v allocs per run, want 0", got)
		}
		if sink.n == 0 {
			t.Errorf("no message was received")
		}
	})
	t.Run("with engines", func(t *testing.T) {
		m, frame := enginePair(t)
		for range 600 {
			frame()
		}
		if got := testing.AllocsPerRun(600, frame); got != 0 {
			t.Errorf("host loop frame of two engines: %v allocs per run, want 0", got)
		}
		if s, _ := m.nodes[0].ep.Peer(0); s.State != StateConnected || s.InputsReceived < 1000 {
			t.Errorf("peer %v, %d input packets received", s.State, s.InputsReceived)
		}
	})
}

// discard is a Receiver that counts messages.
type discard struct{ n int }

func (d *discard) Receive(time.Duration, core.PeerID, *engine.Message[slotInput]) error {
	d.n++
	return nil
}

// garbageConn is a Conn that delivers an endless stream of datagrams that
// fail the header checks, alternately from the one known peer (address 1)
// and from a stranger (address 99): random bytes, a valid first byte with
// a wrong tag, another match's packets, a truncated header.
type garbageConn struct {
	r     *rand.Rand
	n     int
	other []byte // a valid Input packet of another match
}

func (c *garbageConn) Receive(buf []byte) (int, transport.Addr, bool, error) {
	c.n++
	from := transport.Addr(1)
	if c.n%2 == 0 {
		from = 99
	}
	switch c.n % 5 {
	case 0: // random bytes
		k := 1 + c.r.IntN(64)
		for i := range k {
			buf[i] = byte(c.r.Uint32())
		}
		return k, from, true, nil
	case 1: // a plausible Input header with a random body and tag
		k := 8 + c.r.IntN(40)
		for i := range k {
			buf[i] = byte(c.r.Uint32())
		}
		buf[0] = wire.Version<<6 | byte(wire.TypeInput)<<3
		return k, from, true, nil
	case 2: // another match's valid packet
		return copy(buf, c.other), from, true, nil
	case 3: // a truncated header
		buf[0] = wire.Version<<6 | byte(wire.TypeHello)<<3
		return 5, from, true, nil
	default: // a bad version
		buf[0], buf[1] = 0x01, 0x02
		return 2, from, true, nil
	}
}

func (c *garbageConn) Send(transport.Addr, []byte) error { return nil }
func (c *garbageConn) Close() error                      { return nil }

// TestGarbageFloodAllocs checks that a flood of datagrams rejected for
// their header (random bytes, wrong tags, another match's packets,
// truncated headers, bad versions), from a known peer and from strangers,
// costs Poll no allocation: the rejections are preallocated errors.
func TestGarbageFloodAllocs(t *testing.T) {
	codec, _ := wire.NewCodec[slotInput]()
	other, _, err := codec.AppendInput(nil, wire.NewKey(testToken+1), 5, &engine.Message[slotInput]{Frame: 1})
	if err != nil {
		t.Fatal(err)
	}
	conn := &garbageConn{r: rand.New(rand.NewPCG(1, 2)), other: other}
	ep, err := New[slotInput](testConfig(t, 2, 1), conn, []transport.Addr{1})
	if err != nil {
		t.Fatal(err)
	}
	var sink discard
	poll := func() {
		if _, err := ep.Poll(0, &sink); err != nil {
			t.Fatal(err)
		}
	}
	poll()
	if got := testing.AllocsPerRun(100, poll); got != 0 {
		t.Errorf("Poll of %d garbage datagrams: %v allocs per run, want 0", ep.Config().MaxPoll, got)
	}
	s, _ := ep.Peer(0)
	if s.WrongToken == 0 || s.Malformed == 0 || sink.n != 0 {
		t.Errorf("peer stats %+v, %d messages received", s, sink.n)
	}
}
