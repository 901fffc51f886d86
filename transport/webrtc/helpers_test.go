package webrtc

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/transport"
)

// testWait bounds every wait of these tests.
const testWait = 20 * time.Second

// hub is an in-memory signaling service: each endpoint's messages to
// another address go to that address's queue, in order.
type hub struct {
	mu     sync.Mutex
	queues map[transport.Addr]chan note
}

type note struct {
	from transport.Addr
	p    []byte
}

func newHub() *hub { return &hub{queues: map[transport.Addr]chan note{}} }

func (h *hub) queue(a transport.Addr) chan note {
	h.mu.Lock()
	defer h.mu.Unlock()
	q := h.queues[a]
	if q == nil {
		q = make(chan note, 1024)
		h.queues[a] = q
	}
	return q
}

// endpoint is the Signaler of address self on h.
func (h *hub) endpoint(self transport.Addr) *hubSignaler { return &hubSignaler{h: h, self: self} }

type hubSignaler struct {
	h    *hub
	self transport.Addr
	// drop, when set, swallows what this endpoint sends.
	drop bool
}

func (s *hubSignaler) Send(to transport.Addr, p []byte) error {
	if s.drop {
		return nil
	}
	s.h.queue(to) <- note{from: s.self, p: append([]byte(nil), p...)}
	return nil
}

func (s *hubSignaler) Receive(ctx context.Context) (transport.Addr, []byte, error) {
	select {
	case n := <-s.h.queue(s.self):
		return n.from, n.p, nil
	case <-ctx.Done():
		return 0, nil, ctx.Err()
	}
}

// mesh connects a Conn for each address over one hub and waits until
// every channel is open.
func mesh(t testing.TB, addrs ...transport.Addr) []*Conn {
	t.Helper()
	h := newHub()
	conns := make([]*Conn, len(addrs))
	for i, a := range addrs {
		var peers []transport.Addr
		for _, b := range addrs {
			if b != a {
				peers = append(peers, b)
			}
		}
		c, err := New(Config{Self: a, Peers: peers, Signaler: h.endpoint(a), loopback: true})
		require.NoError(t, err)
		t.Cleanup(func() { _ = c.Close() })
		conns[i] = c
	}
	for i, c := range conns {
		for _, b := range c.cfg.Peers {
			awaitState(t, c, b, Open, fmt.Sprintf("conn %d", i))
		}
	}
	return conns
}

// awaitState waits until c's connection to a is in state want.
func awaitState(t testing.TB, c *Conn, a transport.Addr, want State, what string) {
	t.Helper()
	deadline := time.Now().Add(testWait)
	for {
		s, err := c.PeerState(a)
		if s == want {
			return
		}
		if s == Failed && want != Failed {
			t.Fatalf("%s: peer %d failed: %v", what, a, err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: peer %d is %v after %v, want %v", what, a, s, testWait, want)
		}
		waitChange(c)
	}
}

// waitChange waits until c notes a change, or a moment passes (a state
// pion changes without a callback, such as a closed connection's).
func waitChange(c *Conn) {
	t := time.NewTimer(10 * time.Millisecond)
	defer t.Stop()
	select {
	case <-c.changed:
	case <-t.C:
	}
}

// recv waits for one datagram on c.
func recv(t testing.TB, c *Conn) ([]byte, transport.Addr) {
	t.Helper()
	buf := make([]byte, transport.MaxDatagram)
	deadline := time.Now().Add(testWait)
	for {
		n, from, ok, err := c.Receive(buf)
		require.NoError(t, err)
		if ok {
			return buf[:n], from
		}
		if time.Now().After(deadline) {
			t.Fatal("no datagram")
		}
		waitChange(c)
	}
}

// awaitOpened waits until c's set-up goroutine has created its peer
// connection and channel to a.
func awaitOpened(t testing.TB, c *Conn, a transport.Addr) {
	t.Helper()
	deadline := time.Now().Add(testWait)
	for {
		c.mu.Lock()
		done := c.links[a].dc != nil
		c.mu.Unlock()
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no channel to peer %d after %v", a, testWait)
		}
		waitChange(c)
	}
}
