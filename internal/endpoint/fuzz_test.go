package endpoint

import (
	"slices"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/hostile"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
)

// scriptConn is a Conn that delivers queued datagrams from one address
// and records the sizes of what is sent.
type scriptConn struct {
	from   transport.Addr
	queue  [][]byte
	sent   []int
	sentTo []transport.Addr
}

func (c *scriptConn) Receive(buf []byte) (int, transport.Addr, bool, error) {
	if len(c.queue) == 0 {
		return 0, 0, false, nil
	}
	p := c.queue[0]
	c.queue = c.queue[1:]
	return copy(buf, p), c.from, true, nil
}

func (c *scriptConn) Send(to transport.Addr, p []byte) error {
	c.sent = append(c.sent, len(p))
	c.sentTo = append(c.sentTo, to)
	return nil
}
func (c *scriptConn) Close() error { return nil }

// scriptedPeer returns an endpoint connected, through conn, to a scripted
// peer at address 1, with a real engine (player 0 local, player 1 the
// peer's) to receive its messages.
func scriptedPeer(t testing.TB) (*Endpoint[slotInput], *scriptConn, *engine.Engine[gameState, testInput]) {
	cfg := testConfig(t, 2, 1)
	conn := &scriptConn{from: 1}
	ep, err := New[slotInput](cfg, conn, []transport.Addr{1})
	if err != nil {
		t.Fatal(err)
	}
	c := engine.DefaultConfig()
	c.Players, c.Local, c.Peers, c.Prediction = 2, []core.PlayerHandle{0}, [][]core.PlayerHandle{{1}}, 8
	eng, err := engine.NewEngine[gameState, testInput](c, core.GameFunc[gameState, testInput](stepGame), &gameState{})
	if err != nil {
		t.Fatal(err)
	}
	scriptedHandshake(t, ep, conn, time.Millisecond, eng)
	ep.Events()
	conn.sent = conn.sent[:0]
	return ep, conn, eng
}

// scriptedHandshake ticks ep at 0 and completes, at now, its handshake
// with the scripted peer at conn's address (peer 0, Hello nonce 99): the
// peer's Hello, then its reply to ours, with inputs going to r. It returns
// the peer's Hello.
func scriptedHandshake(t testing.TB, ep *Endpoint[slotInput], conn *scriptConn, now time.Duration, r Receiver[slotInput]) []byte {
	t.Helper()
	mustNil(t, ep.Tick(0))
	cfg := ep.Config()
	hello := wire.Hello{Protocol: wire.Protocol, Nonce: 99, Config: cfg.Digest}
	reply := wire.HelloReply{Status: wire.ReplyAccept, Protocol: wire.Protocol, Nonce: ep.peers[0].nonce, Config: cfg.Digest}
	p1, _ := wire.AppendHello(nil, testKey, 0, &hello)
	p2, _ := wire.AppendHelloReply(nil, testKey, 1, &reply)
	conn.queue = append(conn.queue, p1, p2)
	mustPoll(t)(ep.Poll(now, r))
	if ep.State(0) != StateConnected {
		t.Fatalf("scripted handshake failed: %v", ep.State(0))
	}
	return p1
}

// scriptedKey is the key the scripted peer of scriptedPeer tags its
// packets to the endpoint with, but for Hellos and HelloReplies.
func scriptedKey(t testing.TB) wire.Key {
	ep, _, _ := scriptedPeer(t)
	return ep.peers[0].rxKey
}

// validPackets returns one valid packet of every type from the scripted
// peer, with sequence numbers from seq on.
func validPackets(t testing.TB, seq uint64) [][]byte {
	key := scriptedKey(t)
	d := testDigest(t, 2)
	c, _ := wire.NewCodec[slotInput]()
	msg := engine.Message[slotInput]{Frame: 3, Stamp: 5 * ms, Echo: 2 * ms, HasEcho: true,
		Inputs: []engine.InputRun[slotInput]{{Player: 1, Values: []slotInput{{Value: 1}, {Value: 1}, {Value: 2}, {Value: 3}}}}}
	msg.Held[0], msg.Held[1] = 0, 4
	var out [][]byte
	add := func(p []byte, err error) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
		seq++
	}
	p, _, err := c.AppendInput(nil, key, seq, &msg)
	add(p, err)
	// A run of 16 values, longer than the quick decoder takes: the
	// general decoder's packet.
	long := engine.Message[slotInput]{Frame: 20, Stamp: 6 * ms, Inputs: []engine.InputRun[slotInput]{{Player: 1, Start: 4}}}
	for v := range 16 {
		long.Inputs[0].Values = append(long.Inputs[0].Values, slotInput{Value: testInput(v % 5)})
	}
	long.Held[0], long.Held[1] = 0, 4
	p, _, err = c.AppendInput(nil, key, seq, &long)
	add(p, err)
	add(wire.AppendHello(nil, testKey, seq, &wire.Hello{Protocol: wire.Protocol, Nonce: 1, Config: d}))
	add(wire.AppendHelloReply(nil, testKey, seq, &wire.HelloReply{Status: wire.ReplyAccept, Protocol: wire.Protocol, Config: d}))
	add(wire.AppendKeepAlive(nil, key, seq, &wire.KeepAlive{Stamp: 7 * ms, Echo: 3 * ms, HasEcho: true}))
	add(wire.AppendKeepAlive(nil, key, seq, &wire.KeepAlive{Stamp: 8 * ms, Lost: true}))
	add(wire.AppendLeave(nil, key, seq, &wire.Leave{Reason: wire.LeaveQuit, Frame: 3}))
	add(wire.AppendHello(nil, testKey, seq, &wire.Hello{Protocol: wire.Protocol, Nonce: 9, Config: d, Rejoin: true}))
	add(wire.AppendHelloReply(nil, testKey, seq, &wire.HelloReply{Status: wire.ReplyAccept, Protocol: wire.Protocol, Config: d, Replier: 3}))
	add(wire.AppendTransfer(nil, key, seq, []byte{1, 2, 3}))
	return out
}

