package units

import (
	"errors"
	"fmt"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/fixed"
	"github.com/rollstep/rollstep/state"
)

// MaxUnits is the largest number of units a State holds. The array is
// always this long (save and checksum cost follow it); Step moves only the
// first Count units.
const MaxUnits = 16384

// MapSize is the side of the square map in world units. Positions and
// targets lie in [0, MapSize).
const MapSize = 1024

// Speed is how far a unit moves in one frame, in world units. It is a
// constant: a peer that could change it would desync.
const Speed = fixed.One / 4

// speedSq is Speed squared: a unit closer than Speed to its target arrives.
var speedSq = Speed.Mul(Speed)

// Unit is one unit of the map.
type Unit struct {
	// Pos is where the unit is.
	Pos fixed.Vec2
	// Target is where it is going; it stands still when Pos == Target.
	Target fixed.Vec2
	// Owner is the handle of the player who may order it.
	Owner uint8
	_     [7]byte
}

// State is the whole simulation state of a units match.
type State struct {
	// Frame counts the steps taken.
	Frame int32
	// Count is how many units are in play: Units[:Count].
	Count int32
	// Players is the number of players; unit i belongs to player
	// i mod Players.
	Players int32
	// Arrived counts the units that reached their target so far.
	Arrived int32
	// Units are the units; only the first Count move.
	Units [MaxUnits]Unit
}

// OrderKind says what an Order asks for. The zero value, OrderNone, does
// nothing, so the zero Order is a valid "no command" input.
type OrderKind uint8

const (
	// OrderNone is no command.
	OrderNone OrderKind = iota
	// OrderMove sends unit Unit to (X, Y).
	OrderMove
)

// Order is one player's input for one frame: at most one command.
type Order struct {
	// Unit is the index of the unit in State.Units.
	Unit uint16
	// Kind is the command.
	Kind OrderKind
	_    uint8
	// X and Y are the target in whole world units, clamped to the map.
	X, Y int16
}

// EffectArrived is the Effect kind Step emits when a unit reaches its
// target; Args are the unit index and its position's raw X and Y.
const EffectArrived uint32 = 1

// ErrBadSetup is returned by New for a player or unit count out of range.
var ErrBadSetup = errors.New("units: bad setup")

// New returns the initial state of a match of players players and count
// units, placed by a state.Rand seeded with seed. Every peer calls it with
// the same arguments and gets the same bytes.
func New(players, count int, seed uint64) (State, error) {
	var s State
	if players < 1 || players > core.MaxPlayers {
		return s, fmt.Errorf("%w: %d players, want 1 to %d", ErrBadSetup, players, core.MaxPlayers)
	}
	if count < 0 || count > MaxUnits {
		return s, fmt.Errorf("%w: %d units, want 0 to %d", ErrBadSetup, count, MaxUnits)
	}
	s.Count = int32(count)
	s.Players = int32(players)
	r := state.NewRand(seed)
	for i := range s.Units[:count] {
		p := fixed.V2(randCoord(&r), randCoord(&r))
		s.Units[i] = Unit{Pos: p, Target: p, Owner: uint8(i % players)}
	}
	return s, nil
}

// randCoord returns a random whole coordinate on the map.
func randCoord(r *state.Rand) fixed.F {
	return fixed.FromInt(int64(r.Int32N(MapSize)))
}

// Game is the units simulation; it implements core.Game[State, Order].
type Game struct{}

// Step applies each player's order, in player order, then moves every unit
// Speed toward its target, emitting EffectArrived on arrival.
func (Game) Step(s *State, inputs []core.Input[Order], fx core.Effects) {
	for p, in := range inputs {
		if in.Status == core.InputDisconnected {
			continue
		}
		s.apply(p, in.Value)
	}
	for i := range s.Units[:s.clampedCount()] {
		u := &s.Units[i]
		if u.Pos == u.Target {
			continue
		}
		d := u.Target.Sub(u.Pos)
		if d.LengthSq() <= speedSq {
			u.Pos = u.Target
			s.Arrived++
			fx.Emit(core.Effect{Kind: EffectArrived, Args: [3]int64{int64(i), u.Pos.X.Raw(), u.Pos.Y.Raw()}})
			continue
		}
		u.Pos = u.Pos.Add(d.Normalize().Scale(Speed))
	}
	s.Frame++
}

// apply carries out player p's order if it is valid: the unit exists and
// belongs to p. Anything else is ignored, as a game must ignore any input
// it cannot use rather than trust it.
func (s *State) apply(p int, o Order) {
	if o.Kind != OrderMove || int32(o.Unit) >= s.clampedCount() {
		return
	}
	u := &s.Units[o.Unit]
	if int(u.Owner) != p {
		return
	}
	u.Target = fixed.V2(clampCoord(o.X), clampCoord(o.Y))
}

// clampedCount is Count limited to [0, MaxUnits], so a state from a
// snapshot with a corrupt count cannot index out of range.
func (s *State) clampedCount() int32 {
	return min(max(s.Count, 0), MaxUnits)
}

// clampCoord returns v as a world coordinate on the map.
func clampCoord(v int16) fixed.F {
	return fixed.FromInt(int64(min(max(v, 0), MapSize-1)))
}
