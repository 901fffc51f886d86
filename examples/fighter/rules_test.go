package fighter

import (
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/fixed"
	"github.com/rollstep/rollstep/internal/arena"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/rollback"
	"github.com/rollstep/rollstep/state"
)

func TestTypesAreArenaSerializable(t *testing.T) {
	if err := state.Validate[State](); err != nil {
		t.Errorf("State: %v", err)
	}
	if err := state.Validate[Input](); err != nil {
		t.Errorf("Input: %v", err)
	}
	for _, tc := range []struct {
		name      string
		got, want int
	}{
		{"Input", arena.Size[Input](), 1},
		{"Fighter", arena.Size[Fighter](), 64},
		{"State", arena.Size[State](), 160},
	} {
		if tc.got != tc.want {
			t.Errorf("%s is %d bytes, want %d", tc.name, tc.got, tc.want)
		}
	}
}

// duel runs a match from a prepared state through a rollback.SyncTest,
// so every rules test also checks that its frames re-simulate to the same
// state, and keeps the effects Step emits.
type duel struct {
	t       *testing.T
	init    State
	st      *rollback.SyncTest[State, Input]
	emitted []uint32 // the effect kinds of every frame stepped, in order
}

// newDuel returns a duel with both fighters on the ground at x0 and x1;
// change d.init before the first step.
func newDuel(t *testing.T, x0, x1 int64) *duel {
	d := &duel{t: t, init: New(1)}
	d.init.Fighters[0].Pos.X, d.init.Fighters[1].Pos.X = fixed.FromInt(x0), fixed.FromInt(x1)
	return d
}

// s returns the current state: read it, never write it once stepping began.
func (d *duel) s() *State {
	if d.st == nil {
		return &d.init
	}
	return d.st.State()
}

// step runs one frame with the given buttons.
func (d *duel) step(b0, b1 Buttons) {
	d.t.Helper()
	if d.st == nil {
		var err error
		if d.st, err = rollback.NewSyncTest[State, Input](rollback.SyncTestConfig{CheckDistance: 4}, Game{}, d.init); err != nil {
			d.t.Fatal(err)
		}
	}
	fx, err := d.st.AdvanceFrame([]Input{{b0}, {b1}})
	if err != nil {
		d.t.Fatal(err)
	}
	for _, e := range fx {
		d.emitted = append(d.emitted, e.Effect.Kind)
	}
}

func TestJumpRisesFallsAndLands(t *testing.T) {
	d := newDuel(t, 100, 200)
	d.step(Up|Right, 0)
	f := func() *Fighter { return &d.s().Fighters[0] }
	if f().Action != ActionJump || f().Pos.Y <= 0 {
		t.Fatalf("after the take-off frame: action %d, Y %v; want a jump in the air", f().Action, f().Pos.Y)
	}
	peak, frames := f().Pos.Y, 1
	for f().Pos.Y > 0 && frames < 100 {
		d.step(0, 0) // no control in the air: releasing the buttons changes nothing
		peak = max(peak, f().Pos.Y)
		frames++
	}
	if frames != 23 {
		t.Errorf("the jump lasted %d frames, want 23", frames)
	}
	// Peak height of v0 = 9, g = 3/4 stepped per frame: Σ (9 - 3k/4) for k = 1..12 = 49.5.
	if want := fixed.FromRatio(99, 2); peak != want {
		t.Errorf("peak height %v, want %v", peak, want)
	}
	if want := fixed.FromInt(100 + 3*23); f().Pos.X != want {
		t.Errorf("landed at X %v, want %v (JumpSpeed per frame)", f().Pos.X, want)
	}
	if f().Action != ActionIdle || f().Vel != (fixed.Vec2{}) {
		t.Errorf("after landing: action %d, velocity %v; want idle and still", f().Action, f().Vel)
	}
}