// FuzzPoll feeds two arbitrary datagrams from a connected peer to Poll,
// which hands input messages to a real engine. It must not panic, must
// count every datagram, must answer with at most one small datagram per
// datagram received, and must raise at most one event per datagram.
func FuzzPoll(f *testing.F) {
	ps := validPackets(f, 10)
	for i, p := range ps {
		f.Add(p, ps[(i+1)%len(ps)])
		f.Add(p, p) // a replay
		f.Add(p[:len(p)/2], p)
	}
	f.Add([]byte{}, []byte{0xA1})
	f.Fuzz(func(t *testing.T, a, b []byte) {
		pollTwo(t, a, b)
	})
}

// FuzzPollResigned is FuzzPoll with both datagrams signed again after the
// fuzzer mutated them: the tag under the key of their type (the token's
// for a Hello or HelloReply, the scripted peer's direction key otherwise)
// replaces their last bytes, and a full sequence number, so that every
// mutation of a header or body reaches the decoders and the state
// machine instead of dying at the tag. seqA and seqB are the sequence
// numbers the tags cover (and, for long headers, what the packet says).
func FuzzPollResigned(f *testing.F) {
	ps := validPackets(f, 10)
	for i, p := range ps {
		q := ps[(i+1)%len(ps)]
		f.Add(p[:len(p)-wire.TagSize], uint64(10+i), q[:len(q)-wire.TagSize], uint64(11+i))
	}
	key := scriptedKey(f)
	// sign appends a tag to body and signs it again with hostile.Resign:
	// the token's key for a Hello or HelloReply, the pair's otherwise.
	sign := func(body []byte, seq uint64) []byte {
		return hostile.Resign(append(slices.Clone(body), 0, 0, 0, 0), func(p []byte) (wire.Key, uint64, bool) {
			if wire.PacketType(p).Handshake() {
				return testKey, seq, true
			}
			return key, seq, true
		})
	}
	f.Fuzz(func(t *testing.T, a []byte, seqA uint64, b []byte, seqB uint64) {
		if len(a)+wire.TagSize > transport.MaxDatagram || len(b)+wire.TagSize > transport.MaxDatagram {
			return
		}
		pollTwo(t, sign(a, seqA), sign(b, seqB))
	})
}

// pollTwo delivers a and b from the connected scripted peer and checks
// what FuzzPoll promises.
func pollTwo(t *testing.T, a, b []byte) {
	if len(a) > transport.MaxDatagram || len(b) > transport.MaxDatagram {
		return
	}
	ep, conn, eng := scriptedPeer(t)
	conn.queue = append(conn.queue, a, b)
	n, err := ep.Poll(10*ms, eng)
	if err != nil || n != 2 {
		t.Fatalf("Poll = %d, %v; want 2, nil", n, err)
	}
	s, _ := ep.Peer(0)
	if s.PacketsReceived != 4 { // 2 for the handshake
		t.Errorf("PacketsReceived = %d, want 4", s.PacketsReceived)
	}
	if len(conn.sent) > 2 {
		t.Errorf("%d datagrams sent in answer to 2", len(conn.sent))
	}
	for _, sz := range conn.sent {
		if sz > wire.HelloSize {
			t.Errorf("a %d-byte answer", sz)
		}
	}
	if evs := ep.Events(); len(evs) > 2 {
		t.Errorf("%d events from 2 datagrams: %v", len(evs), evs)
	}
	eng.Advance(20 * ms)
	mustNil(t, ep.Tick(20*ms))
}
