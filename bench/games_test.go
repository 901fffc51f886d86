package bench

import (
	"github.com/rollstep/rollstep/core"
)

// duel is a fighter-like game for tests and benchmarks: two players with
// positions, velocities and health in integer units, a 256-byte state and a
// one-byte input of buttons.
type duel struct{}

type duelPlayer struct {
	X, Y, VX, VY int32
	Health       int32
	Attack       int32 // frames into the current attack, 0 when idle
	_            [8]int32
}

type duelState struct {
	Frame   int32
	Hits    int32
	Players [2]duelPlayer
	_       [38]int32
}

// Step moves both players by their buttons (bit 0 left, 1 right, 2 jump,
// 3 attack) with gravity and a floor, and lands attacks in range.
func (duel) Step(s *duelState, inputs []core.Input[uint8], _ core.Effects) {
	s.Frame++
	for i := range s.Players {
		p := &s.Players[i]
		b := inputs[i].Value
		p.VX = 0
		if b&1 != 0 {
			p.VX = -3
		}
		if b&2 != 0 {
			p.VX = 3
		}
		if b&4 != 0 && p.Y == 0 {
			p.VY = 12
		}
		if b&8 != 0 && p.Attack == 0 {
			p.Attack = 1
		}
		p.X += p.VX
		p.Y += p.VY
		p.VY--
		if p.Y <= 0 {
			p.Y, p.VY = 0, 0
		}
		if p.Attack > 0 {
			p.Attack++
			o := &s.Players[1-i]
			if d := p.X - o.X; p.Attack == 5 && d > -40 && d < 40 {
				o.Health--
				s.Hits++
			}
			if p.Attack > 20 {
				p.Attack = 0
			}
		}
	}
}

// duelInputs is a deterministic button pattern that changes every frame.
func duelInputs(p core.PlayerHandle, f core.Frame) uint8 {
	x := uint32(f)*2654435761 + uint32(p)*40503
	return uint8(x>>24) & 15
}

// spin is a deliberately slow game: each Step mixes a counter loops times.
type spin struct{ loops int }

type spinState struct {
	Acc   uint64
	Frame int32
	_     int32
}

func (g spin) Step(s *spinState, inputs []core.Input[uint8], _ core.Effects) {
	x := s.Acc
	for i := range g.loops {
		x = x*6364136223846793005 + uint64(i) + uint64(inputs[0].Value)
	}
	s.Acc = x
	s.Frame++
}
