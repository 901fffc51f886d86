// Package delay is rollstep's input-delay controller: a pure, deterministic
// policy from measurements of the link and of the engine to a recommended
// input delay D and, in auto mode, a prediction window W.
//
// # Policy
//
// Each window (typically one second of frames), the host fills a
// Measurement and calls Controller.Update. The controller computes the
// frames of latency that inputs must cover,
//
//	need = ceil((RTT/2 + JitterFactor·Jitter) / FramePeriod)
//
// and from it a target:
//
//   - lockstep (MaxPrediction = 0): D = need;
//   - rollback (W fixed): D = need − W, so prediction covers what it can and
//     delay only the rest;
//   - auto: D = min(need, Budget/FramePeriod), W = min(need − D,
//     MaxPrediction): cover latency with delay while the felt lag fits the
//     budget, predict beyond it.
//
// A window with a stall, or with rollbacks at least DeepRollback frames deep
// in more than DeepShare of its frames, adds one to the target (in auto
// mode, once D is at the budget, to W instead). D rises at
// once to any higher target ("raise fast"). It falls by one only after
// LowerAfter consecutive windows whose target is lower than the current D
// and which had no stall and no deep rollback ("lower slowly"); any other
// window restarts the count. So a steady link never changes D after it
// settles, and a target that flickers between k and k+1 holds D at k+1.
//
// All arithmetic is integer; the controller reads no clock.
package delay

import "time"

// Measurement is what was observed during one window.
type Measurement struct {
	// FramePeriod is the simulation tick; it must be positive.
	FramePeriod time.Duration
	// RTT is the smoothed round-trip time to the slowest peer and Jitter
	// its mean deviation.
	RTT    time.Duration
	Jitter time.Duration // mean deviation of RTT
	// Frames is the number of frames simulated in the window.
	Frames int
	// Stall is the time the engine could not step for want of inputs.
	Stall time.Duration
	// DeepRollbacks is the number of rollbacks at least
	// Policy.DeepRollback frames deep.
	DeepRollbacks int
}

// AddPeer folds in one peer's round trip: RTT and Jitter become this
// peer's when it is the slowest so far, by RTT + 2·Jitter (a peer's
// delay budget must cover its jitter too). Every front end measures the
// same way: the endpoint's estimate of each connected peer with samples.
func (m *Measurement) AddPeer(rtt, jitter time.Duration) {
	if rtt+2*jitter > m.RTT+2*m.Jitter {
		m.RTT, m.Jitter = rtt, jitter
	}
}

// Policy configures a Controller. The zero value of each field means the
// default given in its comment.
type Policy struct {
	// MinDelay and MaxDelay bound D; MaxDelay 0 means 16.
	MinDelay, MaxDelay int
	// Prediction is the fixed W of rollback mode; ignored in auto mode.
	Prediction int
	// Auto enables the hybrid mode, choosing W up to MaxPrediction.
	Auto bool
	// MaxPrediction bounds W in auto mode; 0 means 8.
	MaxPrediction int
	// Budget is the felt-lag budget for delay in auto mode; 0 means 100 ms.
	Budget time.Duration
	// JitterFactor multiplies Jitter in the latency to cover; 0 means 2.
	JitterFactor int
	// LowerAfter is the number of slack windows before D is lowered by
	// one; 0 means 5.
	LowerAfter int
	// DeepRollback is the depth that counts as deep; 0 means W−1 (at least 1).
	DeepRollback int
	// DeepShare is the per-mille of frames with deep rollbacks that counts
	// as trouble; 0 means 100 (10 %).
	DeepShare int
}

// Recommendation is the controller's output.
type Recommendation struct {
	Delay      int // input delay D in frames
	Prediction int // prediction window W in frames
	// Changed reports whether Delay or Prediction differ from the previous
	// recommendation.
	Changed bool
}

// Controller holds the policy and its hysteresis state. Its zero value is
// not usable; build one with New.
type Controller struct {
	p      Policy
	cur    Recommendation
	slack  int // consecutive windows whose target D was lower
	wslack int // the same for W in auto mode
}

// New returns a controller starting at D = initial (clamped to the policy's
// bounds) with W = Policy.Prediction (auto mode starts at W = 0).
func New(p Policy, initial int) *Controller {
	if p.MaxDelay == 0 {
		p.MaxDelay = 16
	}
	if p.MaxPrediction == 0 {
		p.MaxPrediction = 8
	}
	if p.Budget == 0 {
		p.Budget = 100 * time.Millisecond
	}
	if p.JitterFactor == 0 {
		p.JitterFactor = 2
	}
	if p.LowerAfter == 0 {
		p.LowerAfter = 5
	}
	if p.DeepShare == 0 {
		p.DeepShare = 100
	}
	c := &Controller{p: p}
	c.cur.Delay = clamp(initial, p.MinDelay, p.MaxDelay)
	if !p.Auto {
		c.cur.Prediction = p.Prediction
	}
	return c
}

// Current returns the current recommendation.
func (c *Controller) Current() Recommendation { return c.cur }

// Update folds one window's measurement in and returns the recommendation.
func (c *Controller) Update(m Measurement) Recommendation {
	p := &c.p
	c.cur.Changed = false
	if m.FramePeriod <= 0 {
		return c.cur
	}
	latency := m.RTT/2 + time.Duration(p.JitterFactor)*m.Jitter
	need := int((latency + m.FramePeriod - 1) / m.FramePeriod)
	budget := p.MaxDelay
	if p.Auto {
		budget = clamp(int(p.Budget/m.FramePeriod), p.MinDelay, p.MaxDelay)
	}
	d := need - c.cur.Prediction
	if p.Auto {
		d = min(need, budget)
	}
	trouble := m.Stall > 0 || (m.Frames > 0 && m.DeepRollbacks*1000 > p.DeepShare*m.Frames)
	if trouble {
		d = max(d, c.cur.Delay) + 1
	}
	d = clamp(d, p.MinDelay, budget)

	switch {
	case d > c.cur.Delay:
		c.cur.Delay, c.cur.Changed, c.slack = d, true, 0
	case d < c.cur.Delay && !trouble:
		c.slack++
		if c.slack >= p.LowerAfter {
			c.cur.Delay--
			c.cur.Changed, c.slack = true, 0
		}
	default:
		c.slack = 0
	}
	if p.Auto {
		// W covers what delay does not, with the same hysteresis.
		w := clamp(need-c.cur.Delay, 0, p.MaxPrediction)
		if trouble && c.cur.Delay == budget {
			w = clamp(max(w, c.cur.Prediction)+1, 0, p.MaxPrediction)
		}
		switch {
		case w > c.cur.Prediction:
			c.cur.Prediction, c.cur.Changed, c.wslack = w, true, 0
		case w < c.cur.Prediction && !trouble:
			c.wslack++
			if c.wslack >= p.LowerAfter {
				c.cur.Prediction--
				c.cur.Changed, c.wslack = true, 0
			}
		default:
			c.wslack = 0
		}
	}
	return c.cur
}

// DeepDepth returns the rollback depth that counts as deep for the
// current W, so the host knows what to count in Measurement.DeepRollbacks.
func (c *Controller) DeepDepth() int {
	if c.p.DeepRollback > 0 {
		return c.p.DeepRollback
	}
	return max(c.cur.Prediction-1, 1)
}

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }
