package webrtc

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/transport"
)

func TestHostileSignals(t *testing.T) {
	h := newHub()
	c, err := New(Config{Self: 2, Peers: []transport.Addr{1}, Signaler: h.endpoint(2), loopback: true})
	require.NoError(t, err)
	defer c.Close()
	evil := h.endpoint(1)
	stranger := h.endpoint(9)
	for _, p := range [][]byte{
		[]byte("garbage"),
		[]byte(`{}`),
		[]byte(`{"t":"offer","sdp":"v=0"}`), // an unknown format
		[]byte(`{"answer":{"type":"answer","sdp":"v=0"}}`),      // an answer to an offer never made
		[]byte(`{"offer":{"type":"answer","sdp":"v=0"}}`),       // an offer that says it is an answer
		[]byte(`{"offer":{"type":"offer","sdp":"not an sdp"}}`), // refused by pion
		[]byte(`{"cand":{"candidate":""}}`),
		[]byte(`{"offer":{"type":"offer","sdp":"x"},"cand":{"candidate":"y"}}`),
		bytes.Repeat([]byte("x"), maxSetup+1),
	} {
		require.NoError(t, evil.Send(2, p))
	}
	require.NoError(t, stranger.Send(2, []byte(`{"cand":{"candidate":"candidate:1 1 udp 1 127.0.0.1 1 typ host"}}`)))
	// Then the real peer 1 connects: the Conn still works.
	good, err := New(Config{Self: 1, Peers: []transport.Addr{2}, Signaler: h.endpoint(1), loopback: true})
	require.NoError(t, err)
	defer good.Close()
	awaitState(t, c, 1, Open, "after hostile signals")
	awaitState(t, good, 2, Open, "the good peer")
	assert.Equal(t, uint64(10), c.Stats().BadSignals, "each hostile message counted once")
	require.NoError(t, good.Send(2, []byte("hi")))
	p, from := recv(t, c)
	assert.Equal(t, "hi", string(p))
	assert.Equal(t, transport.Addr(1), from)
}

// tap is a Signaler that keeps a copy of every offer and answer it sends.
type tap struct {
	*hubSignaler
	mu   sync.Mutex
	sent [][]byte
}

func (s *tap) Send(to transport.Addr, p []byte) error {
	if m, err := parseSetup(p); err == nil && m.Cand == nil {
		s.mu.Lock()
		s.sent = append(s.sent, append([]byte(nil), p...))
		s.mu.Unlock()
	}
	return s.hubSignaler.Send(to, p)
}

// last returns the last offer or answer s sent.
func (s *tap) last(t *testing.T) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	require.NotEmpty(t, s.sent)
	return s.sent[len(s.sent)-1]
}

// TestReplayedSetupAfterOpen replays the genuine offer and answer of a
// connection that is open, as a Signaler that duplicates or an attacker
// with a capture would: each is counted and ignored, and the channel
// stays open.
func TestReplayedSetupAfterOpen(t *testing.T) {
	h := newHub()
	sa, sb := &tap{hubSignaler: h.endpoint(1)}, &tap{hubSignaler: h.endpoint(2)}
	a, err := New(Config{Self: 1, Peers: []transport.Addr{2}, Signaler: sa, loopback: true})
	require.NoError(t, err)
	defer a.Close()
	b, err := New(Config{Self: 2, Peers: []transport.Addr{1}, Signaler: sb, loopback: true})
	require.NoError(t, err)
	defer b.Close()
	awaitState(t, a, 2, Open, "offerer")
	awaitState(t, b, 1, Open, "answerer")
	offer, answer := sa.last(t), sb.last(t)
	for range 2 {
		require.NoError(t, sa.hubSignaler.Send(2, offer))  // a second offer
		require.NoError(t, sb.hubSignaler.Send(1, answer)) // a second answer
	}
	require.NoError(t, sb.hubSignaler.Send(1, offer))  // an offer to the offerer
	require.NoError(t, sa.hubSignaler.Send(2, answer)) // an answer to the answerer
	awaitCount(t, a, 3)
	awaitCount(t, b, 3)
	for _, c := range []*Conn{a, b} {
		s, err := c.PeerState(3 - c.cfg.Self)
		assert.Equal(t, Open, s)
		assert.NoError(t, err)
	}
	require.NoError(t, a.Send(2, []byte("still open")))
	p, _ := recv(t, b)
	assert.Equal(t, "still open", string(p))
}

// awaitCount waits until c has counted want bad signals.
func awaitCount(t *testing.T, c *Conn, want uint64) {
	t.Helper()
	deadline := time.Now().Add(testWait)
	for c.Stats().BadSignals < want {
		require.True(t, time.Now().Before(deadline), "BadSignals %d, want %d", c.Stats().BadSignals, want)
		waitChange(c)
	}
	assert.Equal(t, want, c.Stats().BadSignals)
}

// TestCandidateFlood sends a connecting Conn more candidates than any
// host has: those past maxCandidates are counted and dropped.
func TestCandidateFlood(t *testing.T) {
	h := newHub()
	c, err := New(Config{Self: 2, Peers: []transport.Addr{1}, Signaler: h.endpoint(2), loopback: true})
	require.NoError(t, err)
	defer c.Close()
	evil := h.endpoint(1)
	cand := []byte(`{"cand":{"candidate":"candidate:1 1 udp 2130706431 127.0.0.1 9 typ host","sdpMid":"0"}}`)
	for range maxCandidates + 10 {
		require.NoError(t, evil.Send(2, cand))
	}
	awaitCount(t, c, 10)
	c.mu.Lock()
	held := len(c.links[1].pending)
	c.mu.Unlock()
	assert.Equal(t, maxCandidates, held, "candidates held before the offer")
}

// stuckSignaler is a Signaler whose Send blocks until release is closed.
type stuckSignaler struct {
	*hubSignaler
	release chan struct{}
}

func (s *stuckSignaler) Send(to transport.Addr, p []byte) error {
	<-s.release
	return s.hubSignaler.Send(to, p)
}

// TestNewDoesNotWaitForTheSignaler: New returns while the Signaler's Send
// is stuck, and ConnectTimeout runs from New, so the peer still ends as a
// timeout.
func TestNewDoesNotWaitForTheSignaler(t *testing.T) {
	s := &stuckSignaler{hubSignaler: newHub().endpoint(1), release: make(chan struct{})}
	c, err := New(Config{Self: 1, Peers: []transport.Addr{2}, Signaler: s, ConnectTimeout: 100 * time.Millisecond, loopback: true})
	require.NoError(t, err)
	awaitState(t, c, 2, Failed, "a peer never offered to")
	_, err = c.PeerState(2)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	close(s.release)
	require.NoError(t, c.Close())
}

// TestCloseWhileConnecting closes Conns at once after New, while their
// set-up goroutine is opening peer connections: Close returns, and
// nothing runs into a closed Conn.
func TestCloseWhileConnecting(t *testing.T) {
	h := newHub()
	for i := range 5 {
		c, err := New(Config{Self: 1, Peers: []transport.Addr{2, 3}, Signaler: h.endpoint(1), loopback: true})
		require.NoError(t, err)
		if i%2 == 1 {
			waitChange(c)
		}
		require.NoError(t, c.Close())
		for _, p := range []transport.Addr{2, 3} {
			s, _ := c.PeerState(p)
			assert.Equal(t, Closed, s)
		}
	}
}
