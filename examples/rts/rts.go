package rts

import (
	"errors"
	"fmt"

	"github.com/rollstep/rollstep/fixed"
	"github.com/rollstep/rollstep/state"
)

// Limits of a match. The arrays of State are always this long, so the
// state has one size whatever the unit count; Step works on the first
// State.Count units only.
const (
	// MinPlayers and MaxPlayers bound the players of a match.
	MinPlayers, MaxPlayers = 2, 8
	// MaxUnits is the largest number of units a State holds.
	MaxUnits = 10000
	// MapSize is the side of the square map in world units; positions lie
	// in [0, MapSize).
	MapSize = 1024
	// CellShift is log2 of the side of a grid cell in world units (8).
	CellShift = 3
	// GridSide is the number of grid cells along one side of the map.
	GridSide = MapSize >> CellShift
	// GridCells is the number of cells of the grid.
	GridCells = GridSide * GridSide
)

// Rules of combat, in ticks (one Step) and hit points.
const (
	// MaxHP is a new unit's hit points.
	MaxHP = 100
	// Damage is the hit points one attack removes.
	Damage = 8
	// Cooldown is the number of ticks between two attacks of one unit.
	Cooldown = 8
	// AcquireEvery is the period, in ticks, at which a unit without a foe
	// looks for the nearest enemy in AttackRange: unit i looks on ticks
	// where (Tick + i) mod AcquireEvery is 0, which spreads the searches.
	AcquireEvery = 4
)

// Distances, in world units. The attack range is no wider than a grid
// cell, so a search never needs more than the 3×3 cells around a unit.
// Typed constants, so no importer can change them and desync its peers.
const (
	// Speed is the farthest a unit moves in one tick.
	Speed = fixed.One * 3 / 4
	// SepRadius is the distance under which two units push each other
	// apart.
	SepRadius = fixed.One * 2
	// AttackRange is the distance at which a unit can hit its foe.
	AttackRange = fixed.One * 6
	// PickRadius is how far from the point of a KindAttack command the
	// enemy it designates may be.
	PickRadius = fixed.One * 12
	// ArriveRadius is how near its goal a moving unit must come to count
	// as arrived (a group crowds around its goal; it cannot all stand on
	// it).
	ArriveRadius = fixed.One * 16
)

// Derived constants, computed once from the ones above with fixed-point
// operations only.
var (
	sepRadiusSq   = SepRadius.Mul(SepRadius)
	invSepRadSq   = fixed.One.Div(sepRadiusSq)
	attackRangeSq = AttackRange.Mul(AttackRange)
	arriveSq      = ArriveRadius.Mul(ArriveRadius)
	maxCoord      = fixed.FromInt(MapSize) - fixed.FromRaw(1) // one LSB below MapSize
)

// Unit flags.
const (
	// FlagAlive is set on a unit in play; a dead unit keeps its slot (it is
	// removed by clearing the flag) and is skipped by everything.
	FlagAlive uint8 = 1 << iota
	// FlagMoving is set by a move command: the unit ignores enemies until
	// it comes within ArriveRadius of its goal.
	FlagMoving
)

// Unit is one unit on the map. Its layout is 64 bytes on every target.
type Unit struct {
	// Pos is where the unit is.
	Pos fixed.Vec2
	// Vel is the displacement of the latest tick (steering plus
	// separation), at most Speed long.
	Vel fixed.Vec2
	// Goal is where a move command sent it.
	Goal fixed.Vec2
	// HP is its hit points; it dies at the end of the tick HP reaches 0.
	HP int32
	// Foe is the index+1 of the enemy unit it attacks; 0 means none.
	Foe int32
	// LastHit is the index+1 of the last unit that hit it; 0 means none.
	LastHit int32
	// Owner is the handle of the player who commands it.
	Owner uint8
	// Flags holds FlagAlive and FlagMoving.
	Flags uint8
	// Reload counts down the ticks until it may attack again.
	Reload uint8
	_      uint8
}

// Alive reports whether u is in play.
func (u *Unit) Alive() bool { return u.Flags&FlagAlive != 0 }

// Grid is the uniform spatial grid over the map, rebuilt at every tick
// from the live units' positions. Each cell holds a singly linked list of
// the units in it, in ascending index order: Head[c] is the index+1 of the
// first unit of cell c (0: empty) and Next[i] the index+1 of the unit
// after unit i (0: last). Indices are int32 so the layout is the same on
// 32- and 64-bit targets.
type Grid struct {
	// Head is the first unit of each cell, row-major (y·GridSide + x).
	Head [GridCells]int32
	// Next links the units of a cell.
	Next [MaxUnits]int32
}

// State is the whole simulation state of a match: arena-serializable
// (fixed-size arrays, fixed-point numbers, explicit padding), so a save is
// a copy and its checksum a hash of its bytes.
type State struct {
	// Tick counts the steps taken.
	Tick int32
	// Count is the number of unit slots in use: Units[:Count].
	Count int32
	// Players is the number of players; unit i belongs to player
	// i mod Players.
	Players int32
	// Deaths counts the units killed so far.
	Deaths int32
	// Alive is the number of live units of each player.
	Alive [MaxPlayers]int32
	// Units are the units; only the first Count are in play.
	Units [MaxUnits]Unit
	// Grid is the spatial grid of the latest tick.
	Grid Grid
}

// ErrBadSetup is returned by New for a player or unit count out of range.
var ErrBadSetup = errors.New("rts: bad setup")

// New returns the initial state of a match of players players and count
// units: each player's units are scattered by a state.Rand seeded with
// seed over a square around its base (see Base). Every peer calls New with
// the same arguments and gets the same bytes.
func New(players, count int, seed uint64) (State, error) {
	var s State
	if players < MinPlayers || players > MaxPlayers {
		return s, fmt.Errorf("%w: %d players, want %d to %d", ErrBadSetup, players, MinPlayers, MaxPlayers)
	}
	if count < 0 || count > MaxUnits {
		return s, fmt.Errorf("%w: %d units, want 0 to %d", ErrBadSetup, count, MaxUnits)
	}
	s.Count, s.Players = int32(count), int32(players)
	r := state.NewRand(seed)
	const spread = 160
	for i := range s.Units[:count] {
		p := i % players
		b := Base(p, players)
		off := fixed.V2(fixed.FromInt(int64(r.Int32N(spread)-spread/2)), fixed.FromInt(int64(r.Int32N(spread)-spread/2)))
		pos := clampPos(b.Add(off))
		s.Units[i] = Unit{Pos: pos, Goal: pos, HP: MaxHP, Owner: uint8(p), Flags: FlagAlive}
		s.Alive[p]++
	}
	s.Grid.rebuild(&s)
	return s, nil
}

// Base returns the centre of player p's starting area in a match of
// players players: points on a circle of radius 320 around the map's
// centre, evenly spaced.
func Base(p, players int) fixed.Vec2 {
	if players < 1 {
		players = 1
	}
	c := fixed.FromInt(MapSize / 2)
	dir := fixed.FromAngle(fixed.AngleFromTurns(int64(p), int64(players)))
	return fixed.V2(c, c).Add(dir.Scale(fixed.FromInt(320)))
}

// count is Count limited to [0, MaxUnits], so a state decoded from a
// corrupt snapshot cannot index out of range.
func (s *State) count() int32 { return min(max(s.Count, 0), MaxUnits) }

// clampPos returns p moved onto the map.
func clampPos(p fixed.Vec2) fixed.Vec2 {
	return fixed.V2(fixed.Clamp(p.X, 0, maxCoord), fixed.Clamp(p.Y, 0, maxCoord))
}
