package rts

import (
	"errors"
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/fixed"
	"github.com/rollstep/rollstep/internal/arena"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/state"
)

func TestTypesAreArenaSerializable(t *testing.T) {
	if err := state.Validate[State](); err != nil {
		t.Errorf("State: %v", err)
	}
	if err := state.Validate[Command](); err != nil {
		t.Errorf("Command: %v", err)
	}
	for _, tc := range []struct {
		name      string
		got, want int
	}{
		{"Unit", arena.Size[Unit](), 64},
		{"Command", arena.Size[Command](), 6},
	} {
		if tc.got != tc.want {
			t.Errorf("%s is %d bytes, want %d", tc.name, tc.got, tc.want)
		}
	}
}

func TestNewRejectsBadSetup(t *testing.T) {
	for _, tc := range []struct {
		name           string
		players, count int
	}{
		{"one player", 1, 10},
		{"too many players", MaxPlayers + 1, 10},
		{"negative units", 2, -1},
		{"too many units", 2, MaxUnits + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := New(tc.players, tc.count, 1); !errors.Is(err, ErrBadSetup) {
				t.Errorf("New(%d, %d) = %v, want ErrBadSetup", tc.players, tc.count, err)
			}
		})
	}
}

func TestNewPlacesUnitsAroundBases(t *testing.T) {
	s, err := New(3, 3000, 5)
	if err != nil {
		t.Fatal(err)
	}
	for p := range 3 {
		if s.Alive[p] != 1000 {
			t.Errorf("player %d has %d units, want 1000", p, s.Alive[p])
		}
	}
	limit := fixed.FromInt(81 * 81 * 2)
	for i := range s.Units[:s.Count] {
		u := &s.Units[i]
		if !u.Alive() || int(u.Owner) != i%3 || u.HP != MaxHP {
			t.Fatalf("unit %d: %+v", i, *u)
		}
		if d := u.Pos.Sub(Base(i%3, 3)).LengthSq(); d > limit {
			t.Fatalf("unit %d at %v is far from its base %v", i, u.Pos, Base(i%3, 3))
		}
	}
}

