package rts

import (
	"fmt"
	"testing"

	"github.com/rollstep/rollstep/fixed"
	"github.com/rollstep/rollstep/state"
)

// layout returns a state with n units of players players scattered by
// seed: half uniformly over the map, half in a few tight clusters (many
// per cell, some on exactly the same point, some on the map's edges and
// cell borders), and one in ten dead.
func layout(players, n int, seed uint64) *State {
	s, _ := New(players, 0, seed)
	s.Count = int32(n)
	r := state.NewRand(seed)
	for i := range s.Units[:n] {
		var p fixed.Vec2
		switch k := r.Uint32N(8); {
		case k < 4:
			p = fixed.V2(fixed.FromRaw(int64(r.Uint64()%(uint64(maxCoord)+1))), fixed.FromRaw(int64(r.Uint64()%(uint64(maxCoord)+1))))
		case k < 7:
			c := fixed.FromInt(int64(8 * (1 + r.Int32N(4)))) // near cell corners (8, 16, 24, 32)
			p = fixed.V2(c+fixed.FromRaw(int64(r.Uint64()%(1<<34))-1<<33), c+fixed.FromRaw(int64(r.Uint64()%(1<<34))-1<<33))
		default:
			edge := []fixed.F{0, maxCoord, fixed.FromInt(512)}
			p = fixed.V2(edge[r.Uint32N(3)], edge[r.Uint32N(3)])
		}
		u := Unit{Pos: clampPos(p), HP: MaxHP, Owner: uint8(i % players), Flags: FlagAlive}
		if r.Uint32N(10) == 0 {
			u.Flags = 0
		}
		s.Units[i] = u
	}
	s.Grid.rebuild(&s)
	return &s
}

// bruteSeparation is separation by looking at every unit.
func bruteSeparation(s *State, i int32) fixed.Vec2 {
	var sum fixed.Vec2
	for j := range s.count() {
		if s.Units[j].Alive() {
			sum = sum.Add(s.push(i, j, s.Units[i].Pos))
		}
	}
	return sum
}

// bruteNearest is nearestEnemy by looking at every unit.
func bruteNearest(s *State, p fixed.Vec2, owner uint8, r fixed.F) (int32, bool) {
	best, foe, ok := fixed.F(0), int32(0), false
	for j := range s.count() {
		u := &s.Units[j]
		if !u.Alive() || u.Owner == owner {
			continue
		}
		d2 := p.Sub(u.Pos).LengthSq()
		if d2 <= r.Mul(r) && (!ok || d2 < best) {
			best, foe, ok = d2, j, true
		}
	}
	return foe, ok
}

// TestGridMatchesBruteForce checks the grid's neighbour queries against an
// O(n²) oracle on seeded layouts: the separation of every unit and the
// nearest enemy within AttackRange and PickRadius of every unit and of
// random points.
func TestGridMatchesBruteForce(t *testing.T) {
	for _, tc := range []struct {
		players, n int
		seed       uint64
	}{{2, 300, 1}, {3, 1000, 2}, {8, 2000, 3}, {4, 1500, 4}} {
		t.Run(fmt.Sprintf("%dp_%du_seed%d", tc.players, tc.n, tc.seed), func(t *testing.T) {
			s := layout(tc.players, tc.n, tc.seed)
			pushes := 0
			for i := range int32(tc.n) {
				if !s.Units[i].Alive() {
					continue
				}
				got, want := s.separation(i), bruteSeparation(s, i)
				if got != want {
					t.Fatalf("unit %d at %v: separation %v, want %v", i, s.Units[i].Pos, got, want)
				}
				if got != (fixed.Vec2{}) {
					pushes++
				}
				for _, r := range []fixed.F{AttackRange, PickRadius} {
					u := &s.Units[i]
					f, ok := s.nearestEnemy(u.Pos, u.Owner, r)
					wf, wok := bruteNearest(s, u.Pos, u.Owner, r)
					if f != wf || ok != wok {
						t.Fatalf("unit %d, range %v: nearest enemy %d %v, want %d %v", i, r, f, ok, wf, wok)
					}
				}
			}
			if pushes < tc.n/10 {
				t.Errorf("only %d units were pushed: the layout tests too little", pushes)
			}
			r := state.NewRand(tc.seed + 100)
			for range 500 {
				p := fixed.V2(fixed.FromRaw(int64(r.Uint64()%(uint64(maxCoord)+1))), fixed.FromRaw(int64(r.Uint64()%(uint64(maxCoord)+1))))
				owner := uint8(r.Uint32N(uint32(tc.players)))
				f, ok := s.nearestEnemy(p, owner, PickRadius)
				wf, wok := bruteNearest(s, p, owner, PickRadius)
				if f != wf || ok != wok {
					t.Fatalf("point %v for player %d: nearest enemy %d %v, want %d %v", p, owner, f, ok, wf, wok)
				}
			}
		})
	}
}

// TestGridLists checks the grid's structure: every live unit is listed
// once, in the cell of its position, and each cell lists ascending
// indices.
func TestGridLists(t *testing.T) {
	s := layout(5, 3000, 9)
	seen := make([]int, s.Count)
	for c, h := range s.Grid.Head {
		prev := int32(-1)
		for j := h; j != 0; j = s.Grid.Next[j-1] {
			i := j - 1
			u := &s.Units[i]
			if !u.Alive() || cellOf(u.Pos.Y)*GridSide+cellOf(u.Pos.X) != int32(c) || i <= prev {
				t.Fatalf("cell %d lists unit %d (alive %v, at %v) after %d", c, i, u.Alive(), u.Pos, prev)
			}
			prev = i
			seen[i]++
		}
	}
	for i, k := range seen {
		if want := map[bool]int{true: 1, false: 0}[s.Units[i].Alive()]; k != want {
			t.Errorf("unit %d listed %d times, want %d", i, k, want)
		}
	}
}