func TestWallsStopFighters(t *testing.T) {
	d := newDuel(t, 20, 200)
	for range 20 {
		d.step(Left, 0)
	}
	if got, want := d.s().Fighters[0].Pos.X, fixed.FromInt(HalfWidth); got != want {
		t.Errorf("X %v after walking into the left wall, want %v", got, want)
	}
}

func TestBodiesPushApart(t *testing.T) {
	d := newDuel(t, 150, 170)
	for range 20 {
		d.step(Right, Left)
	}
	gap := d.s().Fighters[1].Pos.X - d.s().Fighters[0].Pos.X
	if gap < fixed.FromInt(2*HalfWidth) {
		t.Errorf("fighters overlap: gap %v, want at least %d", gap, 2*HalfWidth)
	}
	if d.s().Fighters[0].Facing != 1 || d.s().Fighters[1].Facing != -1 {
		t.Errorf("facing %d and %d, want 1 and -1", d.s().Fighters[0].Facing, d.s().Fighters[1].Facing)
	}
}

// attackAt starts player 0's high attack at distance dist from player 1,
// who holds b1, and returns the frame (from 0) of the attack at which
// player 1 first lost health, or -1.
func attackAt(t *testing.T, dist int64, b1 Buttons) (*duel, int) {
	t.Helper()
	d := newDuel(t, 100, 100+dist)
	m := Move(AttackHigh)
	hitAt := -1
	for k := range int(m.Total()) {
		b := Buttons(0)
		if k == 0 {
			b = Attack
		}
		before := d.s().Fighters[1].Health
		d.step(b, b1)
		if d.s().Fighters[1].Health < before && hitAt < 0 {
			hitAt = k
		}
	}
	return d, hitAt
}

func TestAttackHitsOnlyDuringActiveFrames(t *testing.T) {
	m := Move(AttackHigh)
	t.Run("in range", func(t *testing.T) {
		d, at := attackAt(t, 20, 0)
		if at != int(m.Startup) {
			t.Fatalf("hit at attack frame %d, want the first active frame %d", at, m.Startup)
		}
		if got, want := d.s().Fighters[1].Health, MaxHealth-m.Damage; got != want {
			t.Errorf("health %d, want %d: the attack must hit exactly once", got, want)
		}
		if d.s().Fighters[0].Hits != 1 || len(d.emitted) != 1 || d.emitted[0] != EffectHit {
			t.Errorf("hits %d, effects %v; want 1 and one EffectHit", d.s().Fighters[0].Hits, d.emitted)
		}
	})
	t.Run("out of range", func(t *testing.T) {
		if _, at := attackAt(t, int64(m.Far+HalfWidth+1), 0); at >= 0 {
			t.Errorf("hit at frame %d from beyond the hitbox's reach", at)
		}
	})
	t.Run("walking in after the active frames", func(t *testing.T) {
		d := newDuel(t, 100, 200)
		d.step(Attack, 0)
		for range m.Startup + m.Active {
			d.step(0, 0)
		}
		for range 15 { // player 1 walks into the recovering attacker
			d.step(0, Left)
		}
		if h := d.s().Fighters[1].Health; h != MaxHealth {
			t.Errorf("health %d: a recovering attack hit", h)
		}
	})
	t.Run("recovers after Total frames", func(t *testing.T) {
		d := newDuel(t, 100, 200)
		d.step(Attack, 0)
		for range m.Total() - 1 {
			d.step(Right, 0) // ignored while recovering
		}
		if a := d.s().Fighters[0].Action; a != ActionAttack {
			t.Fatalf("action %d in the attack's last frame, want ActionAttack", a)
		}
		d.step(Right, 0)
		if a := d.s().Fighters[0].Action; a != ActionWalk {
			t.Errorf("action %d after the attack's %d frames, want free to walk", a, m.Total())
		}
	})
}

