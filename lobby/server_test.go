package lobby

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/transport"
)

func TestRoomFillsIntoAMatch(t *testing.T) {
	s, url := serve(t, Config{})
	ms := joinAll(t, s, url, "duel-1", 3)
	for i, m := range ms {
		assert.Equal(t, i, m.Seat, "seats follow the join order")
		assert.Equal(t, 3, m.Size)
		assert.Equal(t, ms[0].Token, m.Token, "one secret per match")
	}
	assert.NotZero(t, ms[0].Token)
	assert.Equal(t, []transport.Addr{0, 2}, ms[1].Peers())
	st := s.Stats()
	assert.Equal(t, Stats{Conns: 3, Matches: 1, MatchesMade: 1}, st)
}

func TestRoomMakesTheNextMatch(t *testing.T) {
	s, url := serve(t, Config{})
	a := joinAll(t, s, url, "r", 2)
	b := joinAll(t, s, url, "r", 2)
	assert.NotEqual(t, a[0].Token, b[0].Token, "each match has its own secret")
	assert.Equal(t, 0, b[0].Seat)
	assert.Equal(t, uint64(2), s.Stats().MatchesMade)
}

func TestSignalsAreRelayedBySeat(t *testing.T) {
	s, url := serve(t, Config{})
	ms := joinAll(t, s, url, "relay", 3)
	require.NoError(t, ms[0].Send(2, []byte("offer from 0")))
	require.NoError(t, ms[1].Send(2, []byte("offer from 1")))
	got := map[transport.Addr]string{}
	for range 2 {
		from, p, err := ms[2].Receive(ctx(t))
		require.NoError(t, err)
		got[from] = string(p)
	}
	assert.Equal(t, map[transport.Addr]string{0: "offer from 0", 1: "offer from 1"}, got)
	require.NoError(t, ms[2].Send(0, []byte{}))
	from, p, err := ms[0].Receive(ctx(t))
	require.NoError(t, err)
	assert.Equal(t, transport.Addr(2), from)
	assert.Empty(t, p)

	assert.ErrorIs(t, ms[0].Send(0, []byte("self")), transport.ErrUnknownPeer)
	assert.ErrorIs(t, ms[0].Send(3, []byte("past the match")), transport.ErrUnknownPeer)
	assert.Error(t, ms[0].Send(1, make([]byte, MaxSignal+1)))
	require.NoError(t, ms[0].Send(1, make([]byte, MaxSignal)), "the largest signal is relayed")
	_, p, err = ms[1].Receive(ctx(t))
	require.NoError(t, err)
	assert.Len(t, p, MaxSignal)
}

func TestLeavingIsReported(t *testing.T) {
	s, url := serve(t, Config{})
	ms := joinAll(t, s, url, "leave", 2)
	require.NoError(t, ms[1].Close())
	assert.ErrorIs(t, ms[1].Close(), ErrClosed)
	assert.ErrorIs(t, ms[1].Send(0, nil), ErrClosed)
	awaitStats(t, s, func(st Stats) bool { return st.Conns == 1 })
	require.NoError(t, ms[0].Close())
	awaitStats(t, s, func(st Stats) bool { return st.Conns == 0 && st.Matches == 0 })
	assert.Zero(t, s.Stats().Dropped, "clean closes are not drops")
}

func TestLeftSeenByTheOthers(t *testing.T) {
	s, url := serve(t, Config{})
	ms := joinAll(t, s, url, "left", 3)
	require.NoError(t, ms[0].Close())
	awaitStats(t, s, func(st Stats) bool { return st.Conns == 2 }) // the left messages are queued
	// A signal sent now reaches ms[1] after the left message, on one
	// ordered connection: once it is received, the flag is set.
	require.NoError(t, ms[2].Send(1, []byte("after")))
	_, p, err := ms[1].Receive(ctx(t))
	require.NoError(t, err)
	assert.Equal(t, "after", string(p))
	assert.True(t, ms[1].Left(0))
	assert.False(t, ms[1].Left(2))
	assert.False(t, ms[1].Left(-1))
}

