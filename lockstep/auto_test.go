package lockstep

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/transport/sim"
)

// TestAutoCommands: auto mode at 60 turns per second over 150 ms links
// predicts beyond the 100 ms delay budget, rolls back on mispredictions,
// and still applies every command exactly once, in order, in agreement.
func TestAutoCommands(t *testing.T) {
	link := sim.LinkConfig{Latency: sim.Latency{Base: 150 * ms, Jitter: 10 * ms}, Loss: 0.05}
	m := newMatch(t, 3, 81, link, Config{TurnPeriod: time.Second / 60, Prediction: 8})
	m.predicting = true
	for _, p := range m.peers {
		p.every = 6 // a command every 100 ms on average
	}
	m.dt = 4 * ms
	m.run(20 * time.Second)
	f := m.check()
	st := m.peers[0].sess.Stats()
	t.Logf("%d turns, D=%d W=%d, rollbacks %d, resim %d, stall %v", f, st.Delay, st.Prediction,
		st.Rollbacks, st.ResimFrames, st.Stall)
	if st.Prediction == 0 || st.Rollbacks == 0 {
		t.Fatalf("W=%d, %d rollbacks: auto mode never predicted", st.Prediction, st.Rollbacks)
	}
	if f < 60*17 {
		t.Fatalf("only %d turns in 20 s at 60 per second", f)
	}
}
