package rts

import "github.com/rollstep/rollstep/fixed"

// cellShiftRaw turns a raw fixed-point coordinate into a cell coordinate:
// 32 fraction bits plus CellShift.
const cellShiftRaw = 32 + CellShift

// cellOf returns the cell coordinate of a position coordinate, clamped to
// the grid.
func cellOf(v fixed.F) int32 {
	return int32(min(max(v.Raw()>>cellShiftRaw, 0), GridSide-1))
}

// rebuild refills g from the live units of s. Units are pushed in
// descending index order, so every cell lists its units in ascending
// order; dead and unused slots get Next 0. The result depends on nothing
// but the units' positions and flags.
func (g *Grid) rebuild(s *State) {
	clear(g.Head[:])
	n := s.count()
	for i := n - 1; i >= 0; i-- {
		u := &s.Units[i]
		if !u.Alive() {
			g.Next[i] = 0
			continue
		}
		c := cellOf(u.Pos.Y)*GridSide + cellOf(u.Pos.X)
		g.Next[i] = g.Head[c]
		g.Head[c] = i + 1
	}
	clear(g.Next[n:])
}

// box is a rectangle of grid cells, bounds included.
type box struct{ x0, y0, x1, y1 int32 }

// around returns the cells that the square of half-side r centred on p
// overlaps: every unit within distance r of p is in one of them.
func around(p fixed.Vec2, r fixed.F) box {
	return box{cellOf(p.X - r), cellOf(p.Y - r), cellOf(p.X + r), cellOf(p.Y + r)}
}

// separation returns the push that unit i gets from the live units closer
// than SepRadius: the sum over each such neighbour j of (Pos_i − Pos_j)
// weighted by 1 − d²/SepRadius². Fixed-point addition is exact, so the sum
// does not depend on the order the neighbours are visited in. Two units on
// the same point push each other along X, the lower index to −X.
func (s *State) separation(i int32) fixed.Vec2 {
	p := s.Units[i].Pos
	b := around(p, SepRadius)
	var sum fixed.Vec2
	for cy := b.y0; cy <= b.y1; cy++ {
		for cx := b.x0; cx <= b.x1; cx++ {
			for j := s.Grid.Head[cy*GridSide+cx]; j != 0; j = s.Grid.Next[j-1] {
				sum = sum.Add(s.push(i, j-1, p))
			}
		}
	}
	return sum
}

// push is the separation push unit j gives unit i at p (zero when j is i
// or too far).
func (s *State) push(i, j int32, p fixed.Vec2) fixed.Vec2 {
	if j == i {
		return fixed.Vec2{}
	}
	d := p.Sub(s.Units[j].Pos)
	if d.X >= SepRadius || d.X <= -SepRadius || d.Y >= SepRadius || d.Y <= -SepRadius {
		return fixed.Vec2{} // outside the square around the circle: no need for d²
	}
	d2 := d.LengthSq()
	if d2 >= sepRadiusSq {
		return fixed.Vec2{}
	}
	if d2 == 0 {
		d = fixed.V2(SepRadius>>1, 0)
		if i < j {
			d = d.Neg()
		}
	}
	return d.Scale(fixed.One - d2.Mul(invSepRadSq))
}

// nearestEnemy returns the index of the live unit not owned by owner
// nearest to p within distance r (at most 2·2^CellShift, so the search
// spans at most 5×5 cells), the lower index on a tie; ok is false when
// there is none.
func (s *State) nearestEnemy(p fixed.Vec2, owner uint8, r fixed.F) (foe int32, ok bool) {
	b := around(p, r)
	best := r.Mul(r) + fixed.FromRaw(1)
	for cy := b.y0; cy <= b.y1; cy++ {
		for cx := b.x0; cx <= b.x1; cx++ {
			for j := s.Grid.Head[cy*GridSide+cx]; j != 0; j = s.Grid.Next[j-1] {
				v := &s.Units[j-1]
				if v.Owner == owner {
					continue
				}
				d2 := p.Sub(v.Pos).LengthSq()
				if d2 < best || (d2 == best && j-1 < foe) {
					best, foe, ok = d2, j-1, true
				}
			}
		}
	}
	return foe, ok
}