func TestWaitingMemberLeaves(t *testing.T) {
	s, url := serve(t, Config{})
	ws := dial(t, url)
	require.NoError(t, ws.Write(ctx(t), websocket.MessageText, []byte(`{"type":"join","room":"w","size":2}`)))
	_, p, err := ws.Read(ctx(t))
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"queued"}`, string(p))
	awaitStats(t, s, func(st Stats) bool { return st.Waiting == 1 && st.Rooms == 1 })
	require.NoError(t, ws.Close(websocket.StatusNormalClosure, ""))
	awaitStats(t, s, func(st Stats) bool { return st.Waiting == 0 && st.Rooms == 0 && st.Conns == 0 })
	// The room is free: a new pair makes a match.
	joinAll(t, s, url, "w", 2)
}

func TestRoomOfAnotherSizeRefused(t *testing.T) {
	s, url := serve(t, Config{})
	ws := dial(t, url)
	require.NoError(t, ws.Write(ctx(t), websocket.MessageText, []byte(`{"type":"join","room":"sz","size":2}`)))
	awaitStats(t, s, func(st Stats) bool { return st.Waiting == 1 })
	_, err := Join(ctx(t), url, "sz", 3)
	require.ErrorIs(t, err, ErrRefused)
	assert.Contains(t, err.Error(), "room has another size")
}

func TestJoinChecksItsArguments(t *testing.T) {
	for _, tc := range []struct {
		room string
		size int
	}{{"", 2}, {strings.Repeat("a", maxRoomName+1), 2}, {"a b", 2}, {"ok", 1}, {"ok", maxSize + 1}} {
		_, err := Join(ctx(t), "ws://127.0.0.1:1/ws", tc.room, tc.size)
		assert.ErrorIs(t, err, errProtocol, "room %q size %d", tc.room, tc.size)
	}
}

func TestHealthAndReadiness(t *testing.T) {
	files := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "page "+r.URL.Path) })
	s, url := serve(t, Config{MaxConns: 1, Files: files})
	base := "http" + strings.TrimSuffix(strings.TrimPrefix(url, "ws"), "/ws")
	get := func(path string) (int, string) {
		resp, err := http.Get(base + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, _ := get("/healthz")
	assert.Equal(t, 200, code)
	code, _ = get("/readyz")
	assert.Equal(t, 200, code)
	code, body := get("/index.html")
	assert.Equal(t, "page /index.html", body)
	assert.Equal(t, 200, code)

	dial(t, url) // the one connection MaxConns allows
	awaitStats(t, s, func(st Stats) bool { return st.Conns == 1 })
	code, _ = get("/readyz")
	assert.Equal(t, 503, code, "full")
	_, resp, err := websocket.Dial(ctx(t), url, nil)
	require.Error(t, err)
	require.NotNil(t, resp)
	assert.Equal(t, 503, resp.StatusCode)
	assert.Equal(t, uint64(1), s.Stats().Refused)

	s2, url2 := serve(t, Config{})
	s2.Drain()
	_, resp, err = websocket.Dial(ctx(t), url2, nil)
	require.Error(t, err)
	assert.Equal(t, 503, resp.StatusCode, "draining")
	code, _ = get("/healthz")
	assert.Equal(t, 200, code)
}

func TestNoFilesIsNotFound(t *testing.T) {
	_, url := serve(t, Config{})
	resp, err := http.Get("http" + strings.TrimSuffix(strings.TrimPrefix(url, "ws"), "/ws") + "/x")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 404, resp.StatusCode)
}

func TestNewServerRefusesNegativeLimits(t *testing.T) {
	_, err := NewServer(Config{Rate: -1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Rate")
}

func TestTokenRoundTrip(t *testing.T) {
	for _, v := range []uint64{1, 0xdeadbeef, 1<<64 - 1, 0x0123456789abcdef} {
		got, err := parseToken(formatToken(v))
		require.NoError(t, err)
		assert.Equal(t, v, got)
	}
	for _, bad := range []string{"", "0123", "0123456789abcdeg", "0123456789abcdef00"} {
		_, err := parseToken(bad)
		assert.True(t, errors.Is(err, errProtocol), "%q", bad)
	}
}
