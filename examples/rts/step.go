package rts

import (
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/fixed"
)

// Kind says what a Command asks for. The zero value, KindNone, does
// nothing, so the zero Command is the "no command" input.
type Kind uint8

const (
	// KindNone is no command.
	KindNone Kind = iota
	// KindMove sends the selected units to (X, Y); they drop their foe
	// and ignore enemies until they arrive (see ArriveRadius), then pick
	// the nearest within AttackRange as their new foe.
	KindMove
	// KindAttack is a click on (X, Y): the selected units attack the live
	// enemy unit nearest to the point within PickRadius, or, when there is
	// none, move there and attack whatever they meet (an attack-move).
	// Either way (X, Y) becomes their goal, where they go once the foe is
	// dead.
	KindAttack
)

// Groups is the number of control groups a player's units fall into.
const Groups = 64

// Command is one player's input for one turn: at most one order, given to
// one control group of the player's units. A player's units are, in index
// order, its ranks 0, 1, 2, … (with P players, rank r of player p is unit
// p + r·P), and group g holds the ranks g, g+Groups, g+2·Groups, …. A command names points, not unit indices, so its
// bytes — and the bandwidth of a match — do not depend on the unit count.
// It is 6 bytes and arena-serializable.
type Command struct {
	// Kind is the order.
	Kind Kind
	// Group is the control group it applies to, below Groups.
	Group uint8
	// X and Y are the point clicked, in whole world units, clamped to the
	// map.
	X, Y int16
}

// EffectDied is the Effect kind Step emits when a unit dies. Args are the
// unit's index, its owner and the index of the unit that dealt the last
// blow (−1 if none did: only a corrupt state has such a death).
const EffectDied uint32 = 1

// Game is the RTS simulation; it implements core.Game[State, Command].
// Its zero value is ready to use.
type Game struct{}

// Step runs one tick: the grid rebuild, the players' commands in handle
// order, then steering, attacks, deaths and movement, each over the units
// in index order. Steering and attacks read the positions and life
// of the start of the tick, so within a phase no unit sees another's
// update of the same tick.
func (Game) Step(s *State, inputs []core.Input[Command], fx core.Effects) {
	s.Grid.rebuild(s)
	for p, in := range inputs {
		if in.Status != core.InputDisconnected {
			s.apply(p, in.Value)
		}
	}
	n := s.count()
	for i := range n {
		if s.Units[i].Alive() {
			s.steer(i)
		}
	}
	for i := range n {
		if s.Units[i].Alive() {
			s.attack(i)
		}
	}
	for i := range n {
		u := &s.Units[i]
		if u.Alive() && u.HP <= 0 {
			u.Flags &^= FlagAlive
			u.Vel, u.Foe = fixed.Vec2{}, 0
			s.Deaths++
			s.Alive[u.Owner%MaxPlayers]--
			fx.Emit(core.Effect{Kind: EffectDied, Args: [3]int64{int64(i), int64(u.Owner), int64(u.LastHit) - 1}})
		}
	}
	for i := range s.Units[:n] {
		if u := &s.Units[i]; u.Alive() {
			u.Pos = clampPos(u.Pos.Add(u.Vel))
		}
	}
	s.Tick++
}

// apply carries out player p's command if it is valid: a known kind and
// group of a player in the match. Anything else is ignored, as a game must
// ignore any input it cannot use rather than trust it.
func (s *State) apply(p int, c Command) {
	players := s.Players
	if p < 0 || int32(p) >= players || players > MaxPlayers || c.Group >= Groups {
		return
	}
	n := s.count()
	point := fixed.V2(coord(c.X), coord(c.Y))
	var foe int32
	switch c.Kind {
	case KindMove:
	case KindAttack:
		if f, ok := s.nearestEnemy(point, uint8(p), PickRadius); ok {
			foe = f + 1
		}
	default:
		return
	}
	owned := (n - int32(p) + players - 1) / players
	for r := int32(c.Group); r < owned; r += Groups {
		u := &s.Units[int32(p)+r*players]
		if !u.Alive() {
			continue
		}
		u.Goal, u.Foe = point, foe
		u.Flags &^= FlagMoving
		if c.Kind == KindMove {
			u.Flags |= FlagMoving
		}
	}
}

// coord returns v as a world coordinate on the map.
func coord(v int16) fixed.F {
	return fixed.FromInt(int64(min(max(v, 0), MapSize-1)))
}

// steer sets unit i's velocity: toward its foe until in range (then it
// holds), or toward its goal, plus the separation push, clamped to Speed.
// A unit without a foe that is not under a move order looks for one every
// AcquireEvery ticks.
func (s *State) steer(i int32) {
	u := &s.Units[i]
	if u.Foe != 0 && !s.foeAlive(u.Foe) {
		u.Foe = 0
	}
	if u.Flags&FlagMoving != 0 && u.Goal.Sub(u.Pos).LengthSq() <= arriveSq {
		u.Flags &^= FlagMoving
	}
	if u.Foe == 0 && u.Flags&FlagMoving == 0 && (s.Tick+i)%AcquireEvery == 0 {
		if f, ok := s.nearestEnemy(u.Pos, u.Owner, AttackRange); ok {
			u.Foe = f + 1
		}
	}
	var seek fixed.Vec2
	if u.Foe != 0 {
		to := s.Units[u.Foe-1].Pos.Sub(u.Pos)
		if to.LengthSq() > attackRangeSq {
			seek = to.ClampLength(Speed)
		}
	} else {
		seek = u.Goal.Sub(u.Pos).ClampLength(Speed)
	}
	u.Vel = seek.Add(s.separation(i)).ClampLength(Speed)
}

// foeAlive reports whether the unit with index+1 f exists and is alive.
func (s *State) foeAlive(f int32) bool {
	return f > 0 && f <= s.count() && s.Units[f-1].Alive()
}

// attack lets unit i hit its foe if the foe is in range and the unit has
// reloaded. Damage lands at once, but a unit dies only in the death phase,
// so every unit alive at the start of the tick attacks in it.
func (s *State) attack(i int32) {
	u := &s.Units[i]
	if u.Reload > 0 {
		u.Reload--
	}
	if u.Foe == 0 || u.Reload > 0 || !s.foeAlive(u.Foe) {
		return
	}
	f := &s.Units[u.Foe-1]
	if u.Pos.Sub(f.Pos).LengthSq() > attackRangeSq {
		return
	}
	f.HP -= Damage
	f.LastHit = i + 1
	u.Reload = Cooldown
}
