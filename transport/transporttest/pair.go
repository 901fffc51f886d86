package transporttest

import (
	"testing"

	"github.com/rollstep/rollstep/transport"
)

// Pair is two connected Conns under test, made afresh for each subtest.
// The path between them must be lossless, in order and free of
// duplicates for the datagrams the suite sends (a few dozen at a time).
type Pair struct {
	// A and B are the two Conns.
	A, B transport.Conn
	// ToB is the Addr A sends to in order to reach B.
	ToB transport.Addr
	// ToA is the Addr B sends to in order to reach A. B's Receive must
	// report it as the sender of A's datagrams, and A's Receive must
	// report ToB as the sender of B's.
	ToA transport.Addr
	// Settle lets datagrams sent so far make progress towards arrival:
	// a simulated network advances its virtual time, a real one may sleep
	// briefly. The suite calls it repeatedly, up to SettleAttempts times,
	// while it waits for a datagram, and calls it before it checks that
	// nothing has arrived.
	Settle func()
}

// SettleAttempts is how many times the suite calls Pair.Settle while
// waiting for one datagram before it reports the datagram lost.
const SettleAttempts = 100

// TestConn runs the conformance suite against the Conns that makePair
// returns, as named subtests of t. makePair is called once per subtest,
// with that subtest's *testing.T.
func TestConn(t *testing.T, makePair func(t *testing.T) Pair) {
	t.Helper()
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			p := makePair(t)
			if p.A == nil || p.B == nil || p.Settle == nil {
				t.Fatal("makePair returned a Pair with a nil A, B or Settle")
			}
			c.run(t, p)
		})
	}
}

// check is one subtest of the suite.
type check struct {
	name string
	run  func(t *testing.T, p Pair)
}

// datagram is a received datagram, copied out of the receive buffer.
type datagram struct {
	data []byte
	from transport.Addr
}

// receive waits for one datagram on c, settling the pair between attempts,
// and fails the test if none arrives or Receive fails.
func receive(t *testing.T, p Pair, c transport.Conn) datagram {
	t.Helper()
	buf := make([]byte, transport.MaxDatagram)
	for range SettleAttempts {
		n, from, ok, err := c.Receive(buf)
		if err != nil {
			t.Fatalf("Receive: got error %v, want a datagram", err)
		}
		if ok {
			return datagram{data: append([]byte{}, buf[:n]...), from: from}
		}
		p.Settle()
	}
	t.Fatalf("Receive: no datagram after %d calls to Settle", SettleAttempts)
	return datagram{}
}

// expectNothing settles the pair and fails the test if c has a datagram.
func expectNothing(t *testing.T, p Pair, c transport.Conn) {
	t.Helper()
	p.Settle()
	buf := make([]byte, transport.MaxDatagram)
	n, from, ok, err := c.Receive(buf)
	if ok || err != nil || n != 0 {
		t.Fatalf("Receive: got (n=%d, from=%v, ok=%v, err=%v), want (0, _, false, nil): nothing was sent", n, from, ok, err)
	}
}

// send calls c.Send and fails the test on error.
func send(t *testing.T, c transport.Conn, to transport.Addr, b []byte) {
	t.Helper()
	if err := c.Send(to, b); err != nil {
		t.Fatalf("Send(%v, %d bytes): %v", to, len(b), err)
	}
}

// pattern returns n bytes that depend on seed, so that datagrams differ.
func pattern(n int, seed byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = seed + byte(i*7)
	}
	return b
}
