package fighter

import (
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/fixed"
)

// FrameData describes one attack: how long each phase lasts, where its
// hitbox is, and what it does on hit and on block. Phases run in order:
// Startup frames with no hitbox, Active frames with the hitbox out (it hits
// at most once), then Recovery frames with no hitbox, after which the
// fighter is free again.
type FrameData struct {
	// Startup, Active and Recovery are the phase lengths in frames.
	Startup, Active, Recovery int32
	// Near and Far bound the hitbox horizontally, in front of the
	// attacker: from Pos.X + Facing·Near to Pos.X + Facing·Far.
	Near, Far int32
	// Low and High bound the hitbox vertically, above the attacker's feet.
	Low, High int32
	// Damage is taken on hit, Chip on block.
	Damage, Chip int32
	// Hitstun and Blockstun are the defender's frames without control.
	Hitstun, Blockstun int32
	// Push is the defender's pushback speed on hit; half of it on block.
	Push int32
}

// Total returns the length of the attack in frames.
func (d FrameData) Total() int32 { return d.Startup + d.Active + d.Recovery }

// active reports whether frame t of the attack (from 0) is an active frame.
func (d FrameData) active(t int32) bool { return t >= d.Startup && t < d.Startup+d.Active }

// Move returns the frame data of attack k, or the zero FrameData for
// AttackNone or an unknown kind. The table is not exported as a variable:
// a program that changed it on one peer would desync from the others.
func Move(k AttackKind) FrameData {
	if int(k) >= len(moves) {
		return FrameData{}
	}
	return moves[k]
}

// moves holds the frame data of each AttackKind. On hit the attacker
// recovers before the defender (hitstun exceeds the frames left); on
// block after (blockstun falls short), as in most fighting games.
var moves = [...]FrameData{
	AttackHigh: {Startup: 5, Active: 3, Recovery: 12, Near: 4, Far: 30, Low: 16, High: 28,
		Damage: 10, Chip: 1, Hitstun: 18, Blockstun: 10, Push: 3},
	AttackLow: {Startup: 6, Active: 2, Recovery: 14, Near: 4, Far: 26, Low: 0, High: 8,
		Damage: 7, Chip: 1, Hitstun: 16, Blockstun: 8, Push: 2},
}

// Effect kinds Step emits through core.Effects.
const (
	// EffectHit is an attack landing. Args: attacker, damage, the
	// defender's health left.
	EffectHit uint32 = 1
	// EffectBlock is an attack blocked. Args: attacker, chip damage, the
	// defender's health left.
	EffectBlock uint32 = 2
	// EffectKO ends a round by knock-out or time. Args: the Result, the
	// round number, 1 if it was a knock-out and 0 if time ran out.
	EffectKO uint32 = 3
)

// box is an axis-aligned rectangle [X0, X1] × [Y0, Y1] in world units.
type box struct{ x0, x1, y0, y1 fixed.F }

// overlaps reports whether a and b share a point.
func (a box) overlaps(b box) bool {
	return a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1
}

// hurtbox returns the box in which f can be hit.
func (f *Fighter) hurtbox() box {
	h := int64(StandHeight)
	if f.Crouching && f.Pos.Y == 0 {
		h = CrouchHeight
	}
	w := fixed.FromInt(HalfWidth)
	return box{f.Pos.X - w, f.Pos.X + w, f.Pos.Y, f.Pos.Y + fixed.FromInt(h)}
}

// hitbox returns f's hitbox and true during the active frames of an attack
// that has not connected yet: an attack hits at most once.
func (f *Fighter) hitbox() (box, bool) {
	if f.Action != ActionAttack || f.Connected || f.Attack == AttackNone || int(f.Attack) >= len(moves) {
		return box{}, false
	}
	d := &moves[f.Attack]
	if !d.active(f.Timer) {
		return box{}, false
	}
	near := f.Pos.X + fixed.FromInt(int64(f.Facing)*int64(d.Near))
	far := f.Pos.X + fixed.FromInt(int64(f.Facing)*int64(d.Far))
	b := box{min(near, far), max(near, far), f.Pos.Y + fixed.FromInt(int64(d.Low)), f.Pos.Y + fixed.FromInt(int64(d.High))}
	return b, true
}

// blocks reports whether f blocks attack kind k coming from the side of
// x: it holds block on the ground facing the attacker, crouching for a
// low attack. A fighter already in blockstun keeps blocking.
func (f *Fighter) blocks(k AttackKind, x fixed.F) bool {
	if (f.Action != ActionBlock && f.Action != ActionBlockstun) || f.Pos.Y != 0 {
		return false
	}
	if (x - f.Pos.X).Sign() != int(f.Facing) {
		return false
	}
	return k != AttackLow || f.Crouching
}

// resolveHits checks both attackers' hitboxes against the other fighter's
// hurtbox, all against the positions before either hit lands, so neither
// player index is favoured, then applies the hits.
func (s *State) resolveHits(fx core.Effects) {
	var lands [2]bool
	for p := range s.Fighters {
		a, d := &s.Fighters[p], &s.Fighters[1-p]
		if hb, ok := a.hitbox(); ok {
			lands[p] = hb.overlaps(d.hurtbox())
		}
	}
	var blocked [2]bool
	for p := range s.Fighters {
		if lands[p] {
			a := &s.Fighters[p]
			blocked[p] = s.Fighters[1-p].blocks(a.Attack, a.Pos.X)
		}
	}
	for p := range s.Fighters {
		if lands[p] {
			s.land(p, blocked[p], fx)
		}
	}
}

// land applies player p's connecting attack to the other fighter.
func (s *State) land(p int, blocked bool, fx core.Effects) {
	a, d := &s.Fighters[p], &s.Fighters[1-p]
	m := &moves[a.Attack]
	a.Connected = true
	push := fixed.FromInt(int64(a.Facing) * int64(m.Push))
	kind, dmg := EffectHit, m.Damage
	if blocked {
		kind, dmg = EffectBlock, m.Chip
		d.Action, d.Timer = ActionBlockstun, m.Blockstun
		d.Vel.X = push.Mul(fixed.Half)
		d.Blocked++
	} else {
		d.Action, d.Timer = ActionHitstun, m.Hitstun
		d.Vel.X = push
		d.Crouching = false
		a.Hits++
	}
	d.Attack = AttackNone
	d.Health = max(d.Health-dmg, 0)
	fx.Emit(core.Effect{Kind: kind, Args: [3]int64{int64(p), int64(dmg), int64(d.Health)}})
}
