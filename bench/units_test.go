package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rollstep/rollstep"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/units"
	"github.com/rollstep/rollstep/transport/sim"
)

var unitsGame core.Game[units.State, units.Order] = units.Game{}

// unitsState returns a units match of players players and count units.
func unitsState(b testing.TB, players, count int) *units.State {
	b.Helper()
	s, err := units.New(players, count, 7)
	if err != nil {
		b.Fatal(err)
	}
	return &s
}

// unitsInputs orders, every frame, one of player p's units (of 1,000 in a
// 2-player match) to a point: a pure function of p and f, as FitsWindow
// requires, unlike units.Bot, which reads the state.
func unitsInputs(p core.PlayerHandle, f core.Frame) units.Order {
	h := uint32(f)*2654435761 ^ uint32(p)*0x9e3779b9
	return units.Order{Unit: uint16(int(p) + 2*int(h%500)), Kind: units.OrderMove,
		X: int16(h >> 8 % units.MapSize), Y: int16(h >> 20 % units.MapSize)}
}

// BenchmarkLockstepUpload plays the units demo between two lockstep peers
// over transport/sim (40 ms one-way latency, 100 ms turns, a bot ordering
// every 10 turns on average) on virtual time, and reports peer 0's upload
// in bytes per second of virtual time, IP and UDP headers included. One op
// is one turn. Lockstep sends inputs, never state, so upload-B/s must not
// grow with the unit count.
func BenchmarkLockstepUpload(b *testing.B) {
	for _, count := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprintf("units=%d", count), func(b *testing.B) {
			const turn, tick = 100 * time.Millisecond, 20 * time.Millisecond
			net, err := sim.New(sim.Config{Seed: 21, Link: sim.LinkConfig{Latency: sim.Latency{Base: 40 * time.Millisecond}}})
			if err != nil {
				b.Fatal(err)
			}
			conns := [2]*sim.Endpoint{net.NewEndpoint(), net.NewEndpoint()}
			var sess [2]*rollstep.Session[units.State, units.Order]
			var bots [2]*units.Bot
			for i := range 2 {
				cfg := rollstep.Config{Mode: rollstep.Lockstep, Players: 2, Local: []core.PlayerHandle{core.PlayerHandle(i)},
					Peers:      []rollstep.Peer{{Addr: conns[1-i].ID(), Players: []core.PlayerHandle{core.PlayerHandle(1 - i)}}},
					TurnPeriod: turn}
				cfg.Transport.Rand = rand.NewChaCha8([32]byte{byte(i)})
				s, err := rollstep.NewSession(cfg, unitsGame, *unitsState(b, 2, count), conns[i])
				if err != nil {
					b.Fatal(err)
				}
				sess[i], bots[i] = s, units.NewBot(i, 10, 99)
			}
			var now time.Duration
			var last [2]core.Frame
			run := func() {
				for range turn / tick {
					now += tick
					net.RunUntil(now)
					for i, s := range sess {
						if f := s.Frame(); f != last[i] {
							last[i] = f
							if err := s.AddLocalInput(core.PlayerHandle(i), bots[i].Next(s.State())); err != nil {
								b.Fatal(err)
							}
						}
						if err := s.Update(now); err != nil {
							b.Fatal(err)
						}
					}
				}
			}
			for range 20 { // handshake and the delay controller settle
				run()
			}
			sent0, t0, f0 := net.Outbound(conns[0].ID()).Sent.Bytes, now, sess[0].Frame()
			b.ReportAllocs()
			for b.Loop() {
				run()
			}
			bytes := net.Outbound(conns[0].ID()).Sent.Bytes - sent0
			turns := sess[0].Frame() - f0
			if turns == 0 || sess[0].Stats().Desyncs != 0 {
				b.Fatalf("%d turns, %d desyncs", turns, sess[0].Stats().Desyncs)
			}
			b.ReportMetric(float64(bytes)/(now-t0).Seconds(), "upload-B/s")
			b.ReportMetric(float64(bytes)/float64(turns), "B/turn")
		})
	}
}
