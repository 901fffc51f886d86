package pace

import (
	"errors"
	"testing"
	"time"

	"github.com/rollstep/rollstep/fixed"
)

const ms = time.Millisecond

func mustNew(t *testing.T, cfg Config) Pacer {
	t.Helper()
	p, err := New(cfg)
	if err != nil {
		t.Fatalf("New(%+v): %v", cfg, err)
	}
	return p
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want error
	}{
		{"zero", Config{}, ErrPeriod},
		{"negative period", Config{Period: -1}, ErrPeriod},
		{"negative max steps", Config{Period: ms, MaxSteps: -1}, ErrMaxSteps},
		{"negative max lag", Config{Period: ms, MaxLag: -1}, ErrMaxLag},
		{"max lag under period", Config{Period: 10 * ms, MaxLag: 5 * ms}, ErrMaxLag},
		{"minimal", Config{Period: 1}, nil},
		{"full", Config{Period: 10 * ms, MaxSteps: 3, MaxLag: 10 * ms}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.Validate()
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Fatalf("Validate() = %v, want %v", err, tt.want)
			}
			if _, err2 := New(tt.cfg); (err2 == nil) != (err == nil) {
				t.Fatalf("New error %v disagrees with Validate %v", err2, err)
			}
		})
	}
}

// call is one Update at now; the host then takes up to run steps and, if
// block, blocks after them.
type call struct {
	now       time.Duration
	run       int
	block     bool
	wantGrant int
	wantFrac  fixed.F
	wantStall time.Duration // sum of stalls returned by the steps of this call
}

func TestSchedule(t *testing.T) {
	half := fixed.One / 2
	tests := []struct {
		name        string
		cfg         Config
		calls       []call
		wantStalled time.Duration
		wantDropped time.Duration
		wantSteps   int64
	}{
		{
			name: "steady", cfg: Config{Period: 10 * ms},
			calls: []call{
				{now: 0},
				{now: 5 * ms, wantFrac: half},
				{now: 10 * ms, run: 1, wantGrant: 1},
				{now: 25 * ms, run: 1, wantGrant: 1, wantFrac: half},
				{now: 30 * ms, run: 1, wantGrant: 1},
			},
			wantSteps: 3,
		},
		{
			name: "start at nonzero", cfg: Config{Period: 10 * ms},
			calls: []call{
				{now: time.Hour},
				{now: time.Hour + 10*ms, run: 1, wantGrant: 1},
			},
			wantSteps: 1,
		},
		{
			name: "hitch spreads over calls", cfg: Config{Period: 10 * ms, MaxSteps: 3},
			calls: []call{
				{now: 0},
				{now: 100 * ms, run: 3, wantGrant: 3, wantFrac: fixed.One},
				{now: 101 * ms, run: 3, wantGrant: 3, wantFrac: fixed.One},
				{now: 102 * ms, run: 3, wantGrant: 3, wantFrac: fixed.One},
				{now: 103 * ms, run: 1, wantGrant: 1, wantFrac: fixed.One * 3 / 10},
				{now: 104 * ms, wantFrac: fixed.One * 4 / 10},
			},
			wantSteps: 10,
		},
		{
			name: "unused grant stays owed", cfg: Config{Period: 10 * ms},
			calls: []call{
				{now: 0},
				{now: 20 * ms, wantGrant: 2, wantFrac: fixed.One},
				{now: 20 * ms, run: 2, wantGrant: 2},
			},
			wantSteps: 2,
		},
		{
			name: "max lag forgets", cfg: Config{Period: 10 * ms, MaxSteps: 2, MaxLag: 30 * ms},
			calls: []call{
				{now: 0},
				{now: 105 * ms, run: 2, wantGrant: 2, wantFrac: fixed.One},
				{now: 105 * ms, run: 1, wantGrant: 1},
			},
			wantDropped: 75 * ms, wantSteps: 3,
		},
		{
			name: "block slips the schedule", cfg: Config{Period: 100 * ms},
			calls: []call{
				{now: 0},
				{now: 120 * ms, block: true, wantGrant: 1, wantFrac: fixed.One},
				{now: 150 * ms, block: true, wantGrant: 1, wantFrac: fixed.One},
				{now: 170 * ms, run: 1, wantGrant: 1, wantStall: 50 * ms, wantFrac: fixed.One / 5},
				{now: 219 * ms, wantFrac: fixed.One * 69 / 100},
				{now: 249 * ms, wantFrac: fixed.One * 99 / 100},
				{now: 250 * ms, run: 1, wantGrant: 1},
			},
			wantStalled: 50 * ms, wantSteps: 2,
		},
		{
			name: "block keeps backlog", cfg: Config{Period: 10 * ms, MaxSteps: 5},
			calls: []call{
				{now: 0},
				{now: 30 * ms, run: 1, block: true, wantGrant: 3, wantFrac: fixed.One},
				{now: 80 * ms, run: 2, wantGrant: 2, wantStall: 50 * ms},
			},
			wantStalled: 50 * ms, wantSteps: 3,
		},
		{
			name: "clock going back counts as no time", cfg: Config{Period: 10 * ms},
			calls: []call{
				{now: 50 * ms},
				{now: 55 * ms, wantFrac: half},
				{now: 40 * ms, wantFrac: half},
				{now: 60 * ms, run: 1, wantGrant: 1},
			},
			wantSteps: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustNew(t, tt.cfg)
			for i, c := range tt.calls {
				got := p.Update(c.now)
				if got != c.wantGrant {
					t.Fatalf("call %d: Update(%v) = %d, want %d", i, c.now, got, c.wantGrant)
				}
				var stall time.Duration
				for range c.run {
					s, ok := p.Step()
					if !ok {
						t.Fatalf("call %d: Step refused", i)
					}
					stall += s
				}
				if c.block {
					p.Block()
					if !p.Blocked() {
						t.Fatalf("call %d: not blocked after Block", i)
					}
				}
				if stall != c.wantStall {
					t.Fatalf("call %d: stall %v, want %v", i, stall, c.wantStall)
				}
				if f := p.Fraction(); f != c.wantFrac {
					t.Fatalf("call %d: Fraction %v, want %v", i, f, c.wantFrac)
				}
			}
			if p.Stalled() != tt.wantStalled || p.Dropped() != tt.wantDropped || p.Steps() != tt.wantSteps {
				t.Fatalf("stalled %v dropped %v steps %d, want %v %v %d",
					p.Stalled(), p.Dropped(), p.Steps(), tt.wantStalled, tt.wantDropped, tt.wantSteps)
			}
		})
	}
}

