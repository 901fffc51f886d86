package webrtc

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/transporttest"
)

func TestConformance(t *testing.T) {
	transporttest.TestConn(t, func(t *testing.T) transporttest.Pair {
		cs := mesh(t, 1, 2)
		a, b := cs[0], cs[1]
		return transporttest.Pair{A: a, B: b, ToB: 2, ToA: 1, Settle: func() { waitChange(a); waitChange(b) }}
	})
}

func TestThreePeerMesh(t *testing.T) {
	cs := mesh(t, 5, 3, 9)
	addrs := []transport.Addr{5, 3, 9}
	for i, c := range cs {
		for j, to := range addrs {
			if i != j {
				require.NoError(t, c.Send(to, []byte{byte(i), byte(j)}))
			}
		}
	}
	for j, c := range cs {
		got := map[transport.Addr][]byte{}
		for range 2 {
			p, from := recv(t, c)
			got[from] = append([]byte(nil), p...)
		}
		for i, from := range addrs {
			if i != j {
				assert.Equal(t, []byte{byte(i), byte(j)}, got[from], "conn %d from %d", j, from)
			}
		}
	}
}

func TestLargestDatagramArrivesWhole(t *testing.T) {
	cs := mesh(t, 1, 2)
	p := bytes.Repeat([]byte{0xa5}, transport.MaxDatagram)
	require.NoError(t, cs[0].Send(2, p))
	got, _ := recv(t, cs[1])
	assert.Equal(t, p, got)
	assert.ErrorIs(t, cs[0].Send(2, make([]byte, transport.MaxDatagram+1)), transport.ErrDatagramTooLarge)
}

func TestConfigErrors(t *testing.T) {
	h := newHub()
	for _, cfg := range []Config{
		{Peers: []transport.Addr{2}},
		{Signaler: h.endpoint(1)},
		{Self: 1, Peers: []transport.Addr{1}, Signaler: h.endpoint(1)},
		{Self: 1, Peers: []transport.Addr{2, 2}, Signaler: h.endpoint(1)},
		{Self: 1, Peers: []transport.Addr{2}, Signaler: h.endpoint(1), ConnectTimeout: -1},
		{Self: 1, Peers: []transport.Addr{2}, Signaler: h.endpoint(1), ICEServers: []ICEServer{{}}},
	} {
		_, err := New(cfg)
		assert.ErrorIs(t, err, transport.ErrInvalidConfig, "%+v", cfg)
	}
}

func TestPeerThatNeverAnswersTimesOut(t *testing.T) {
	h := newHub()
	c, err := New(Config{Self: 1, Peers: []transport.Addr{2}, Signaler: h.endpoint(1), ConnectTimeout: 200 * time.Millisecond, loopback: true})
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.Send(2, []byte("early")), "a send before the channel opens is loss, not an error")
	awaitState(t, c, 2, Failed, "silent peer")
	_, err = c.PeerState(2)
	var ce *ConnectError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "timed out", ce.Reason)
	assert.Equal(t, transport.Addr(2), ce.Peer)
	assert.Equal(t, uint64(1), c.Stats().DroppedNotOpen)
	_, err = c.PeerState(7)
	assert.ErrorIs(t, err, transport.ErrUnknownPeer)
	assert.ErrorIs(t, c.Send(7, nil), transport.ErrUnknownPeer)
}

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
		[]byte(`{"answer":{"type":"answer","sdp":"v=0"}}`), // an answer to an offer never made
		[]byte(`{"offer":{"type":"answer","sdp":"v=0"}}`),  // an offer that says it is an answer
		[]byte(`{"offer":{"type":"offer","sdp":"not an sdp"}}`),
		[]byte(`{"cand":{"candidate":""}}`),
		[]byte(`{"offer":{"type":"offer","sdp":"x"},"cand":{"candidate":"y"}}`),
		bytes.Repeat([]byte("x"), maxSetup+1),
	} {
		require.NoError(t, evil.Send(2, p))
	}
	require.NoError(t, stranger.Send(2, []byte(`{"cand":{"candidate":"candidate:1 1 udp 1 127.0.0.1 1 typ host"}}`)))
	// Then a real peer 1 connects: the Conn still works.
	good, err := New(Config{Self: 1, Peers: []transport.Addr{2}, Signaler: h.endpoint(1), loopback: true})
	require.NoError(t, err)
	defer good.Close()
	awaitState(t, c, 1, Open, "after hostile signals")
	awaitState(t, good, 2, Open, "the good peer")
	assert.GreaterOrEqual(t, c.Stats().BadSignals, uint64(9))
	require.NoError(t, good.Send(2, []byte("hi")))
	p, from := recv(t, c)
	assert.Equal(t, "hi", string(p))
	assert.Equal(t, transport.Addr(1), from)
}

func TestPeerClosesMidway(t *testing.T) {
	cs := mesh(t, 1, 2)
	require.NoError(t, cs[1].Close())
	assert.ErrorIs(t, cs[1].Close(), transport.ErrClosed)
	assert.ErrorIs(t, cs[1].Send(1, nil), transport.ErrClosed)
	_, _, _, err := cs[1].Receive(make([]byte, 10))
	assert.ErrorIs(t, err, transport.ErrClosed)
	deadline := time.Now().Add(testWait)
	for {
		s, _ := cs[0].PeerState(2)
		if s == Closed || s == Failed {
			break
		}
		require.True(t, time.Now().Before(deadline), "peer 2 still %v", s)
		waitChange(cs[0])
	}
	assert.NoError(t, cs[0].Send(2, []byte("into the void")), "a send to a gone peer is loss")
}
