package skirmish

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/rts"
	"github.com/rollstep/rollstep/fixed"
)

// silent is an Effects that keeps nothing.
type silent struct{}

func (silent) Emit(core.Effect) bool { return true }

// TestGroupOfMatchesTheGame checks GroupOf against the game itself: a
// move command to group g changes the goal of exactly the units of the
// player whose GroupOf is g.
func TestGroupOfMatchesTheGame(t *testing.T) {
	const players, units = 3, 600
	for _, g := range []uint8{0, 5, 63} {
		s, err := rts.New(players, units, 7)
		require.NoError(t, err)
		goal := fixed.V2(fixed.FromInt(500), fixed.FromInt(400))
		in := make([]core.Input[rts.Command], players)
		in[1].Value = rts.Command{Kind: rts.KindMove, Group: g, X: 500, Y: 400}
		rts.Game{}.Step(&s, in, silent{})
		moved := 0
		for i := range units {
			want := i%players == 1 && GroupOf(i, players) == g
			require.Equal(t, want, s.Units[i].Goal == goal, "unit %d", i)
			if want {
				moved++
			}
		}
		require.Greater(t, moved, 2)
	}
}

// TestSelectionSets checks the group set: Squads, all groups and the
// listing.
func TestSelectionSets(t *testing.T) {
	s := Squad(3)
	require.Equal(t, []uint8{2, 12, 22, 32, 42, 52, 62}, s.Groups())
	require.True(t, s.Has(12))
	require.False(t, s.Has(13))
	require.Equal(t, 6, Squad(10).Count()) // 9, 19, …, 59
	require.Equal(t, rts.Groups, AllGroups.Count())
	var u Selection
	for n := 1; n <= Squads; n++ {
		require.Zero(t, u&Squad(n), "Squads are disjoint")
		u |= Squad(n)
	}
	require.Equal(t, AllGroups, u, "and cover every group")
}

// TestSelectBox checks that a box selects the groups of the player's live
// units inside it, and no other player's.
func TestSelectBox(t *testing.T) {
	const players = 2
	s, err := rts.New(players, 8, 1)
	require.NoError(t, err)
	for i := range 8 {
		s.Units[i].Pos = fixed.V2(fixed.FromInt(int64(100+10*i)), fixed.FromInt(100))
	}
	s.Units[4].Flags = 0 // dead: never selected
	got := selectBox(&s, 0, rect{x1: 95, y1: 95, x0: 145, y0: 105})
	// Units 0, 2, 4 of player 0 are at x = 100, 120, 140; unit 4 is dead.
	require.Equal(t, Selection(0).With(GroupOf(0, players)).With(GroupOf(2, players)), got)
	require.Equal(t, Selection(0).With(GroupOf(1, players)).With(GroupOf(3, players)), selectBox(&s, 1, rect{95, 95, 145, 105}))
}
