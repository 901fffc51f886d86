package endpoint

import (
	"slices"
	"testing"
	"time"

	"github.com/rollstep/rollstep/internal/hostile"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
)

// The modes of FuzzPollStrangers: what the endpoint's only peer, whose
// Hello nonce is 99 and who sits at address 1, is doing when the
// strangers' datagrams arrive.
const (
	peerConnected   = iota // heard a moment ago
	peerInterrupted        // silent past InterruptTimeout: it may rebind
	peerWaiting            // never heard: a first contact may adopt it
	peerModes
)

// FuzzPollStrangers feeds datagrams from addresses the endpoint does not
// know (provisional peers of a Rebinder and Forgetter Conn), signed again
// after mutation under the token's key when resign is set, so that
// mutated Hellos reach first contact, Rebind and Forget. Whatever they
// hold:
//   - no datagram goes to any address but the peer's, and nothing is
//     answered before a Hello passed the tag;
//   - a connected peer is never moved; an interrupted one only by a Hello
//     that repeats its nonce; a waiting one at most once;
//   - every stranger that is not adopted is forgotten;
//   - Poll counts every datagram and returns no error.
func FuzzPollStrangers(f *testing.F) {
	cfg := testConfig(f, 2, 1)
	hello := func(nonce, seq uint64) []byte {
		p, _ := wire.AppendHello(nil, testKey, seq, &wire.Hello{Protocol: wire.Protocol, Nonce: nonce, Config: cfg.Digest})
		return p
	}
	for mode := range uint8(peerModes) {
		f.Add(mode, hello(99, 50), uint8(2), hello(7, 1), uint8(3), false)
		f.Add(mode, hello(99, 50), uint8(2), hello(99, 51), uint8(2), false)
		f.Add(mode, hello(99, 0), uint8(2), hello(99, 0), uint8(3), false) // a replay of the first Hello
		f.Add(mode, hello(99, 50)[:9], uint8(2), hello(5, 60)[:20], uint8(4), true)
	}
	for _, p := range validPackets(f, 10) {
		f.Add(uint8(peerInterrupted), p, uint8(2), p[:len(p)-wire.TagSize], uint8(3), true)
	}
	f.Fuzz(func(t *testing.T, mode uint8, a []byte, fromA uint8, b []byte, fromB uint8, resign bool) {
		if len(a) > transport.MaxDatagram || len(b) > transport.MaxDatagram {
			return
		}
		mode %= peerModes
		ep, conn, now := strangersPeer(t, mode)
		if resign {
			sign := func(p []byte) (wire.Key, uint64, bool) {
				return testKey, 100, true // newer than anything the peer sent
			}
			a = hostile.Resign(append(slices.Clone(a), 0, 0, 0, 0), sign)
			b = hostile.Resign(append(slices.Clone(b), 0, 0, 0, 0), sign)
		}
		before := ep.Stats().Unknown
		for k, d := range []struct {
			p    []byte
			from transport.Addr
		}{{a, 2 + transport.Addr(fromA%4)}, {b, 2 + transport.Addr(fromB%4)}} {
			conn.from, conn.queue = d.from, [][]byte{d.p}
			n, err := ep.Poll(now+time.Duration(k)*ms, nil)
			if n != 1 || err != nil {
				t.Fatalf("Poll = %d, %v; want 1, nil", n, err)
			}
		}
		for _, to := range conn.sentTo {
			if to != 1 {
				t.Fatalf("sent to address %d: only the peer's (1) may be answered", to)
			}
		}
		adopted := len(conn.rebinds)
		switch {
		case mode == peerConnected && adopted != 0:
			t.Fatalf("a connected peer was moved: %v", conn.rebinds)
		case mode == peerWaiting && adopted > 1:
			t.Fatalf("a waiting peer was moved twice: %v", conn.rebinds)
		case adopted == 0 && len(conn.sent) != 0:
			t.Fatalf("%d datagrams answered, no stranger adopted", len(conn.sent))
		}
		for _, r := range conn.rebinds {
			if r[0] != 1 {
				t.Fatalf("Rebind(%d, %d): only the peer at 1 exists", r[0], r[1])
			}
		}
		if got, want := len(conn.forgot), int(ep.Stats().Unknown-before)-adopted; got != want {
			t.Fatalf("%d strangers forgotten, want %d (%d unknown, %d adopted)", got, want, ep.Stats().Unknown-before, adopted)
		}
	})
}

// strangersPeer returns an endpoint whose only peer, nonce 99 at address
// 1, is in the given mode of FuzzPollStrangers, over a Conn with nothing
// sent, rebound or forgotten yet, and the time to poll it at.
func strangersPeer(t *testing.T, mode uint8) (*Endpoint[slotInput], *rebindConn, time.Duration) {
	cfg := testConfig(t, 2, 1)
	conn := &rebindConn{forgetConn: forgetConn{scriptConn: scriptConn{from: 1}}}
	ep, err := New[slotInput](cfg, conn, []transport.Addr{1})
	if err != nil {
		t.Fatal(err)
	}
	now := 10 * ms
	if mode == peerWaiting {
		mustNil(t, ep.Tick(0))
	} else {
		scriptedHandshake(t, ep, &conn.scriptConn, now, nil)
	}
	if mode == peerInterrupted {
		now += ep.Config().InterruptTimeout + 10*ms
		mustNil(t, ep.Tick(now))
		if ep.State(0) != StateInterrupted {
			t.Fatalf("state %v after %v of silence, want interrupted", ep.State(0), now)
		}
	}
	ep.Events()
	conn.sent, conn.sentTo, conn.rebinds, conn.forgot = nil, nil, nil, nil
	return ep, conn, now
}
