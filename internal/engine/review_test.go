package engine

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/stretchr/testify/require"
)

// reviewPair is two engines, one player each, W = 1, D = 0, for the tests
// below; frame runs one frame of both and returns b's events.
type reviewPair struct{ a, b *Engine[int32, int32] }

func newReviewPair(t *testing.T) *reviewPair {
	t.Helper()
	cfg := func(local, remote core.PlayerHandle) Config {
		c := DefaultConfig()
		c.Local, c.Peers = []core.PlayerHandle{local}, [][]core.PlayerHandle{{remote}}
		c.InputDelay, c.Prediction, c.MaxPrediction = 0, 1, 1
		return c
	}
	step := core.GameFunc[int32, int32](func(s *int32, in []core.Input[int32], _ core.Effects) {
		for _, x := range in {
			*s = *s*31 + x.Value
		}
	})
	a, err := NewEngine[int32, int32](cfg(0, 1), step, new(int32))
	require.NoError(t, err)
	b, err := NewEngine[int32, int32](cfg(1, 0), step, new(int32))
	require.NoError(t, err)
	return &reviewPair{a, b}
}

func (r *reviewPair) frame(f core.Frame) []core.Event {
	now := time.Duration(f) * 16 * time.Millisecond
	_ = r.a.AddLocalInput(0, 1)
	_ = r.b.AddLocalInput(1, 1)
	ra, rb := r.a.Advance(now), r.b.Advance(now)
	_ = r.b.Receive(now, 0, ra.Messages[0].Message)
	_ = r.a.Receive(now, 0, rb.Messages[0].Message)
	return rb.Events
}

// TestControlEventsNameTheirPlayer: when player 0 pauses and player 1
// sets the speed in the same frame, the PauseEvent names player 0 and the
// SpeedEvent player 1. Both used to name the player whose command the
// simulation applied last.
func TestControlEventsNameTheirPlayer(t *testing.T) {
	r := newReviewPair(t)
	var evs []core.Event
	for f := core.Frame(0); f < 6; f++ {
		if f == 2 {
			require.NoError(t, r.a.Pause(0))
			require.NoError(t, r.b.SetSpeed(1, 200))
		}
		evs = append(evs, r.frame(f)...)
	}
	require.Equal(t, []core.Event{core.PauseEvent{Frame: 2, Player: 0, Paused: true}, core.SpeedEvent{Frame: 2, Player: 1, Percent: 200}}, evs)
}

// TestStepReportOfDisconnectedPlayer: a player whose disconnect is agreed
// reports no step time, so a lockstep session stops pacing by a machine
// no longer in the match. It used to keep the last report for good.
func TestStepReportOfDisconnectedPlayer(t *testing.T) {
	r := newReviewPair(t)
	require.NoError(t, r.b.SetStepReport(1, 500))
	f := core.Frame(0)
	for ; f < 4; f++ {
		r.frame(f)
	}
	require.Equal(t, uint16(500), r.a.StepReport(1))
	require.NoError(t, r.a.DisconnectPeer(0))
	for ; f < 40; f++ {
		_ = r.a.AddLocalInput(0, 1)
		r.a.Advance(time.Duration(f) * 16 * time.Millisecond)
	}
	_, agreed := r.a.Disconnected(1)
	require.True(t, agreed)
	require.Zero(t, r.a.StepReport(1))
}

// TestGamePathOfArrayState: the field paths of a state that is an array
// are the game's ("[1]"), not the engine world's ("Game[1]").
func TestGamePathOfArrayState(t *testing.T) {
	p, ok := fieldAtOf[world[[4]int32]](16 + 4)
	require.True(t, ok)
	require.Equal(t, "[1]", p)
}

// TestLargestInput: a game's input may fill MaxInputSize less the control
// word; one byte more is refused by NewEngine with a reason that says so,
// instead of by the handshake digest with the slot's size.
func TestLargestInput(t *testing.T) {
	c := DefaultConfig()
	step := func(*int32, []core.Input[[MaxInputSize - controlSize]byte], core.Effects) {}
	_, err := NewEngine[int32, [MaxInputSize - controlSize]byte](c, core.GameFunc[int32, [MaxInputSize - controlSize]byte](step), new(int32))
	require.NoError(t, err)
	big := func(*int32, []core.Input[[MaxInputSize - controlSize + 1]byte], core.Effects) {}
	_, err = NewEngine[int32, [MaxInputSize - controlSize + 1]byte](c, core.GameFunc[int32, [MaxInputSize - controlSize + 1]byte](big), new(int32))
	require.ErrorIs(t, err, ErrInvalidConfig)
	require.ErrorContains(t, err, "505 bytes is over 504")
}
