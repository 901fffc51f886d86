package lockstep

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/units"
	"github.com/rollstep/rollstep/transport/sim"
)

// unitsMatch plays the units demo between two peers for d of virtual time
// and returns each peer's upload in bytes per second (IP and UDP headers
// included) and the turns run.
func unitsMatch(t *testing.T, count int, d time.Duration) (upload [2]float64, turns core.Frame) {
	t.Helper()
	net, err := sim.New(sim.Config{Seed: 21, Link: sim.LinkConfig{Latency: sim.Latency{Base: 40 * ms, Jitter: 5 * ms}}})
	if err != nil {
		t.Fatal(err)
	}
	conns := [2]*sim.Endpoint{net.NewEndpoint(), net.NewEndpoint()}
	var sess [2]*Session[units.State, units.Order]
	var bots [2]*units.Bot
	for i := range 2 {
		initial, err := units.New(2, count, 7)
		if err != nil {
			t.Fatal(err)
		}
		cfg := Config{Players: 2, Local: []core.PlayerHandle{core.PlayerHandle(i)},
			Peers:      []rollstep.Peer{{Addr: conns[1-i].ID(), Players: []core.PlayerHandle{core.PlayerHandle(1 - i)}}},
			TurnPeriod: 100 * ms}
		cfg.Transport.Rand = rand.NewChaCha8([32]byte{byte(i)})
		s, err := NewSession(cfg, core.Game[units.State, units.Order](units.Game{}), initial, conns[i])
		if err != nil {
			t.Fatal(err)
		}
		sess[i], bots[i] = s, units.NewBot(i, 10, 99)
	}
	var last [2]core.Frame
	for now := time.Duration(0); now < d; now += 5 * ms {
		net.RunUntil(now)
		for i, s := range sess {
			if f := s.Frame(); f != last[i] || now == 0 {
				last[i] = f
				if err := s.AddLocalInput(core.PlayerHandle(i), bots[i].Next(s.State())); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Update(now); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := range 2 {
		upload[i] = float64(net.Outbound(conns[i].ID()).Sent.Bytes) / d.Seconds()
		if sess[i].Stats().Desyncs != 0 {
			t.Fatalf("peer %d desynced", i)
		}
	}
	if *sess[0].State() != *sess[1].State() && sess[0].Frame() == sess[1].Frame() {
		t.Fatal("states differ at the same turn")
	}
	return upload, sess[0].Frame()
}

// TestUploadIndependentOfUnits: lockstep sends inputs, not state, so the
// upload at 10 and at 10,000 units is the same within 1 %.
func TestUploadIndependentOfUnits(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 units for a minute of turns")
	}
	small, f1 := unitsMatch(t, 10, 60*time.Second)
	large, f2 := unitsMatch(t, 10000, 60*time.Second)
	for i := range 2 {
		r := large[i] / small[i]
		t.Logf("peer %d: %.0f B/s at 10 units, %.0f B/s at 10,000 (ratio %.4f); turns %d, %d", i, small[i], large[i], r, f1, f2)
		if r < 0.99 || r > 1.01 {
			t.Errorf("peer %d: upload ratio %.4f, want 1 ± 1 %%", i, r)
		}
	}
}
