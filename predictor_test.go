package rollstep

import (
	"fmt"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/stretchr/testify/require"
)

// markGuess predicts every input as Buttons 0x77, which no peer sends.
func markGuess(core.PlayerHandle, core.Frame, gInput, core.Frame, bool) gInput {
	return gInput{Buttons: 0x77}
}

// The predictor a game set holds in a session that rejoined, whose engine
// is its sponsor's: a restarted process's game sets it again, a session
// that yielded a split set it before.
func TestPredictorAfterARejoin(t *testing.T) {
	for _, yield := range []bool{false, true} {
		t.Run(fmt.Sprintf("yield=%v", yield), func(t *testing.T) {
			m := newCrashMatch(t, 3, Rollback, 0, 91)
			m.peers[1].sess.SetPredictor(markGuess)
			m.run(func() bool { return m.lowest() >= 200 })
			m.comeBack(yield, func(s *Session[gState, gInput]) { s.SetPredictor(markGuess) })
			p := m.peers[1]
			p.guesses = map[uint32]int{}
			m.runFor(3 * time.Second)
			require.Positive(t, p.guesses[0x77], "predictions: %v", p.guesses)
			require.Len(t, p.guesses, 1, "predictions: %v", p.guesses)
		})
	}
}

// SetPredictor(nil) restores the style's default: for Queued inputs, the
// zero input, not the last one.
func TestPredictorNilRestoresTheDefault(t *testing.T) {
	m := newCrashMatch(t, 2, Rollback, 0, 92, func(_ int, c *Config) { c.Inputs = Queued })
	p := m.peers[0]
	p.sess.SetPredictor(markGuess)
	p.sess.SetPredictor(nil)
	p.guesses = map[uint32]int{}
	m.runFor(3 * time.Second)
	require.Positive(t, p.guesses[0], "predictions: %v", p.guesses)
	require.Len(t, p.guesses, 1, "predictions: %v", p.guesses)
}
