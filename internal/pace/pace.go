package pace

import (
	"errors"
	"fmt"
	"math/bits"
	"time"

	"github.com/rollstep/rollstep/fixed"
)

// DefaultMaxSteps is the bound on steps per Update used when
// Config.MaxSteps is zero.
const DefaultMaxSteps = 4

// ErrPeriod is returned by New, Config.Validate and SetPeriod when a step
// period is not positive.
var ErrPeriod = errors.New("pace: step period must be positive")

// ErrMaxSteps is returned by New and Config.Validate when Config.MaxSteps
// is negative.
var ErrMaxSteps = errors.New("pace: max steps per update must not be negative")

// ErrMaxLag is returned by New and Config.Validate when Config.MaxLag is
// negative, or positive but shorter than one period.
var ErrMaxLag = errors.New("pace: max lag must be zero or at least one period")

// Config configures a Pacer. The zero value is invalid: Period must be set.
type Config struct {
	// Period is the time one step stands for (a tick, or a lockstep turn).
	// It must be positive; SetPeriod changes it later.
	Period time.Duration
	// MaxSteps bounds the steps one Update grants. Steps due beyond it
	// stay owed and are granted by the following Updates, at most
	// MaxSteps each. 0 means DefaultMaxSteps.
	MaxSteps int
	// MaxLag bounds the owed time: after an Update the accumulator never
	// holds more than MaxLag, and the excess is forgotten (counted by
	// Dropped), so the step schedule slips instead of racing to catch up.
	// 0 means no bound: every due step is eventually granted.
	MaxLag time.Duration
}

// Validate reports whether c is usable, naming the offending value.
func (c Config) Validate() error {
	if c.Period <= 0 {
		return fmt.Errorf("%w: Period is %v", ErrPeriod, c.Period)
	}
	if c.MaxSteps < 0 {
		return fmt.Errorf("%w: MaxSteps is %d", ErrMaxSteps, c.MaxSteps)
	}
	if c.MaxLag < 0 || (c.MaxLag > 0 && c.MaxLag < c.Period) {
		return fmt.Errorf("%w: MaxLag is %v, Period %v", ErrMaxLag, c.MaxLag, c.Period)
	}
	return nil
}

// Pacer is a fixed-timestep accumulator. It is a plain value: copy it to
// snapshot it; it is not safe for concurrent use. The zero Pacer is not
// usable; build one with New.
//
// Invariants: acc ≥ 0 is the time owed to the step schedule; budget is
// the number of steps the last Update granted that Step has not taken;
// while blocked, acc ≥ period and elapsed time goes to stall, not acc.
type Pacer struct {
	period   time.Duration
	maxSteps int
	maxLag   time.Duration

	started bool
	last    time.Duration // now of the latest Update
	acc     time.Duration
	budget  int

	blocked bool
	pending time.Duration // stall of the blocked step so far
	stalled time.Duration // total stall
	dropped time.Duration // total time forgotten by MaxLag
	steps   int64
}

// New returns a Pacer for cfg, or an error matching ErrPeriod, ErrMaxSteps
// or ErrMaxLag. The clock starts at the first Update.
func New(cfg Config) (Pacer, error) {
	if err := cfg.Validate(); err != nil {
		return Pacer{}, err
	}
	ms := cfg.MaxSteps
	if ms == 0 {
		ms = DefaultMaxSteps
	}
	return Pacer{period: cfg.Period, maxSteps: ms, maxLag: cfg.MaxLag}, nil
}

// Update moves the clock to now and returns how many steps the caller may
// take before the next Update, between 0 and MaxSteps: the whole periods
// owed, capped at MaxSteps. The first Update only starts the clock and
// returns 0; a step is due one full period after the clock starts or
// after the previous step's due time. A now earlier than the previous one
// counts as no time passing. Steps not taken by the next Update are not
// lost: they stay owed (unless MaxLag forgets them).
//
// While blocked (see Block), the time since the previous Update is stall
// time and is not owed: the schedule slips by exactly the stall, and
// Update grants the blocked step again.
func (p *Pacer) Update(now time.Duration) int {
	if !p.started {
		p.started, p.last = true, now
		return 0
	}
	dt := now - p.last
	if dt < 0 {
		dt = 0
	} else {
		p.last = now
	}
	if p.blocked {
		p.pending += dt
		p.stalled += dt
	} else {
		p.acc += dt
	}
	if p.maxLag > 0 && p.acc > p.maxLag {
		p.dropped += p.acc - p.maxLag
		p.acc = p.maxLag
	}
	n := int64(p.acc / p.period)
	if n > int64(p.maxSteps) {
		n = int64(p.maxSteps)
	}
	p.budget = int(n)
	return p.budget
}

