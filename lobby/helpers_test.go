package lobby

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"
)

// testWait bounds every wait of these tests; nothing should come close.
const testWait = 10 * time.Second

// serve starts a Server with cfg on a loopback httptest server and
// returns it and its WebSocket URL.
func serve(t testing.TB, cfg Config) (*Server, string) {
	t.Helper()
	s, err := NewServer(cfg)
	require.NoError(t, err)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, "ws" + strings.TrimPrefix(ts.URL, "http") + "/ws"
}

// ctx returns a context that ends after testWait or with the test.
func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), testWait)
	t.Cleanup(cancel)
	return c
}

// joinAll joins n clients to room in order, each once the previous one
// waits in the room, and returns their matches by join order.
func joinAll(t testing.TB, s *Server, url, room string, n int) []*Match {
	t.Helper()
	ms := make([]*Match, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	base := s.Stats().Waiting
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ms[i], errs[i] = Join(ctx(t), url, room, n)
		}()
		if i < n-1 {
			awaitStats(t, s, func(st Stats) bool { return st.Waiting == base+i+1 })
		}
	}
	wg.Wait()
	for i, err := range errs {
		require.NoError(t, err, "join %d", i)
		t.Cleanup(func() { _ = ms[i].Close() })
	}
	return ms
}

// awaitStats waits until cond holds for the server's stats.
func awaitStats(t testing.TB, s *Server, cond func(Stats) bool) {
	t.Helper()
	timer := time.NewTimer(testWait)
	defer timer.Stop()
	for !cond(s.Stats()) {
		select {
		case <-s.changed:
		case <-timer.C:
			t.Fatalf("stats never reached the condition: %+v", s.Stats())
		}
	}
}

// dial opens a raw WebSocket to the server, for tests that send what no
// client of this package would.
func dial(t testing.TB, url string) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.Dial(ctx(t), url, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ws.CloseNow() })
	return ws
}

// closeOf reads from ws until the server closes it and returns the close
// frame.
func closeOf(t testing.TB, ws *websocket.Conn) websocket.CloseError {
	t.Helper()
	for {
		_, _, err := ws.Read(ctx(t))
		if err == nil {
			continue
		}
		var ce websocket.CloseError
		if !errors.As(err, &ce) {
			t.Fatalf("connection ended with %v, not a close frame", err)
		}
		return ce
	}
}
