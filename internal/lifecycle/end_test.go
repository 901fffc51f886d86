package lifecycle

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/core"
)

// fakeEngine is an Engine whose answers the test sets.
type fakeEngine struct {
	frame, confirmed, delivered, end core.Frame
	anyConfirmed                     bool
}

func (e *fakeEngine) Frame() core.Frame                  { return e.frame }
func (e *fakeEngine) ConfirmedFrame() (core.Frame, bool) { return e.confirmed, e.anyConfirmed }
func (e *fakeEngine) Delivered() core.Frame              { return e.delivered }
func (e *fakeEngine) SetEnd(f core.Frame) error {
	if f < e.frame {
		return core.ErrOutOfRange
	}
	e.end = f
	return nil
}

func TestEnd(t *testing.T) {
	e := &fakeEngine{frame: 10}
	var x End
	require.False(t, x.Reached(e), "no end set")
	require.ErrorIs(t, x.Set(e, 9), ErrPassed)
	require.NoError(t, x.Set(e, 20))
	require.Equal(t, core.Frame(20), e.end)
	x.Adopt(e, 30) // one is set: a peer's does not replace it
	require.Equal(t, core.Frame(20), x.At)

	e.frame, e.confirmed, e.anyConfirmed, e.delivered = 20, 18, true, 20
	require.False(t, x.Reached(e), "frame 19 not confirmed")
	e.confirmed, e.delivered = 19, 19
	require.False(t, x.Reached(e), "a peer lacks our input of frame 19")
	e.delivered = 25
	require.True(t, x.Reached(e))
	require.False(t, x.Reached(e), "reported twice")
	require.True(t, x.Ended())

	var y End
	y.Adopt(&fakeEngine{frame: 40}, 30) // already simulated: not adopted
	require.False(t, y.Reached(&fakeEngine{frame: 40, confirmed: 39, anyConfirmed: true, delivered: 40}))
}
