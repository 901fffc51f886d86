package rollstep

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
		return ErrOutOfRange
	}
	e.end = f
	return nil
}

func TestMatchEnd(t *testing.T) {
	e := &fakeEngine{frame: 10}
	var x matchEnd
	require.False(t, x.reached(e), "no end set")
	require.ErrorIs(t, x.set(e, 9), ErrOutOfRange)
	require.NoError(t, x.set(e, 20))
	require.Equal(t, core.Frame(20), e.end)
	x.adopt(e, 30) // one is set: a peer's does not replace it
	require.Equal(t, core.Frame(20), x.at)

	e.frame, e.confirmed, e.anyConfirmed, e.delivered = 20, 18, true, 20
	require.False(t, x.reached(e), "frame 19 not confirmed")
	e.confirmed, e.delivered = 19, 19
	require.False(t, x.reached(e), "a peer lacks our input of frame 19")
	e.delivered = 25
	require.True(t, x.reached(e))
	require.False(t, x.reached(e), "reported twice")
	require.True(t, x.done)

	var y matchEnd
	y.adopt(&fakeEngine{frame: 40}, 30) // already simulated: not adopted
	require.False(t, y.reached(&fakeEngine{frame: 40, confirmed: 39, anyConfirmed: true, delivered: 40}))
}
