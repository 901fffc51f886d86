package skirmish

import (
	"math/bits"

	"github.com/rollstep/rollstep/examples/rts"
)

// Selection is a set of the human's control groups, one bit per group:
// bit g is group g. rts.Groups is 64, so a uint64 holds them all. A
// rts.Command names one group, so a Selection is what the viewer adds on
// top: an order to a Selection becomes one command per group.
type Selection uint64

// AllGroups selects every group.
const AllGroups = ^Selection(0)

// Squads is how many number keys select groups: key n (1 to 9, and 0
// for 10) selects squad n, the groups g with g mod Squads = n−1. The
// game scatters a player's ranks at random around its base, so a squad is
// a tenth of the army, spread over the base.
const Squads = 10

// Has reports whether group g is selected.
func (s Selection) Has(g uint8) bool { return g < rts.Groups && s&(1<<g) != 0 }

// With returns s plus group g.
func (s Selection) With(g uint8) Selection { return s | 1<<(g%rts.Groups) }

// Count returns how many groups are selected.
func (s Selection) Count() int { return bits.OnesCount64(uint64(s)) }

// Groups returns the selected groups in ascending order.
func (s Selection) Groups() []uint8 {
	var out []uint8
	for v := uint64(s); v != 0; v &= v - 1 {
		out = append(out, uint8(bits.TrailingZeros64(v)))
	}
	return out
}

// Squad returns the groups of squad n (1 to Squads).
func Squad(n int) Selection {
	var s Selection
	for g := n - 1; g >= 0 && g < rts.Groups; g += Squads {
		s = s.With(uint8(g))
	}
	return s
}

// GroupOf returns the control group of unit i in a match of players
// players: unit i is rank i/players of player i mod players, and group g
// holds the ranks congruent to g modulo rts.Groups (see rts.Command).
func GroupOf(i, players int) uint8 {
	return uint8((i / max(players, 1)) % rts.Groups)
}

// rect is an axis-aligned rectangle in world units; x0 ≤ x1, y0 ≤ y1
// once normalized.
type rect struct{ x0, y0, x1, y1 float64 }

// normalized returns r with its corners ordered.
func (r rect) normalized() rect {
	return rect{min(r.x0, r.x1), min(r.y0, r.y1), max(r.x0, r.x1), max(r.y0, r.y1)}
}

// contains reports whether (x, y) lies in the normalized r.
func (r rect) contains(x, y float64) bool {
	return x >= r.x0 && x <= r.x1 && y >= r.y0 && y <= r.y1
}

// selectBox returns the groups of player's live units inside the world
// rectangle r.
func selectBox(s *rts.State, player int, r rect) Selection {
	r = r.normalized()
	players := int(s.Players)
	var sel Selection
	for i := player; i < int(s.Count); i += players {
		u := &s.Units[i]
		if u.Alive() && r.contains(u.Pos.X.Float64(), u.Pos.Y.Float64()) {
			sel = sel.With(GroupOf(i, players))
		}
	}
	return sel
}

// nearestUnit returns the live unit nearest to (x, y) within radius world
// units whose owner passes keep, and whether there is one.
func nearestUnit(s *rts.State, x, y, radius float64, keep func(owner int) bool) (int, bool) {
	best, bestD := -1, radius*radius
	for i := range int(s.Count) {
		u := &s.Units[i]
		if !u.Alive() || !keep(int(u.Owner)) {
			continue
		}
		dx, dy := u.Pos.X.Float64()-x, u.Pos.Y.Float64()-y
		if d := dx*dx + dy*dy; d <= bestD {
			best, bestD = i, d
		}
	}
	return best, best >= 0
}
