package timesync

import (
	"time"

	"github.com/rollstep/rollstep/core"
)

// Timesync
//
// A peer that runs ahead of another predicts further and rolls back
// deeper, so peers should simulate the same frame at the same moment. Each message a peer sends carries its current frame
// (core.Message.Frame): not the frame its newest input is for, which is
// its current frame plus its input delay D. Using the input frame, as
// GGPO's timesync did, makes a peer with a larger D look ahead and tells
// the wrong peer to wait; using the current frame makes D irrelevant.
//
// The advantage over a peer, in time, is our frame start minus the peer's
// estimated frame start now: the peer's reported frame plus the one-way
// delay (half the smoothed RTT) plus the time since the message arrived,
// all in frame periods. It is sampled every tick, averaged over a window,
// and when the average is at least MinAdvantage frames the session is told
// to wait that many frames (at most MaxWait per window). Everything is
// int64 nanoseconds, and samples are clamped to ±MaxAdvantage frames, so
// a peer paused for hours cannot overflow anything.

// MaxAdvantage bounds a frame advantage sample, in frames (about 18
// minutes at 60 frames/s).
const MaxAdvantage = 1 << 16

// Config tunes timesync. The zero value gives the defaults (see Fill).
type Config struct {
	// Window is the number of ticks averaged per recommendation; 0 means
	// the tick rate (one second). At most 1024.
	Window int
	// MinAdvantage is the average advantage, in frames, from which waiting
	// is recommended; 0 means 2.
	MinAdvantage int
	// MaxWait bounds the frames one recommendation asks to wait; 0 means 8.
	MaxWait int
	// Manual, when true, makes the session only report Events; the
	// caller applies them (rollback's Session.Wait). By default the
	// session waits by itself.
	Manual bool
	// Disable turns timesync off.
	Disable bool
}

// Fill sets the zero fields of c to their defaults for tickRate frames
// per second.
func (c *Config) Fill(tickRate int) {
	if c.Window == 0 {
		c.Window = min(tickRate, 1024)
	}
	if c.MinAdvantage == 0 {
		c.MinAdvantage = 2
	}
	if c.MaxWait == 0 {
		c.MaxWait = 8
	}
}

// Event is the recommendation of one window (core.TimesyncEvent).
type Event = core.TimesyncEvent

// tsPeer is the timesync view of one peer. frame is the newest frame the
// peer reported, in a message that arrived at at; valid when has.
type tsPeer struct {
	has   bool
	frame core.Frame
	at    time.Duration
	delay int
	sum   time.Duration // sum of the window's advantage samples
	n     int
}

// Sync holds the per-peer estimates; see the comment at the top of the
// file. It is pure arithmetic: the session feeds it.
type Sync struct {
	cfg    Config
	period time.Duration
	ticks  int
	peers  []tsPeer
}

// New returns a Sync of peers peers at a frame period, with cfg filled
// (see Fill).
func New(cfg Config, period time.Duration, peers int) Sync {
	return Sync{cfg: cfg, period: period, peers: make([]tsPeer, peers)}
}

// SetPeriod changes the frame period (the game speed changed).
func (ts *Sync) SetPeriod(period time.Duration) { ts.period = period }

// Observe records a message from peer i, built at the peer's frame f
// with its players' inputs known up to held, arriving at now.
func (ts *Sync) Observe(i int, f, held core.Frame, now time.Duration) {
	q := &ts.peers[i]
	if q.has && f < q.frame {
		return // reordered: an older frame says nothing new
	}
	q.has, q.frame, q.at = true, f, now
	q.delay = int(max(held-f, 0))
}

// Advantage returns our advantage over peer i at now, when our current
// frame is local and the one-way delay is oneWay, in nanoseconds, clamped
// to ±MaxAdvantage frames.
func (ts *Sync) Advantage(i int, local core.Frame, now, oneWay time.Duration) time.Duration {
	q := &ts.peers[i]
	age := max(now-q.at, 0)
	limit := MaxAdvantage * ts.period
	est := time.Duration(q.frame)*ts.period + min(oneWay, limit) + min(age, limit)
	a := time.Duration(local)*ts.period - est
	return max(-limit, min(a, limit))
}

// Sample adds one advantage sample for peer i.
func (ts *Sync) Sample(i int, local core.Frame, now, oneWay time.Duration) {
	q := &ts.peers[i]
	if !q.has {
		return
	}
	q.sum += ts.Advantage(i, local, now, oneWay)
	q.n++
}

// Tick counts one tick; at the end of a window it returns the
// recommendation (ok, possibly with Wait 0) and starts a new window.
func (ts *Sync) Tick() (ev Event, ok bool) {
	ts.ticks++
	if ts.ticks < ts.cfg.Window {
		return ev, false
	}
	ts.ticks = 0
	best, found := time.Duration(0), false
	for i := range ts.peers {
		q := &ts.peers[i]
		if q.n == 0 {
			continue
		}
		avg := q.sum / time.Duration(q.n)
		if !found || avg > best {
			best, found = avg, true
			ev.Peer, ev.RemoteDelay = core.PeerID(i), q.delay
		}
		q.sum, q.n = 0, 0
	}
	if !found {
		return ev, false
	}
	ev.Advantage = core.Frame(best / ts.period)
	if ev.Advantage >= core.Frame(ts.cfg.MinAdvantage) {
		ev.Wait = min(int(ev.Advantage), ts.cfg.MaxWait)
	}
	ev.Applied = !ts.cfg.Manual && ev.Wait > 0
	return ev, true
}

// Forget drops peer i (disconnected): it is no longer waited for.
func (ts *Sync) Forget(i int) { ts.peers[i] = tsPeer{} }
