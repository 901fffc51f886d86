package webrtc_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/lobby"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/webrtc"
)

// duel is a small fighting game: two fighters on a line.
type duel struct{ X, HP [2]int32 }

type pad struct {
	Move  int8
	Punch bool
}

func duelStep(d *duel, in []core.Input[pad], _ core.Effects) {
	for p, v := range in {
		d.X[p] += int32(v.Value.Move)
		if o := 1 - p; v.Value.Punch && max(d.X[p]-d.X[o], d.X[o]-d.X[p]) <= 2 {
			d.HP[o]--
		}
	}
}

// TestMatchThroughTheLobby is internet play end to end on one machine:
// two players join a room on a lobby server, each opens a WebRTC Conn
// with its Match as the Signaler, and two Rollback sessions keyed by the
// match's secret play to an agreed end on the real clock and agree.
func TestMatchThroughTheLobby(t *testing.T) {
	srv, err := lobby.NewServer(lobby.Config{})
	require.NoError(t, err)
	ts := httptest.NewServer(srv)
	defer ts.Close()
	url := "ws" + strings.TrimPrefix(ts.URL, "http") + "/ws"
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	joined := make(chan *lobby.Match, 2)
	for range 2 {
		go func() {
			m, err := lobby.Join(ctx, url, "webrtc-duel", 2)
			assert.NoError(t, err)
			joined <- m
		}()
	}
	ms := []*lobby.Match{<-joined, <-joined}
	require.NotNil(t, ms[0])
	require.NotNil(t, ms[1])
	if ms[0].Seat == 1 {
		ms[0], ms[1] = ms[1], ms[0]
	}
	const end = 120 // two seconds at 60 Hz
	sessions := make([]*rollstep.Session[duel, pad], 2)
	for i, m := range ms {
		defer m.Close()
		conn, err := webrtc.New(webrtc.Config{Self: transport.Addr(m.Seat), Peers: m.Peers(), Signaler: m})
		require.NoError(t, err)
		defer conn.Close()
		other := core.PlayerHandle(1 - m.Seat)
		cfg := rollstep.Config{Mode: rollstep.Rollback, TickRate: 60, Inputs: rollstep.Held,
			Local: []core.PlayerHandle{core.PlayerHandle(m.Seat)},
			Peers: []rollstep.Peer{{Addr: transport.Addr(other), Players: []core.PlayerHandle{other}}},
			Game:  core.GameVersion("webrtc duel"), Transport: webrtc.MatchTransport(m.Token)}
		s, err := rollstep.NewSession(cfg, core.GameFunc[duel, pad](duelStep), duel{X: [2]int32{0, 9}, HP: [2]int32{50, 50}}, conn)
		require.NoError(t, err)
		defer s.Close()
		require.NoError(t, s.EndAt(end))
		sessions[i] = s
	}
	start := time.Now()
	tick := time.NewTicker(time.Second / 240) // the game loops' polling, on the real clock
	defer tick.Stop()
	for !sessions[0].Ended() || !sessions[1].Ended() {
		select {
		case <-tick.C:
		case <-ctx.Done():
			t.Fatalf("the match did not end: frames %d and %d", sessions[0].Frame(), sessions[1].Frame())
		}
		now := time.Since(start)
		for i, s := range sessions {
			_ = s.AddLocalInput(core.PlayerHandle(i), []pad{{Move: 1, Punch: true}, {Punch: true}}[i])
			require.NoError(t, s.Update(now), "peer %d", i)
			webrtc.CheckLifeCycle(t, i, s)
		}
	}
	a, b := sessions[0], sessions[1]
	assert.Equal(t, core.Frame(end), a.Frame())
	assert.Equal(t, a.Frame(), b.Frame())
	assert.Equal(t, *a.State(), *b.State(), "the peers agree on the final state")
	assert.Less(t, a.State().HP[1], int32(50), "the fighters met and fought")
	assert.Zero(t, a.Stats().Desyncs+b.Stats().Desyncs)
}
