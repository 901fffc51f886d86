package skirmish

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/rts"
	"github.com/rollstep/rollstep/fixed"
	"github.com/rollstep/rollstep/state"
)

// play runs m in virtual time, 60 updates a second, until the human's
// session has stepped ticks ticks, and returns the time reached.
func play(t *testing.T, m *Match, from time.Duration, ticks int32) time.Duration {
	t.Helper()
	now := from
	for m.Session().State().Tick < ticks {
		now += time.Second / 60
		require.NoError(t, m.Update(now))
		require.Less(t, now, from+time.Minute, "the match stalls")
	}
	return now
}

// TestHumanOrdersReachTheGame plays a local match in virtual time: an
// order to two groups leaves one command per turn, is in flight until
// its turn runs, and then every live unit of the groups has the goal.
func TestHumanOrdersReachTheGame(t *testing.T) {
	m, err := NewMatch(MatchConfig{Players: 3, Units: 600, Seed: 3, Turn: 50 * time.Millisecond, Latency: 30 * time.Millisecond, BotEvery: 4})
	require.NoError(t, err)
	defer m.Close()
	now := play(t, m, 0, 5)
	sel := Selection(0).With(7).With(40)
	m.Out.Add(buildOrder(sel, rts.KindMove, 700, 300))
	require.Len(t, m.Out.Queued(), 2)
	sawInFlight := false
	for len(m.Out.Queued()) > 0 || len(m.Out.InFlight()) > 0 {
		sawInFlight = sawInFlight || len(m.Out.InFlight()) > 0
		now = play(t, m, now, m.Session().State().Tick+1)
	}
	require.True(t, sawInFlight)
	s := m.Session().State()
	goal := fixed.V2(fixed.FromInt(700), fixed.FromInt(300))
	for i := Human; i < int(s.Count); i += int(s.Players) {
		if sel.Has(GroupOf(i, int(s.Players))) && s.Units[i].Alive() {
			require.Equal(t, goal, s.Units[i].Goal, "unit %d", i)
		}
	}
}

// TestRecordedMatchReplays checks -record: the replay of a live match,
// with the human's orders, plays back to the session's own state.
func TestRecordedMatchReplays(t *testing.T) {
	m, err := NewMatch(MatchConfig{Players: 2, Units: 200, Seed: 9, Turn: 50 * time.Millisecond, BotEvery: 3, Record: true})
	require.NoError(t, err)
	defer m.Close()
	now := play(t, m, 0, 20)
	m.Out.Add(buildOrder(AllGroups, rts.KindAttack, 512, 512))
	play(t, m, now, 150)
	want := state.Checksum(m.Session().State())
	tick := core.Frame(m.Session().State().Tick)
	pb, err := OpenPlayback(m.Replay(), 60)
	require.NoError(t, err)
	require.GreaterOrEqual(t, pb.Frames(), tick)
	require.NoError(t, pb.Seek(tick))
	require.Equal(t, want, state.Checksum(pb.State()))
}
