package lockstep

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/transport/sim"
)

// TestNoSoloStart: a handshake that times out before the match started
// ends Update with a *endpoint.HandshakeTimeoutError (nobody at the
// address, a different token, a peer that starts after the timeout)
// instead of starting the match alone; with SoloStart the match starts.
func TestNoSoloStart(t *testing.T) {
	for _, tc := range []struct {
		name     string
		late     bool // peer 1 starts after the timeout; otherwise it never does
		token    bool // peer 1 uses another token
		solo     bool
		received bool // datagrams arrived from peer 1's address
	}{
		{name: "nobody there"},
		{name: "another token", token: true, received: true},
		{name: "a late peer", late: true},
		{name: "solo start allowed", solo: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Config{TurnPeriod: 50 * ms, SoloStart: tc.solo}
			cfg.Transport.HandshakeTimeout = 2 * time.Second
			m := newMatch(t, 2, 4, sim.LinkConfig{Latency: sim.Latency{Base: 20 * ms}}, cfg)
			if tc.token {
				c := m.peers[1].cfg
				c.Transport.Token++
				c.Transport.Rand = rand.NewChaCha8([32]byte{9})
				s, err := NewSession(c, core.GameFunc[tState, tInput](m.peers[1].step), tState{}, m.peers[1].conn)
				require.NoError(t, err)
				m.peers[1].sess = s
			}
			var err error
			for now := 5 * ms; now <= 4*time.Second && err == nil; now += 5 * ms {
				m.net.RunUntil(now)
				err = m.peers[0].sess.Update(now)
				if tc.token || (tc.late && now > 3*time.Second) {
					_ = m.peers[1].sess.Update(now)
				}
			}
			if tc.solo {
				require.NoError(t, err)
				require.True(t, m.peers[0].sess.Stats().Started, "the match did not start alone")
				return
			}
			var te *endpoint.HandshakeTimeoutError
			require.True(t, errors.As(err, &te), "Update: %v, want a *endpoint.HandshakeTimeoutError", err)
			require.False(t, m.peers[0].sess.Stats().Started, "the match started alone")
			require.Equal(t, tc.received, te.Received > 0, "datagrams received: %v", te)
			require.Equal(t, err, m.peers[0].sess.Update(5*time.Second), "the next Update")
		})
	}
}
