package lobby

import (
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBadFirstMessages sends, as a connection's first message, what no
// client should: each is refused with a policy-violation close whose
// reason is no longer than what was sent, the server keeps serving, and
// the connection is counted as dropped.
func TestBadFirstMessages(t *testing.T) {
	s, url := serve(t, Config{})
	cases := []struct {
		name string
		typ  websocket.MessageType
		msg  string
	}{
		{"not JSON", websocket.MessageText, "hello"},
		{"one byte", websocket.MessageText, "{"},
		{"JSON array", websocket.MessageText, `[1,2,3]`},
		{"unknown type", websocket.MessageText, `{"type":"admin"}`},
		{"no type", websocket.MessageText, `{}`},
		{"signal before join", websocket.MessageText, `{"type":"signal","to":1,"data":"aGk="}`},
		{"bad room", websocket.MessageText, `{"type":"join","room":"../etc","size":2}`},
		{"empty room", websocket.MessageText, `{"type":"join","room":"","size":2}`},
		{"size 1", websocket.MessageText, `{"type":"join","room":"a","size":1}`},
		{"size 17", websocket.MessageText, `{"type":"join","room":"a","size":17}`},
		{"negative seat", websocket.MessageText, `{"type":"signal","to":-1}`},
		{"bad base64", websocket.MessageText, `{"type":"signal","to":1,"data":"%%%"}`},
		{"binary", websocket.MessageBinary, `{"type":"join","room":"a","size":2}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ws := dial(t, url)
			require.NoError(t, ws.Write(ctx(t), tc.typ, []byte(tc.msg)))
			ce := closeOf(t, ws)
			assert.Equal(t, websocket.StatusPolicyViolation, ce.Code)
			assert.LessOrEqual(t, len(ce.Reason), len(tc.msg), "the answer is longer than the question: %q", ce.Reason)
		})
	}
	awaitStats(t, s, func(st Stats) bool { return st.Conns == 0 })
	assert.Equal(t, uint64(len(cases)), s.Stats().Dropped)
	joinAll(t, s, url, "still-serving", 2)
}

func TestOversizedMessageDropsTheConnection(t *testing.T) {
	s, url := serve(t, Config{})
	ms := joinAll(t, s, url, "big", 2)
	ws := dial(t, url)
	huge := `{"type":"join","room":"` + strings.Repeat("a", maxMessage) + `","size":2}`
	_ = ws.Write(ctx(t), websocket.MessageText, []byte(huge)) // may fail once the server closes
	_, _, err := ws.Read(ctx(t))
	require.Error(t, err)
	assert.Equal(t, websocket.StatusMessageTooBig, websocket.CloseStatus(err))
	// The match is untouched.
	require.NoError(t, ms[0].Send(1, []byte("fine")))
	_, p, err := ms[1].Receive(ctx(t))
	require.NoError(t, err)
	assert.Equal(t, "fine", string(p))
	awaitStats(t, s, func(st Stats) bool { return st.Conns == 2 })
}

func TestMembersMisbehavingAfterTheMatch(t *testing.T) {
	for _, tc := range []struct {
		name, msg, reason string
	}{
		{"second join", `{"type":"join","room":"again","size":2}`, "second join"},
		{"signal to itself", `{"type":"signal","to":0,"data":""}`, "not of another member"},
		{"signal past the match", `{"type":"signal","to":5,"data":""}`, "not of another member"},
		{"garbage", `}{`, "not a JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, url := serve(t, Config{})
			ws := dial(t, url)
			require.NoError(t, ws.Write(ctx(t), websocket.MessageText, []byte(`{"type":"join","room":"m","size":2}`)))
			awaitStats(t, s, func(st Stats) bool { return st.Waiting == 1 })
			other, err := Join(ctx(t), url, "m", 2)
			require.NoError(t, err)
			defer other.Close()
			for { // queued, then match
				_, p, err := ws.Read(ctx(t))
				require.NoError(t, err)
				if strings.Contains(string(p), `"match"`) {
					break
				}
			}
			require.NoError(t, ws.Write(ctx(t), websocket.MessageText, []byte(tc.msg)))
			_, p, err := ws.Read(ctx(t))
			require.NoError(t, err, "an admitted member is told why")
			assert.Contains(t, string(p), tc.reason)
			assert.Equal(t, websocket.StatusPolicyViolation, closeOf(t, ws).Code)
			awaitStats(t, s, func(st Stats) bool { return st.Conns == 1 })
			select {
			case <-other.leftSeen:
			case <-ctx(t).Done():
			}
			assert.True(t, other.Left(0))
		})
	}
}

func TestTimeouts(t *testing.T) {
	s, url := serve(t, Config{JoinTimeout: 50 * time.Millisecond, IdleTimeout: 100 * time.Millisecond})
	silent := dial(t, url)
	assert.Equal(t, "no join", closeOf(t, silent).Reason)

	idle := dial(t, url)
	require.NoError(t, idle.Write(ctx(t), websocket.MessageText, []byte(`{"type":"join","room":"idle","size":2}`)))
	assert.Equal(t, "idle", closeOf(t, idle).Reason)
	awaitStats(t, s, func(st Stats) bool { return st.Conns == 0 && st.Rooms == 0 && st.Waiting == 0 })
	assert.Equal(t, uint64(2), s.Stats().Dropped)
}

func TestRateLimit(t *testing.T) {
	s, url := serve(t, Config{Rate: 1, Burst: 5})
	ws := dial(t, url)
	require.NoError(t, ws.Write(ctx(t), websocket.MessageText, []byte(`{"type":"join","room":"rate","size":2}`)))
	for range 10 {
		if err := ws.Write(ctx(t), websocket.MessageText, []byte(`{"type":"ping"}`)); err != nil {
			break
		}
	}
	var reason string
	for { // the queued message, then the error, then the close
		_, p, err := ws.Read(ctx(t))
		if err != nil {
			break
		}
		reason += string(p)
	}
	assert.Contains(t, reason, "rate limit")
	awaitStats(t, s, func(st Stats) bool { return st.Conns == 0 })
}

func TestTooManyRooms(t *testing.T) {
	s, url := serve(t, Config{MaxRooms: 2})
	for _, r := range []string{"a", "b"} {
		ws := dial(t, url)
		require.NoError(t, ws.Write(ctx(t), websocket.MessageText, []byte(`{"type":"join","room":"`+r+`","size":2}`)))
	}
	awaitStats(t, s, func(st Stats) bool { return st.Rooms == 2 })
	_, err := Join(ctx(t), url, "c", 2)
	require.ErrorIs(t, err, ErrRefused)
	assert.Contains(t, err.Error(), "too many rooms")
	// A room that exists can still fill.
	m, err := Join(ctx(t), url, "a", 2)
	require.NoError(t, err)
	assert.Equal(t, 1, m.Seat)
	require.NoError(t, m.Close())
}
