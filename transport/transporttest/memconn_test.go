package transporttest_test

import (
	"fmt"
	"testing"

	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/transporttest"
)

// memConn is a minimal in-memory Conn, the smallest implementation that
// keeps the contract: it checks the suite against something other than
// transport/sim. Peer 0 and peer 1 deliver into each other's queue at once.
type memConn struct {
	self   transport.Addr
	peer   *memConn
	queue  [][]byte
	closed bool
}

func (c *memConn) Send(to transport.Addr, p []byte) error {
	switch {
	case c.closed:
		return transport.ErrClosed
	case len(p) > transport.MaxDatagram:
		return fmt.Errorf("%w: %d bytes, over the %d-byte limit", transport.ErrDatagramTooLarge, len(p), transport.MaxDatagram)
	case to != c.peer.self:
		return fmt.Errorf("%w %d", transport.ErrUnknownPeer, to)
	}
	if !c.peer.closed {
		c.peer.queue = append(c.peer.queue, append([]byte{}, p...))
	}
	return nil
}

func (c *memConn) Receive(buf []byte) (int, transport.Addr, bool, error) {
	switch {
	case c.closed:
		return 0, 0, false, transport.ErrClosed
	case len(c.queue) == 0:
		return 0, 0, false, nil
	case len(c.queue[0]) > len(buf):
		return 0, 0, false, fmt.Errorf("%w: %d bytes for a datagram of %d bytes", transport.ErrShortBuffer, len(buf), len(c.queue[0]))
	}
	n := copy(buf, c.queue[0])
	c.queue = c.queue[1:]
	return n, c.peer.self, true, nil
}

func (c *memConn) Close() error {
	if c.closed {
		return transport.ErrClosed
	}
	c.closed, c.queue = true, nil
	return nil
}

func TestMemConn(t *testing.T) {
	transporttest.TestConn(t, func(t *testing.T) transporttest.Pair {
		a, b := &memConn{self: 10}, &memConn{self: 20}
		a.peer, b.peer = b, a
		return transporttest.Pair{A: a, B: b, ToB: 20, ToA: 10, Settle: func() {}}
	})
}
