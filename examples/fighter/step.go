package fighter

import (
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/fixed"
)

// Game is the fighter simulation; it implements core.Game[State, Input].
// It has no fields: everything a frame depends on is in State and the
// frame's inputs.
type Game struct{}

// Step advances s by one frame:
//
//  1. during the pause after a round, it counts down and starts the next
//     round, ignoring inputs;
//  2. otherwise each fighter that is free turns to face the other and
//     acts on its player's buttons (a disconnected player's input is the
//     zero Input: it stands still);
//  3. gravity, landing, walls and body pushing move both fighters;
//  4. attacks in their active frames hit or are blocked (EffectHit,
//     EffectBlock);
//  5. a fighter at 0 health, or the round clock running out, ends the
//     round (EffectKO).
func (Game) Step(s *State, inputs []core.Input[Input], fx core.Effects) {
	s.Frame++
	if s.Over > 0 {
		s.Over--
		s.move()
		if s.Over == 0 {
			s.startRound()
		}
		return
	}
	s.RoundFrame++
	for p := range s.Fighters {
		var b Buttons
		if p < len(inputs) && inputs[p].Status != core.InputDisconnected {
			b = inputs[p].Value.Buttons
		}
		s.control(p, b)
	}
	s.move()
	s.resolveHits(fx)
	s.checkRoundEnd(fx)
}

// control runs player p's fighter's action for one frame with buttons b.
func (s *State) control(p int, b Buttons) {
	f, o := &s.Fighters[p], &s.Fighters[1-p]
	switch f.Action {
	case ActionAttack:
		f.Timer++
		if f.Timer < Move(f.Attack).Total() {
			return
		}
		f.idle() // the attack is over: free again from this frame
	case ActionHitstun, ActionBlockstun:
		f.Timer--
		if f.Timer > 0 || f.Pos.Y != 0 {
			return
		}
		f.idle()
	case ActionJump:
		return
	}
	if d := (o.Pos.X - f.Pos.X).Sign(); d != 0 {
		f.Facing = int8(d)
	}
	f.Crouching = b.Has(Down)
	f.Vel.X = 0
	switch {
	case b.Has(Attack):
		f.Action, f.Timer, f.Connected = ActionAttack, 0, false
		f.Attack = AttackHigh
		if f.Crouching {
			f.Attack = AttackLow
		}
	case b.Has(Up):
		f.Action, f.Crouching = ActionJump, false
		f.Vel.Y = JumpVelocity
		f.Vel.X = direction(b).Mul(JumpSpeed)
	case b.Has(Block):
		f.Action = ActionBlock
	case f.Crouching:
		f.Action = ActionCrouch
	default:
		f.Vel.X = direction(b).Mul(WalkSpeed)
		f.Action = ActionIdle
		if f.Vel.X != 0 {
			f.Action = ActionWalk
		}
	}
}

// idle returns f to standing, free to act.
func (f *Fighter) idle() {
	f.Action, f.Attack, f.Timer, f.Connected, f.Crouching = ActionIdle, AttackNone, 0, false, false
}

// direction returns -1, 0 or +1 for the horizontal buttons of b; both
// held cancel out.
func direction(b Buttons) fixed.F {
	var d fixed.F
	if b.Has(Left) {
		d -= fixed.One
	}
	if b.Has(Right) {
		d += fixed.One
	}
	return d
}

// move applies gravity, speed, landing, friction, the walls and the
// fighters' bodies pushing each other apart.
func (s *State) move() {
	for p := range s.Fighters {
		f := &s.Fighters[p]
		if f.Pos.Y > 0 || f.Vel.Y > 0 {
			f.Vel.Y -= Gravity
		}
		f.Pos = f.Pos.Add(f.Vel)
		if f.Pos.Y <= 0 && f.Vel.Y <= 0 {
			f.Pos.Y, f.Vel.Y = 0, 0
			if f.Action == ActionJump {
				f.idle()
				f.Vel.X = 0
			}
		}
		if f.Pos.Y == 0 && (f.Action == ActionHitstun || f.Action == ActionBlockstun || s.Over > 0) {
			f.Vel.X = f.Vel.X.Mul(Friction)
		}
	}
	s.push()
	for p := range s.Fighters {
		f := &s.Fighters[p]
		f.Pos.X = fixed.Clamp(f.Pos.X, fixed.FromInt(HalfWidth), fixed.FromInt(ArenaWidth-HalfWidth))
	}
}

// push separates fighters whose bodies overlap, each by half the overlap,
// unless one is above the other's head.
func (s *State) push() {
	a, b := &s.Fighters[0], &s.Fighters[1]
	if (a.Pos.Y - b.Pos.Y).Abs() >= fixed.FromInt(StandHeight) {
		return
	}
	gap := b.Pos.X - a.Pos.X
	overlap := fixed.FromInt(2*HalfWidth) - gap.Abs()
	if overlap <= 0 {
		return
	}
	half := overlap.Mul(fixed.Half)
	if gap < 0 || (gap == 0 && a.Facing < 0) {
		half = half.Neg()
	}
	a.Pos.X -= half
	b.Pos.X += half
}

// checkRoundEnd ends the round when a fighter is knocked out or the round
// clock has run out, credits the winner and starts the pause.
func (s *State) checkRoundEnd(fx core.Effects) {
	a, b := &s.Fighters[0], &s.Fighters[1]
	ko := a.Health <= 0 || b.Health <= 0
	if !ko && s.RoundFrame < RoundFrames {
		return
	}
	switch {
	case a.Health > b.Health:
		s.Last = ResultPlayer0
		a.Wins++
	case b.Health > a.Health:
		s.Last = ResultPlayer1
		b.Wins++
	default:
		s.Last = ResultDraw
	}
	s.Over = RoundOverFrames
	var k int64
	if ko {
		k = 1
	}
	fx.Emit(core.Effect{Kind: EffectKO, Args: [3]int64{int64(s.Last), int64(s.Round), k}})
}
