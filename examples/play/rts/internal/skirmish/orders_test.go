package skirmish

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/examples/rts"
	"github.com/rollstep/rollstep/fixed"
)

// TestBuildOrderOneCommandPerGroup checks that an order becomes one
// command per selected group, in group order.
func TestBuildOrderOneCommandPerGroup(t *testing.T) {
	got := buildOrder(Squad(5), rts.KindAttack, 10, 20)
	require.Len(t, got, 6) // groups 4, 14, …, 54
	for k, c := range got {
		require.Equal(t, rts.Command{Kind: rts.KindAttack, Group: uint8(4 + 10*k), X: 10, Y: 20}, c)
	}
	require.Empty(t, buildOrder(0, rts.KindMove, 1, 1))
}

// TestOrderKind checks that a right click near an enemy attacks, one on
// empty ground or on the human's own units moves, and A forces an attack.
func TestOrderKind(t *testing.T) {
	s, err := rts.New(2, 2, 1)
	require.NoError(t, err)
	s.Units[0].Pos = fixed.V2(fixed.FromInt(100), fixed.FromInt(100)) // the human's
	s.Units[1].Pos = fixed.V2(fixed.FromInt(300), fixed.FromInt(100)) // the enemy's
	require.Equal(t, rts.KindAttack, orderKind(&s, 0, 305, 100, false))
	require.Equal(t, rts.KindMove, orderKind(&s, 0, 100, 100, false))
	require.Equal(t, rts.KindMove, orderKind(&s, 0, 600, 600, false))
	require.Equal(t, rts.KindAttack, orderKind(&s, 0, 600, 600, true))
	s.Units[1].Flags = 0
	require.Equal(t, rts.KindMove, orderKind(&s, 0, 305, 100, false), "a dead enemy is ground")
}

// TestOutboxOnePerTurnNewestWins checks the Outbox: commands leave one at
// a time, oldest group first; a newer order to a waiting group replaces
// it in place; a sent order stays in flight until its due tick has run.
func TestOutboxOnePerTurnNewestWins(t *testing.T) {
	var o Outbox
	o.Add(buildOrder(Selection(0).With(1).With(2).With(3), rts.KindMove, 5, 5))
	c, ok := o.next(10, 2)
	require.True(t, ok)
	require.Equal(t, rts.Command{Kind: rts.KindMove, Group: 1, X: 5, Y: 5}, c)
	o.Add(buildOrder(Selection(0).With(3).With(7), rts.KindAttack, 9, 9))
	require.Equal(t, []rts.Command{
		{Kind: rts.KindMove, Group: 2, X: 5, Y: 5},
		{Kind: rts.KindAttack, Group: 3, X: 9, Y: 9},
		{Kind: rts.KindAttack, Group: 7, X: 9, Y: 9},
	}, o.Queued())
	for f := 11; f <= 13; f++ {
		_, ok := o.next(11, 2)
		require.True(t, ok)
	}
	_, ok = o.next(14, 2)
	require.False(t, ok)
	require.Len(t, o.InFlight(), 4)
	o.forgetApplied(12) // frames 0..11 ran: the first (due 12) is still in flight
	require.Len(t, o.InFlight(), 4)
	o.forgetApplied(13)
	require.Len(t, o.InFlight(), 3)
	o.forgetApplied(14)
	require.Empty(t, o.InFlight())
}

// TestCommanderClickDragAndOrder checks the human's hands: a click on a
// unit selects its group, Shift+click adds, a drag selects a box, keys
// select Squads, and a right click orders the Selection.
func TestCommanderClickDragAndOrder(t *testing.T) {
	const players = 2
	s, err := rts.New(players, 6, 1)
	require.NoError(t, err)
	for i := range 6 {
		s.Units[i].Pos = fixed.V2(fixed.FromInt(int64(100+100*i)), fixed.FromInt(100))
	}
	v := View{Scale: 1} // screen = world
	c := Commander{Player: 0}
	click := func(x, y int, shift bool) {
		c.Handle(Input{X: x, Y: y, LeftPressed: true, Shift: shift}, v, &s)
		c.Handle(Input{X: x, Y: y, LeftReleased: true, Shift: shift}, v, &s)
	}
	click(302, 101, false) // unit 2: rank 1 of player 0
	require.Equal(t, Selection(0).With(1), c.Sel)
	click(200, 100, false) // unit 1 is the enemy's: nothing of ours there
	require.Zero(t, c.Sel)
	click(100, 100, false)
	click(500, 100, true)
	require.Equal(t, Selection(0).With(0).With(2), c.Sel)
	c.Handle(Input{X: 50, Y: 50, LeftPressed: true}, v, &s)
	c.Handle(Input{X: 350, Y: 150, LeftReleased: true}, v, &s)
	require.Equal(t, Selection(0).With(0).With(1), c.Sel)
	cmds := c.Handle(Input{X: 900, Y: 700, RightPressed: true}, v, &s)
	require.Equal(t, buildOrder(c.Sel, rts.KindMove, 900, 700), cmds)
	cmds = c.Handle(Input{X: 401, Y: 100, RightPressed: true}, v, &s) // on enemy unit 3
	require.Equal(t, buildOrder(c.Sel, rts.KindAttack, 401, 100), cmds)
	c.Handle(Input{Squad: 2}, v, &s)
	require.Equal(t, Squad(2), c.Sel)
	c.Handle(Input{Squad: 4, Shift: true}, v, &s)
	require.Equal(t, Squad(2)|Squad(4), c.Sel)
	c.Handle(Input{All: true}, v, &s)
	require.Equal(t, AllGroups, c.Sel)
}
