package lockstep

import (
	"fmt"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/sim"
)

// TestAutoSurvivesLeave: in auto mode over a 100 ms round trip, the
// survivor of a 2-player match whose peer leaves (Close) or vanishes
// (silent past the disconnect timeout) while it predicts goes on
// simulating every turn past the disconnect. It used to stop at the turn
// after the disconnect for good, Update returning nil, in 8 of 8 tries.
func TestAutoSurvivesLeave(t *testing.T) {
	for _, kill := range []bool{false, true} {
		for seed := range uint64(4) {
			t.Run(fmt.Sprintf("kill=%v/seed=%d", kill, seed), func(t *testing.T) {
				link := sim.LinkConfig{Latency: sim.Latency{Base: 50 * ms, Jitter: 5 * ms}}
				m := newMatch(t, 2, 90+seed, link, Config{TurnPeriod: time.Second / 60, Prediction: 8})
				m.predicting = true
				m.dt = 4 * ms
				m.run(3*time.Second + time.Duration(seed)*7*ms)
				if !kill {
					if err := m.peers[1].sess.Close(); err != nil {
						t.Fatal(err)
					}
				}
				m.peers[1].dead = true
				m.run(m.now + 5*time.Second) // past the 2.5 s disconnect timeout
				var at core.Frame = -1
				for _, ev := range m.peers[0].events {
					if d, ok := ev.(core.DisconnectEvent); ok {
						at = d.Frame
					}
				}
				if at < 0 {
					t.Fatal("no disconnect")
				}
				f := m.peers[0].sess.Frame()
				if f < at+60 {
					t.Fatalf("survivor stopped at turn %d, disconnect at %d", f, at)
				}
			})
		}
	}
}
