package rollback

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/internal/hostile"
	"github.com/rollstep/rollstep/transport/sim"
)

// TestNoSoloStart: a handshake that times out before the match started
// ends Update with a *endpoint.HandshakeTimeoutError saying what arrived
// from the peer, for each of the three causes players meet (nobody at the
// address, a different token, a peer that starts after the timeout),
// instead of starting the match alone as it did; with SoloStart the match
// starts without the peer.
func TestNoSoloStart(t *testing.T) {
	for _, tc := range []struct {
		name     string
		late     bool // node 1 starts after the timeout; otherwise it never does
		token    bool // node 1 uses another token
		solo     bool
		received bool // datagrams arrived from node 1's address
		deaf     bool // node 0's sends all fail: node 1 never hears it
	}{
		{name: "nobody there"},
		{name: "another token", token: true, received: true},
		{name: "a late peer", late: true},
		{name: "our packets do not reach it", deaf: true, received: true},
		{name: "solo start allowed", solo: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newMatch(t, 2, 3, sim.LinkConfig{Latency: sim.Latency{Base: ms(20)}}, func(i int, c *Config) {
				c.Transport.HandshakeTimeout = 2 * time.Second
				c.SoloStart = tc.solo
				if i == 1 && tc.token {
					c.Transport.Token++
				}
			})
			if tc.deaf {
				c := testConfig(2, 0, 3)
				c.Transport.HandshakeTimeout = 2 * time.Second
				s, err := NewSession[pair, uint16](c, m.nodes[0].game, pair{}, &hostile.Unreachable{Conn: m.nodes[0].conn, Down: func() bool { return true }})
				require.NoError(t, err)
				m.nodes[0].s = s
			}
			var err error
			for now := m.render; now <= 4*time.Second && err == nil; now += m.render {
				m.net.RunUntil(now)
				_ = m.nodes[0].s.AddLocalInput(0, 1)
				err = m.nodes[0].s.Update(now)
				if tc.token || tc.deaf || (tc.late && now > 3*time.Second) {
					_ = m.nodes[1].s.AddLocalInput(1, 1)
					_ = m.nodes[1].s.Update(now)
				}
			}
			if tc.solo {
				require.NoError(t, err)
				require.True(t, m.nodes[0].s.Stats().Started, "the match did not start alone")
				return
			}
			var te *endpoint.HandshakeTimeoutError
			require.True(t, errors.As(err, &te), "Update: %v, want a *endpoint.HandshakeTimeoutError", err)
			require.True(t, errors.Is(err, endpoint.ErrHandshakeTimeout))
			require.False(t, m.nodes[0].s.Stats().Started, "the match started alone")
			require.Equal(t, tc.received, te.Received > 0, "datagrams received: %v", te)
			require.Equal(t, tc.deaf, te.Heard, "%v", te)
			require.Equal(t, tc.deaf, te.SendErrors > 0, "%v", te)
			if tc.token {
				require.Equal(t, te.Received, te.Unauthenticated, "%v", te)
			}
			t.Log(err)
			require.Equal(t, err, m.nodes[0].s.Update(5*time.Second), "the next Update")
		})
	}
}
