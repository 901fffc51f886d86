package rollstep

import (
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/sim"
	"github.com/stretchr/testify/require"
)

// TestZeroFieldsMeanTheSame: a zero Players and a zero InputDelay mean
// the same in every mode: the players Local and Peers list, and the
// smallest D a match can start with (0 where the session predicts from
// frame 0, 1 where it does not yet). Before, Players 0 was 2 in Rollback
// and invalid in Lockstep and Auto, and InputDelay 0 was D = 2 in Lockstep
// and Auto but 0 in Rollback.
func TestZeroFieldsMeanTheSame(t *testing.T) {
	for _, tc := range []struct {
		mode Mode
		d    int
	}{{Rollback, 0}, {Lockstep, 1}, {Auto, 1}} {
		net, err := sim.New(sim.Config{Seed: 9})
		require.NoError(t, err)
		a, b := net.NewEndpoint(), net.NewEndpoint()
		c := Config{Mode: tc.mode, Local: []core.PlayerHandle{0}, Peers: []Peer{{Addr: b.ID(), Players: []core.PlayerHandle{1, 2}}}}
		s, err := NewSession(c, core.GameFunc[gState, gInput](func(*gState, []core.Input[gInput], core.Effects) {}), gState{}, a)
		require.NoError(t, err, "%v", tc.mode)
		require.Equal(t, tc.d, s.Stats().Delay, "%v: the starting D", tc.mode)
		// Three players: player 2 is a real player of the match.
		require.NoError(t, s.Close())
		c.Peers[0].Players = []core.PlayerHandle{1}
		c.Players = 3 // a player nobody owns: refused, so Players counted
		_, err = NewSession(c, core.GameFunc[gState, gInput](func(*gState, []core.Input[gInput], core.Effects) {}), gState{}, net.NewEndpoint())
		require.Error(t, err, "%v: Players 3 with two players listed", tc.mode)
	}
}
