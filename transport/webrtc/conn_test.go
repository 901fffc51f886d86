package webrtc

import (
	"bytes"
	"context"
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
		assert.Zero(t, c.Stats().BadSignals, "conn %d: a genuine set-up has no bad signals", j)
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
		{Self: 1, Peers: []transport.Addr{2}, Signaler: h.endpoint(1), QueueLen: -1},
		{Self: 1, Peers: []transport.Addr{2}, Signaler: h.endpoint(1), ICEServers: []ICEServer{{}}},
	} {
		c, err := New(cfg)
		assert.ErrorIs(t, err, transport.ErrInvalidConfig, "%+v", cfg)
		assert.Nil(t, c)
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
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Equal(t, uint64(1), c.Stats().DroppedNotOpen)
	_, err = c.PeerState(7)
	assert.ErrorIs(t, err, transport.ErrUnknownPeer)
	assert.ErrorIs(t, c.Send(7, nil), transport.ErrUnknownPeer)
}

func TestPeerClosesMidway(t *testing.T) {
	cs := mesh(t, 1, 2)
	require.NoError(t, cs[1].Close())
	assert.ErrorIs(t, cs[1].Close(), transport.ErrClosed)
	assert.ErrorIs(t, cs[1].Send(1, nil), transport.ErrClosed)
	_, _, _, err := cs[1].Receive(make([]byte, 10))
	assert.ErrorIs(t, err, transport.ErrClosed)
	awaitState(t, cs[0], 2, Closed, "the peer that stayed")
	_, err = cs[0].PeerState(2)
	assert.NoError(t, err, "a closed peer did not fail")
	before := cs[0].Stats().DroppedNotOpen
	assert.NoError(t, cs[0].Send(2, []byte("into the void")), "a send to a gone peer is loss")
	assert.Equal(t, before+1, cs[0].Stats().DroppedNotOpen)
}

// TestBacklogDrops sends far faster than SCTP lets datagrams leave: once
// maxBacklog bytes wait unacknowledged, Send drops instead of queueing
// more, and counts each drop.
func TestBacklogDrops(t *testing.T) {
	cs := mesh(t, 1, 2)
	const n = 4 * maxBacklog / transport.MaxDatagram // in one burst
	p := make([]byte, transport.MaxDatagram)
	for range n {
		require.NoError(t, cs[0].Send(2, p))
	}
	s := cs[0].Stats()
	t.Logf("%d datagrams sent, %d dropped", s.DatagramsOut, s.DroppedBacklog)
	assert.Positive(t, s.DroppedBacklog)
	assert.Equal(t, uint64(n), s.DatagramsOut+s.DroppedBacklog+s.DroppedNotOpen)
	assert.Less(t, s.DatagramsOut, uint64(n/2), "most of the burst dropped at the sender")
	// The channel recovers: a later datagram arrives.
	buf := make([]byte, transport.MaxDatagram)
	for {
		_, _, ok, err := cs[1].Receive(buf)
		require.NoError(t, err)
		if !ok {
			break
		}
	}
	deadline := time.Now().Add(testWait)
	for {
		require.NoError(t, cs[0].Send(2, []byte("after")))
		n, _, ok, err := cs[1].Receive(buf)
		require.NoError(t, err)
		if ok && string(buf[:n]) == "after" {
			break
		}
		require.True(t, time.Now().Before(deadline), "nothing after the burst")
		waitChange(cs[1])
	}
}