// pair returns a 2-player state with unit 0 (player 0) at a and unit 1
// (player 1) at b.
func pair(t *testing.T, a, b fixed.Vec2) State {
	t.Helper()
	s, err := New(2, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	s.Units[0].Pos, s.Units[0].Goal = a, a
	s.Units[1].Pos, s.Units[1].Goal = b, b
	s.Grid.rebuild(&s)
	return s
}

func v(x, y int64) fixed.Vec2 { return fixed.V2(fixed.FromInt(x), fixed.FromInt(y)) }

// confirmed wraps commands as confirmed inputs.
func confirmed(cs ...Command) []core.Input[Command] {
	in := make([]core.Input[Command], len(cs))
	for i, c := range cs {
		in[i] = core.Input[Command]{Value: c, Status: core.InputConfirmed}
	}
	return in
}

func TestMoveCommandSteersAtSpeed(t *testing.T) {
	s := pair(t, v(100, 100), v(900, 900))
	in := confirmed(Command{Kind: KindMove, X: 110, Y: 100}, Command{})
	fx := engine.NewEffectList(0)
	for k := 1; k <= 4; k++ {
		Game{}.Step(&s, in, fx)
		in = confirmed(Command{}, Command{})
		want := fixed.FromInt(100) + Speed.Mul(fixed.FromInt(int64(k)))
		if got := s.Units[0].Pos; got.X != want || got.Y != fixed.FromInt(100) {
			t.Fatalf("tick %d: at %v, want (%v, 100)", k, got, want)
		}
	}
	for range 20 {
		Game{}.Step(&s, in, fx)
	}
	if got := s.Units[0].Pos; got != v(110, 100) {
		t.Errorf("after 24 ticks at %v, want its goal (110, 100)", got)
	}
}

func TestAttackKillsAndRemoves(t *testing.T) {
	s := pair(t, v(100, 100), v(104, 100)) // 4 apart: in range, beyond separation
	e := newLocal(t, &s)
	hits := (MaxHP + Damage - 1) / Damage
	var died []core.FrameEffect
	e.step(t, Command{Kind: KindAttack, X: 104, Y: 100})
	if hp := e.State().Units[1].HP; hp != MaxHP-Damage {
		t.Fatalf("after the first tick HP = %d, want %d", hp, MaxHP-Damage)
	}
	for e.State().Units[1].Alive() {
		if e.Frame() > core.Frame(hits*Cooldown+2) {
			t.Fatalf("unit 1 alive after %d ticks with %d HP", e.Frame(), e.State().Units[1].HP)
		}
		died = append(died, e.step(t, Command{})...)
	}
	// Hits land on ticks 0, Cooldown, 2·Cooldown, …; the last one kills.
	if got, want := e.Frame(), core.Frame((hits-1)*Cooldown+1); got != want {
		t.Errorf("unit 1 died in tick %d, want %d (%d hits, %d ticks apart)", got-1, want-1, hits, Cooldown)
	}
	want := []core.FrameEffect{{Frame: e.Frame() - 1, Effect: core.Effect{Kind: EffectDied, Args: [3]int64{1, 1, 0}}}}
	if len(died) != 1 || died[0] != want[0] {
		t.Errorf("effects = %+v, want %+v", died, want)
	}
	if s := e.State(); s.Deaths != 1 || s.Alive != [MaxPlayers]int32{1, 0} {
		t.Errorf("Deaths = %d, Alive = %v", s.Deaths, s.Alive)
	}
	// Unit 1 had no order: it picked unit 0 on its first search (tick 3,
	// as (3 + 1) mod AcquireEvery = 0) and hit back every Cooldown ticks.
	if got, want := e.State().Units[0].HP, int32(MaxHP-12*Damage); got != want {
		t.Errorf("the attacker has %d HP, want %d (12 hits back)", got, want)
	}
	e.step(t, Command{})
	s = *e.State()
	if s.Units[0].Foe != 0 {
		t.Errorf("the attacker still has foe %d after it died", s.Units[0].Foe)
	}
	for c, h := range s.Grid.Head {
		if h == 2 {
			t.Errorf("dead unit 1 is still in grid cell %d", c)
		}
	}
}

func TestAttackersChaseAndMutualKillsAreSimultaneous(t *testing.T) {
	s := pair(t, v(100, 100), v(150, 100))
	s.Units[0].HP, s.Units[1].HP = Damage, Damage
	in := confirmed(Command{Kind: KindAttack, X: 150, Y: 100}, Command{Kind: KindAttack, X: 100, Y: 100})
	fx := engine.NewEffectList(0)
	for k := 0; s.Units[0].Alive() || s.Units[1].Alive(); k++ {
		if k > 100 {
			t.Fatal("no death in 100 ticks: the units did not close in")
		}
		if s.Units[0].Alive() != s.Units[1].Alive() {
			t.Fatalf("tick %d: one unit died alone: %v, %v", k, s.Units[0].Alive(), s.Units[1].Alive())
		}
		Game{}.Step(&s, in, fx)
		in = confirmed(Command{}, Command{})
	}
	if d := s.Units[0].Pos.Sub(s.Units[1].Pos).LengthSq(); d > attackRangeSq {
		t.Errorf("they died %v apart, beyond AttackRange", fixed.Sqrt(d))
	}
}

func TestInvalidCommandsAreIgnored(t *testing.T) {
	s := pair(t, v(100, 100), v(900, 900))
	before := s
	in := []core.Input[Command]{
		{Value: Command{Kind: 9, X: 5, Y: 5}, Status: core.InputConfirmed},
		{Value: Command{Kind: KindMove, Group: Groups, X: 5, Y: 5}, Status: core.InputConfirmed},
		{Value: Command{Kind: KindMove, X: 5, Y: 5}, Status: core.InputConfirmed}, // no player 2
	}
	fx := engine.NewEffectList(0)
	Game{}.Step(&s, in, fx)
	before.Tick++
	if diffs := state.Diff(&before, &s); len(diffs) != 0 {
		t.Errorf("invalid commands changed the state: %v", diffs)
	}
	Game{}.Step(&s, []core.Input[Command]{{Status: core.InputDisconnected}, {Value: Command{Kind: KindMove, X: 0, Y: 0}, Status: core.InputDisconnected}}, fx)
	if s.Units[1].Goal != v(900, 900) {
		t.Errorf("a disconnected player's command moved its unit to %v", s.Units[1].Goal)
	}
}

func TestRandomCommandsKeepInvariants(t *testing.T) {
	s, err := New(3, 900, 8)
	if err != nil {
		t.Fatal(err)
	}
	r := state.NewRand(8)
	in := make([]core.Input[Command], 3)
	fx := engine.NewEffectList(0)
	for range 400 {
		for p := range in {
			in[p] = core.Input[Command]{Status: core.InputConfirmed, Value: Command{
				Kind: Kind(r.Uint32N(4)), Group: uint8(r.Uint32()), X: int16(r.Uint32()), Y: int16(r.Uint32())}}
		}
		Game{}.Step(&s, in, fx)
	}
	var alive [MaxPlayers]int32
	for i := range s.Units[:s.Count] {
		u := &s.Units[i]
		if u.Pos.X < 0 || u.Pos.Y < 0 || u.Pos.X >= fixed.FromInt(MapSize) || u.Pos.Y >= fixed.FromInt(MapSize) {
			t.Fatalf("unit %d left the map: %v", i, u.Pos)
		}
		if u.Alive() {
			alive[u.Owner]++
		}
	}
	if alive != s.Alive || s.Deaths != 900-alive[0]-alive[1]-alive[2] {
		t.Errorf("Alive = %v, Deaths = %d; counted %v", s.Alive, s.Deaths, alive)
	}
}

// local is an engine whose two players are both local: the effects a
// Step emits come back as the engine delivers them to a game.
type local struct {
	*engine.Engine[State, Command]
}

// newLocal returns a local engine starting at s.
func newLocal(t *testing.T, s *State) local {
	t.Helper()
	cfg := engine.DefaultConfig()
	cfg.Players, cfg.Local, cfg.Peers, cfg.InputDelay = 2, []core.PlayerHandle{0, 1}, nil, 0
	e, err := engine.NewEngine[State, Command](cfg, Game{}, s)
	if err != nil {
		t.Fatal(err)
	}
	return local{e}
}

// step runs one tick with player 0's command c (player 1 idle) and
// returns the effects delivered.
func (l local) step(t *testing.T, c Command) []core.FrameEffect {
	t.Helper()
	if err := l.AddLocalInput(0, c); err != nil {
		t.Fatal(err)
	}
	if err := l.AddLocalInput(1, Command{}); err != nil {
		t.Fatal(err)
	}
	r := l.Advance(0)
	if !r.Stepped {
		t.Fatal("the local engine did not step")
	}
	return append([]core.FrameEffect(nil), r.Effects...)
}
