package units

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
	if err := state.Validate[Order](); err != nil {
		t.Errorf("Order: %v", err)
	}
	if got, want := arena.Size[Order](), 8; got != want {
		t.Errorf("Order is %d bytes, want %d", got, want)
	}
}

func TestNewRejectsBadSetup(t *testing.T) {
	for _, tc := range []struct {
		name           string
		players, count int
	}{
		{"no players", 0, 10},
		{"too many players", core.MaxPlayers + 1, 10},
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

// run plays frames frames of a match of bots with every input confirmed and
// returns the final state and the number of arrival effects Step emitted.
func run(t testing.TB, players, count, frames int, seed uint64) (*State, int) {
	t.Helper()
	s, err := New(players, count, seed)
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]*Bot, players)
	for p := range bots {
		bots[p] = NewBot(p, 4, seed)
	}
	in := make([]core.Input[Order], players)
	fx := engine.NewEffectList(MaxUnits)
	arrivals := 0
	for range frames {
		for p, b := range bots {
			in[p] = core.Input[Order]{Value: b.Next(&s), Status: core.InputConfirmed}
		}
		fx.Reset()
		Game{}.Step(&s, in, fx)
		for i := range fx.Len() {
			if fx.At(i).Kind == EffectArrived {
				arrivals++
			}
		}
	}
	return &s, arrivals
}

func TestStepMovesUnitsToTheirTargets(t *testing.T) {
	s, err := New(2, 4, 7)
	if err != nil {
		t.Fatal(err)
	}
	s.Units[1].Pos = fixed.V2(fixed.FromInt(10), fixed.FromInt(10))
	s.Units[1].Target = s.Units[1].Pos
	in := []core.Input[Order]{
		{Status: core.InputConfirmed},
		{Value: Order{Unit: 1, Kind: OrderMove, X: 11, Y: 10}, Status: core.InputConfirmed},
	}
	fx := engine.NewEffectList(0)
	for f := range 4 {
		Game{}.Step(&s, in, fx)
		in[1] = core.Input[Order]{Status: core.InputConfirmed}
		wantX := fixed.FromInt(10) + Speed.Mul(fixed.FromInt(int64(f+1)))
		if got := s.Units[1].Pos.X; got != wantX {
			t.Fatalf("after frame %d: X = %v, want %v", f, got, wantX)
		}
	}
	if s.Arrived != 1 {
		t.Errorf("Arrived = %d, want 1", s.Arrived)
	}
}

func TestOrdersForOthersUnitsAreIgnored(t *testing.T) {
	s, err := New(2, 4, 7)
	if err != nil {
		t.Fatal(err)
	}
	before := s
	in := []core.Input[Order]{
		{Value: Order{Unit: 1, Kind: OrderMove, X: 5, Y: 5}, Status: core.InputConfirmed},    // unit 1 is player 1's
		{Value: Order{Unit: 9999, Kind: OrderMove, X: 5, Y: 5}, Status: core.InputConfirmed}, // no such unit
	}
	fx := engine.NewEffectList(0)
	Game{}.Step(&s, in, fx)
	before.Frame++
	if diffs := state.Diff(&before, &s); len(diffs) != 0 {
		t.Errorf("invalid orders changed the state: %v", diffs)
	}
}

func TestSameSeedSameState(t *testing.T) {
	a, na := run(t, 3, 300, 600, 42)
	b, _ := run(t, 3, 300, 600, 42)
	if state.Checksum(a) != state.Checksum(b) {
		t.Fatalf("two runs with one seed differ: %v", state.Diff(a, b))
	}
	c, _ := run(t, 3, 300, 600, 43)
	if state.Checksum(a) == state.Checksum(c) {
		t.Fatal("two seeds gave the same final state")
	}
	if a.Arrived == 0 {
		t.Error("no unit arrived in 600 frames: the test exercises too little")
	}
	if int(a.Arrived) != na {
		t.Errorf("Arrived = %d but Step emitted %d arrival effects", a.Arrived, na)
	}
}

// goldenChecksum is the checksum of run(t, 4, 1000, 3000, 2026): the same on
// every target of the CI matrix. Never edit it to make a target pass.
const goldenChecksum = 0x9d8ca47251954f9e

func TestGoldenChecksum(t *testing.T) {
	s, _ := run(t, 4, 1000, 3000, 2026)
	if s.Arrived < 100 {
		t.Errorf("only %d arrivals: the golden run exercises too little", s.Arrived)
	}
	if got := state.Checksum(s); got != goldenChecksum {
		t.Errorf("checksum = %#016x, want %#016x", got, uint64(goldenChecksum))
	}
}