func TestStepWithoutGrant(t *testing.T) {
	p := mustNew(t, Config{Period: 10 * ms, MaxSteps: 1})
	p.Update(0)
	if _, ok := p.Step(); ok {
		t.Fatal("Step granted before any time passed")
	}
	p.Update(30 * ms)
	if p.Granted() != 1 {
		t.Fatalf("Granted %d, want 1", p.Granted())
	}
	if _, ok := p.Step(); !ok {
		t.Fatal("first Step refused")
	}
	if p.Granted() != 0 {
		t.Fatalf("Granted %d after the step, want 0", p.Granted())
	}
	if _, ok := p.Step(); ok {
		t.Fatal("Step past MaxSteps granted")
	}
	p.Block() // no grant left: no effect
	if p.Blocked() {
		t.Fatal("Block without a grant blocked")
	}
	if p.Owed() != 20*ms {
		t.Fatalf("Owed %v, want 20ms", p.Owed())
	}
}

func TestSetPeriod(t *testing.T) {
	tests := []struct {
		name      string
		owed      time.Duration // after Update at this time with period 100ms
		newPeriod time.Duration
		wantOwed  time.Duration
		wantFrac  fixed.F
	}{
		{"half speed keeps fraction", 50 * ms, 200 * ms, 100 * ms, fixed.One / 2},
		{"double speed keeps fraction", 50 * ms, 50 * ms, 25 * ms, fixed.One / 2},
		{"whole steps kept", 250 * ms, 10 * ms, 25 * ms, fixed.One},
		{"huge period no overflow", 99 * ms, 1000 * time.Hour, 990 * time.Hour, fixed.One * 99 / 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustNew(t, Config{Period: 100 * ms, MaxSteps: 1})
			p.Update(0)
			p.Update(tt.owed)
			if err := p.SetPeriod(tt.newPeriod); err != nil {
				t.Fatal(err)
			}
			if p.Owed() != tt.wantOwed {
				t.Fatalf("Owed %v, want %v", p.Owed(), tt.wantOwed)
			}
			if f := p.Fraction(); f != tt.wantFrac {
				t.Fatalf("Fraction %v, want %v", f, tt.wantFrac)
			}
			if _, ok := p.Step(); ok {
				t.Fatal("grant survived SetPeriod")
			}
			if p.Period() != tt.newPeriod {
				t.Fatalf("Period %v", p.Period())
			}
		})
	}
	p := mustNew(t, Config{Period: ms})
	if err := p.SetPeriod(0); !errors.Is(err, ErrPeriod) {
		t.Fatalf("SetPeriod(0) = %v", err)
	}
}

func TestSetPeriodRaisesMaxLag(t *testing.T) {
	p := mustNew(t, Config{Period: 10 * ms, MaxLag: 20 * ms})
	p.Update(0)
	if err := p.SetPeriod(50 * ms); err != nil {
		t.Fatal(err)
	}
	if got := p.Update(time.Second); got != 1 {
		t.Fatalf("grant %d after period above MaxLag, want 1", got)
	}
}

// TestLongRunAccounting checks, against a naive oracle, that over many
// random-length Updates every due step is granted exactly once and the
// schedule's phase is kept.
func TestLongRunAccounting(t *testing.T) {
	p := mustNew(t, Config{Period: 16666667, MaxSteps: 3})
	var now time.Duration
	p.Update(now)
	x := uint32(12345)
	for range 100000 {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		now += time.Duration(x%40000) * time.Microsecond
		n := p.Update(now)
		for range n {
			p.Step()
		}
		if want := int64(now / 16666667); p.Steps()+int64(p.Owed()/16666667) != want {
			t.Fatalf("at %v: steps %d + owed %v, want %d due", now, p.Steps(), p.Owed(), want)
		}
	}
}

func TestAllocs(t *testing.T) {
	p := mustNew(t, Config{Period: 10 * ms})
	var now time.Duration
	allocs := testing.AllocsPerRun(1000, func() {
		now += 7 * ms
		for range p.Update(now) {
			p.Step()
		}
		_ = p.Fraction()
		_ = p.SetPeriod(10 * ms)
	})
	if allocs != 0 {
		t.Fatalf("%v allocs per Update, want 0", allocs)
	}
}
