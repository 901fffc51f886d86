package engine

import (
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/stretchr/testify/require"
)

// TestWaitingFor: the engine names the peer it waits for once the
// prediction window is used up, and nobody once that peer's disconnect is
// agreed and its inputs up to it are held, whatever W is. A front end that
// computed "the frame up to which every remote input is known" itself
// added W to "for ever" (the largest Frame) and overflowed: auto mode
// froze for good after a peer left.
func TestWaitingFor(t *testing.T) {
	for _, w := range []int{0, 1, 8} {
		e := twoPlayerEngine(t)
		require.NoError(t, e.SetPrediction(w))
		for f := range w {
			require.Zero(t, e.WaitingFor(), "W=%d frame %d: within the window", w, f)
			require.NoError(t, e.AddLocalInput(0, 1))
			e.Advance(0)
		}
		require.Equal(t, core.Frame(w), e.Frame(), "W=%d: frames predicted", w)
		require.Equal(t, uint64(1), e.WaitingFor(), "W=%d: waiting for peer 0 at the end of the window", w)
		require.NoError(t, e.DisconnectPeer(0))
		require.Zero(t, e.WaitingFor(), "W=%d: after the only peer left", w)
		require.NoError(t, e.AddLocalInput(0, 1))
		require.True(t, e.Advance(0).Stepped, "W=%d: the survivor steps", w)
	}
}