// Step records that one granted step was taken: it consumes one period of
// owed time and one unit of the budget Update granted. It returns the
// stall time this step suffered (time spent blocked since it was first
// found due and could not run; zero if it never blocked) and true, or 0
// and false without changing anything if no step is granted.
func (p *Pacer) Step() (stall time.Duration, ok bool) {
	if p.budget == 0 {
		return 0, false
	}
	p.budget--
	p.acc -= p.period
	p.steps++
	stall = p.pending
	p.blocked, p.pending = false, 0
	return stall, true
}

// Block records that a granted step could not run (the engine waits for
// inputs). The remaining budget of this Update is withdrawn, and from now
// until the next Step, elapsed time is stall time instead of owed time.
// The steps already owed stay owed. Block without a granted step does
// nothing.
func (p *Pacer) Block() {
	if p.budget == 0 {
		return
	}
	p.budget = 0
	p.blocked = true
}

// Granted returns how many steps the latest Update granted that Step has
// not taken (0 after Block or SetPeriod).
func (p *Pacer) Granted() int { return p.budget }

// Blocked reports whether the next due step is blocked.
func (p *Pacer) Blocked() bool { return p.blocked }

// SetPeriod changes the step period (a game-speed change) and takes effect
// at once. The owed time is rescaled so that the whole steps owed and the
// elapsed fraction of the current step are unchanged; MaxLag, an absolute
// time, is kept (and raised to the new period if shorter). The budget of
// the latest Update is withdrawn; the next Update grants again. It returns
// an error matching ErrPeriod if period is not positive.
func (p *Pacer) SetPeriod(period time.Duration) error {
	if period <= 0 {
		return fmt.Errorf("%w: period is %v", ErrPeriod, period)
	}
	whole := p.acc / p.period
	part := scale(p.acc%p.period, period, p.period)
	p.acc = whole*period + part
	p.period = period
	if p.maxLag > 0 && p.maxLag < period {
		p.maxLag = period
	}
	p.budget = 0
	return nil
}

// Period returns the current step period.
func (p *Pacer) Period() time.Duration { return p.period }

// Fraction returns the elapsed fraction of the current step, in [0, One]:
// the owed time divided by the period, or fixed.One when a step is due
// and not taken (including while blocked). A renderer draws
// Lerp(previous, current, Fraction()).
func (p *Pacer) Fraction() fixed.F {
	if p.acc >= p.period {
		return fixed.One
	}
	return fixed.FromRaw(int64(scale(p.acc, 1<<32, p.period)))
}

// Owed returns the time owed to the step schedule: whole steps due plus
// the elapsed part of the current one.
func (p *Pacer) Owed() time.Duration { return p.acc }

// Stalled returns the total time spent blocked.
func (p *Pacer) Stalled() time.Duration { return p.stalled }

// Dropped returns the total owed time forgotten because of MaxLag.
func (p *Pacer) Dropped() time.Duration { return p.dropped }

// Steps returns the number of steps taken.
func (p *Pacer) Steps() int64 { return p.steps }

// scale returns a·num/den rounded down, for 0 ≤ a < den and num, den > 0,
// with a 128-bit intermediate so that no product overflows.
func scale(a, num, den time.Duration) time.Duration {
	hi, lo := bits.Mul64(uint64(a), uint64(num))
	if hi >= uint64(den) {
		return num // unreachable for a < den; keeps Div64 from panicking
	}
	q, _ := bits.Div64(hi, lo, uint64(den))
	return time.Duration(q)
}