func TestBlockReducesDamage(t *testing.T) {
	m := Move(AttackHigh)
	d, at := attackAt(t, 20, Block)
	if at != int(m.Startup) {
		t.Fatalf("chip damage at attack frame %d, want %d", at, m.Startup)
	}
	if got, want := d.s().Fighters[1].Health, MaxHealth-m.Chip; got != want {
		t.Errorf("health %d after a blocked attack, want %d", got, want)
	}
	if d.s().Fighters[1].Blocked != 1 || len(d.emitted) != 1 || d.emitted[0] != EffectBlock {
		t.Errorf("blocked %d, effects %v; want 1 and one EffectBlock", d.s().Fighters[1].Blocked, d.emitted)
	}
}

func TestLowAttackMustBeBlockedCrouching(t *testing.T) {
	m := Move(AttackLow)
	for _, tc := range []struct {
		name  string
		guard Buttons
		want  int32
	}{
		{"standing block", Block, MaxHealth - m.Damage},
		{"crouching block", Block | Down, MaxHealth - m.Chip},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDuel(t, 100, 120)
			for k := range m.Total() {
				b := Buttons(0)
				if k == 0 {
					b = Attack | Down
				}
				d.step(b, tc.guard)
			}
			if got := d.s().Fighters[1].Health; got != tc.want {
				t.Errorf("health %d, want %d", got, tc.want)
			}
		})
	}
}

func TestBlockingFacingAwayFails(t *testing.T) {
	d := newDuel(t, 100, 120)
	d.init.Fighters[1].Action, d.init.Fighters[1].Facing = ActionBlock, 1 // back turned
	if d.s().Fighters[1].blocks(AttackHigh, d.s().Fighters[0].Pos.X) {
		t.Error("a fighter facing away blocked")
	}
}

func TestRoundEndsAtZeroHealth(t *testing.T) {
	d := newDuel(t, 100, 120)
	d.init.Fighters[1].Health = Move(AttackHigh).Damage // the next hit knocks out
	d.step(Attack, 0)
	for range Move(AttackHigh).Startup {
		d.step(0, 0)
	}
	if d.s().Fighters[1].Health != 0 || d.s().Last != ResultPlayer0 || d.s().Fighters[0].Wins != 1 {
		t.Fatalf("health %d, result %d, wins %d; want 0, ResultPlayer0, 1", d.s().Fighters[1].Health, d.s().Last, d.s().Fighters[0].Wins)
	}
	if n := len(d.emitted); n != 2 || d.emitted[1] != EffectKO {
		t.Errorf("effects %v, want a hit then a KO", d.emitted)
	}
	for range d.s().Over {
		if d.s().Round != 1 {
			t.Fatal("the next round started before the pause ended")
		}
		d.step(Attack, Attack) // ignored during the pause
	}
	if d.s().Round != 2 || d.s().Fighters[1].Health != MaxHealth || d.s().Fighters[0].Wins != 1 {
		t.Errorf("round %d, health %d, wins %d; want round 2 at full health with the win kept", d.s().Round, d.s().Fighters[1].Health, d.s().Fighters[0].Wins)
	}
}

func TestRoundEndsWhenTimeRunsOut(t *testing.T) {
	d := newDuel(t, 40, 280)
	d.init.Fighters[0].Health = 50
	for range RoundFrames {
		d.step(0, 0)
	}
	if d.s().Last != ResultPlayer1 || d.s().Over != RoundOverFrames {
		t.Errorf("result %d, pause %d; want ResultPlayer1 and the pause started", d.s().Last, d.s().Over)
	}
}

func TestDisconnectedPlayerStandsStill(t *testing.T) {
	s := New(1)
	x := s.Fighters[1].Pos.X
	in := []core.Input[Input]{
		{Status: core.InputConfirmed},
		{Status: core.InputDisconnected, Value: Input{Left}}, // never the case; Step must still ignore it
	}
	fx := engine.NewEffectList(0)
	Game{}.Step(&s, in, fx)
	if got := s.Fighters[1].Pos.X; got != x {
		t.Errorf("a disconnected player moved from %v to %v", x, got)
	}
}
