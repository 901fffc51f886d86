package endpoint

import (
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/connhook"
	"github.com/rollstep/rollstep/transport"
)

// heldConn is a Conn that can batch: between Hold and Flush it keeps what
// Send gets, and its Flush refuses the datagrams to the addresses in
// refuse, with their errors.
type heldConn struct {
	held   bool
	fail   func(to transport.Addr, n int, err error)
	queue  []transport.Addr
	lens   []int
	sent   []transport.Addr
	refuse map[transport.Addr]error
}

func (c *heldConn) Send(to transport.Addr, p []byte) error {
	if c.held {
		c.queue, c.lens = append(c.queue, to), append(c.lens, len(p))
		return nil
	}
	c.sent = append(c.sent, to)
	return nil
}

func (c *heldConn) Receive([]byte) (int, transport.Addr, bool, error) { return 0, 0, false, nil }
func (c *heldConn) Close() error                                      { return nil }

func (c *heldConn) Hold(fail func(to transport.Addr, n int, err error)) { c.held, c.fail = true, fail }

func (c *heldConn) Flush() {
	for i, to := range c.queue {
		if err, ok := c.refuse[to]; ok {
			c.fail(to, c.lens[i], err)
			continue
		}
		c.sent = append(c.sent, to)
	}
	c.queue, c.lens, c.held = c.queue[:0], c.lens[:0], false
}

// withBatch makes connhook.UDPBatch hand out c's Batch for the test.
func withBatch(t *testing.T, c *heldConn) {
	old := connhook.UDPBatch
	connhook.UDPBatch = func(x transport.Conn) (connhook.Batch, bool) {
		if x == transport.Conn(c) {
			return c, true
		}
		return nil, false
	}
	t.Cleanup(func() { connhook.UDPBatch = old })
}

func TestHeldSendsAreCountedAsTheyFare(t *testing.T) {
	c := &heldConn{refuse: map[transport.Addr]error{
		2: syscall.ENETUNREACH, // transient: counted, not returned
		3: syscall.EBADF,       // ends the match: returned by Flush
	}}
	withBatch(t, c)
	ep, err := New[slotInput](testConfig(t, 4, 1), c, []transport.Addr{1, 2, 3})
	require.NoError(t, err)

	ep.Hold()
	require.NoError(t, ep.Tick(0), "held sends are not failures yet") // a Hello to each peer
	assert.Empty(t, c.sent, "nothing goes out before Flush")
	assert.ErrorIs(t, ep.Flush(), syscall.EBADF)
	assert.Equal(t, []transport.Addr{1}, c.sent)

	for i, want := range []struct {
		sent, errors uint64
		err          error
	}{{1, 0, nil}, {0, 1, syscall.ENETUNREACH}, {0, 1, syscall.EBADF}} {
		st, ok := ep.Peer(core.PeerID(i))
		require.True(t, ok)
		assert.Equal(t, want.sent, st.PacketsSent, "peer %d: packets sent", i)
		assert.Equal(t, want.errors, st.SendErrors, "peer %d: send errors", i)
		assert.Equal(t, want.err, ep.peers[i].sendErr, "peer %d: the error kept for its timeout", i)
		if want.sent == 0 {
			assert.Zero(t, st.BytesSent, "peer %d: bytes of a refused datagram", i)
		}
	}
	assert.NoError(t, ep.Flush(), "a refusal is returned once")

	// Without Hold, the Conn writes at once: the Hellos repeat.
	c.refuse = nil
	require.NoError(t, ep.Tick(time.Second))
	assert.Equal(t, []transport.Addr{1, 1, 2, 3}, c.sent)
}
