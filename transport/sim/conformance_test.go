package sim_test

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/transport/sim"
	"github.com/rollstep/rollstep/transport/transporttest"
)

func TestConnConformance(t *testing.T) {
	for _, tc := range []struct {
		name string
		link sim.LinkConfig
	}{
		{"PerfectLink", sim.LinkConfig{}},
		{"SlowLink", sim.LinkConfig{Latency: sim.Latency{Base: 80 * time.Millisecond, Jitter: 20 * time.Millisecond}, Bandwidth: 50_000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			transporttest.TestConn(t, func(t *testing.T) transporttest.Pair {
				net, err := sim.New(sim.Config{Seed: 1, Link: tc.link})
				if err != nil {
					t.Fatal(err)
				}
				a, b := net.NewEndpoint(), net.NewEndpoint()
				t.Cleanup(func() { a.Close(); b.Close() })
				return transporttest.Pair{
					A: a, B: b, ToB: b.ID(), ToA: a.ID(),
					Settle: func() { net.Advance(10 * time.Millisecond) },
				}
			})
		})
	}
}
