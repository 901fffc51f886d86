package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/units"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

// hostTick is how often every simulated host runs its game loop (one
// Update) in virtual time: fine enough that pacing is measured to the
// millisecond.
const hostTick = time.Millisecond

// runSim runs rollstep sim and returns the exit code: 0 when every run
// finished (whatever it found), 1 when a run could not be played, 2 for a
// usage error.
func runSim(args []string, stdout, stderr io.Writer) int {
	o, err := parseSimFlags(args, stderr)
	if code, stop := flagsExit("sim", err, stderr); stop {
		return code
	}
	modes := []simMode{o.mode}
	if o.mode == modeBoth {
		modes = []simMode{modeLockstep, modeRollback}
	}
	var runs []*simRun
	for i, m := range modes {
		r, err := simulate(&o, m)
		if err != nil {
			if r != nil { // the report of a match that did not end
				if o.json {
					_ = r.report.writeJSON(stdout)
				} else {
					r.report.writeText(stdout)
				}
			}
			fmt.Fprintf(stderr, "rollstep sim: %s: %v\n", m, err)
			return 1
		}
		runs = append(runs, r)
		if o.json {
			if err := r.report.writeJSON(stdout); err != nil {
				fmt.Fprintf(stderr, "rollstep sim: %v\n", err)
				return 1
			}
			continue
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		r.report.writeText(stdout)
	}
	if o.chart != "" {
		if err := writeChartFile(o.chart, runs); err != nil {
			fmt.Fprintf(stderr, "rollstep sim: -chart: %v\n", err)
			return 1
		}
	}
	return 0
}

// simRun is one played match: its report and the trace the chart draws.
type simRun struct {
	report simReport
	trace  []peerTrace
}

// peerTrace records one peer's steps over virtual time for the chart.
type peerTrace struct {
	steps  []time.Duration // when each new frame (turn) started
	stalls []span          // when the peer waited for inputs
	rolls  []time.Duration // when a rollback happened
}

// span is an interval of virtual time.
type span struct{ from, to time.Duration }

// simPeer is one simulated host: its network endpoint, its session, its
// bot, and what the run records about it.
type simPeer struct {
	ep       *sim.Endpoint
	sess     *rollstep.Session[units.State, units.Order]
	bot      *units.Bot
	fed      core.Frame // the frame the bot last gave an input for, plus one
	finalSum *finalChecksum
	start    time.Duration // when its first frame ran
	end      time.Duration // when it reached the target frame
	report   peerReport
	trace    peerTrace
	desyncs  []desync
	rolls    uint64        // rollbacks seen so far
	stall    time.Duration // stall time seen so far
	plan     plan          // what the life-cycle script does to it
	life     []lifeEvent   // its life-cycle events, in order
	ended    *peerEnd      // how its match ended; nil while it plays
	matchEnd bool          // its session reported the agreed end (core.MatchEndedEvent)
	gone     bool          // no longer hosted: it left, was killed or failed
	// -crash: crashed once its process died, back once a new one
	// started (at backAt), by restart.
	crashed, back bool
	backAt        time.Duration
	restart       func() error
	rejoining     bool // the session's Stats().Rejoining after its latest Update
}

// simulate plays one match of o in mode m.
func simulate(o *simOptions, m simMode) (*simRun, error) {
	netw, err := sim.New(sim.Config{Seed: o.seed, Link: o.link})
	if err != nil {
		return nil, err
	}
	initial, err := units.New(o.peers, o.units, o.seed)
	if err != nil {
		return nil, err
	}
	target, period := o.target(m)
	eps := make([]*sim.Endpoint, o.peers)
	for i := range eps {
		eps[i] = netw.NewEndpoint()
	}
	peers := make([]*simPeer, o.peers)
	var specs []*simSpectator
	for i := range peers {
		p := &simPeer{ep: eps[i], bot: units.NewBot(i, 8, o.seed), finalSum: &finalChecksum{tick: target * int32(o.ticks(m))}}
		cfg := o.sessionConfig(m, i, eps)
		for _, w := range o.watch {
			if w == i {
				sp, err := newSpectator(netw, i, eps[i], &cfg, initial, target)
				if err != nil {
					return nil, fmt.Errorf("spectator of peer %d: %w", i, err)
				}
				specs = append(specs, sp)
			}
		}
		var game core.Game[units.State, units.Order] = recordingGame{p.finalSum, o.nudgeFor(i, m)}
		if p.sess, err = rollstep.NewSession(cfg, game, initial, eps[i]); err != nil {
			return nil, fmt.Errorf("peer %d: %w", i, err)
		}
		if err := p.sess.EndAt(core.Frame(target)); err != nil { // the match's agreed end, as a game sets it
			return nil, fmt.Errorf("peer %d: %w", i, err)
		}
		p.report.Peer = i
		p.plan = o.script.planFor(i, target)
		p.restart = func() error { // -crash: a new process binds the old port and rejoins
			ep, err := netw.Reopen(eps[i].ID())
			if err != nil {
				return err
			}
			c := cfg
			c.Rejoin = true
			c.Transport.Rand = rand.NewChaCha8(seedBytes(o.seed^0xc4a5, i))
			p.ep, eps[i] = ep, ep
			if p.sess, err = rollstep.NewSession(c, game, initial, ep); err != nil {
				return err
			}
			return p.sess.EndAt(core.Frame(target))
		}
		peers[i] = p
	}
	limit := time.Duration(target)*period*20 + time.Minute + o.script.lastLate()
	light := lights{script: &o.script}
	var now time.Duration
	for ; now <= limit; now += hostTick {
		netw.RunUntil(now)
		light.apply(netw, eps, now)
		done := true
		for i, p := range peers {
			if !p.step(i, now, target) {
				done = false
			}
		}
		for _, sp := range specs {
			if !sp.step(now) {
				done = false
			}
		}
		if done {
			break
		}
	}
	if now > limit {
		// What happened until then is what the user needs to see.
		return finish(o, m, netw, peers, specs, limit, target), fmt.Errorf("the match did not reach frame %d in %v of virtual time", target, limit)
	}
	return finish(o, m, netw, peers, specs, now, target), nil
}

// step plays peer i's part of the script at now and runs its game loop
// once if it is still hosted. It reports whether the peer is done: it
// confirmed every frame, or it is gone.
func (p *simPeer) step(i int, now time.Duration, target int32) bool {
	switch {
	case p.gone:
		return true
	case now < p.plan.startAt:
		return false // -late: not updated yet
	}
	if down, err := p.crashStep(i, now); err != nil {
		p.gone, p.ended = true, failed(i, now, p.sess.Frame(), err)
		return true
	} else if down {
		return false
	}
	switch {
	case p.ended == nil && p.plan.exitAt >= 0 && p.sess.Frame() >= core.Frame(p.plan.exitAt):
		p.gone = true
		p.ended = &peerEnd{How: endKilled, Ms: now.Milliseconds(), Frame: int32(p.sess.Frame())}
		if !p.plan.kill {
			p.ended.How = endLeft
			if err := p.sess.Close(); err != nil {
				p.ended.Error = err.Error()
			}
		}
		return true
	}
	if err := p.host(i, now, target); err != nil {
		// The host gives up on the match, as a game would: it reports
		// the error and closes the session.
		p.gone = true
		p.ended = failed(i, now, p.sess.Frame(), err)
		_ = p.sess.Close()
		return true
	}
	if !p.matchEnd {
		return false
	}
	if p.ended == nil {
		p.ended = &peerEnd{How: endFinished, Ms: now.Milliseconds(), Frame: int32(p.sess.Frame())}
	}
	return p.sess.Ended() // its spectators hold the stream to the end, and it left
}

// host runs peer i's game loop once at now: the bot's input for a new
// frame, Update, then the bookkeeping of the report.
func (p *simPeer) host(i int, now time.Duration, target int32) error {
	if f := p.sess.Frame(); f >= p.fed && f < core.Frame(target) {
		if err := p.sess.AddLocalInput(core.PlayerHandle(i), p.bot.Next(p.sess.State())); err != nil {
			return err
		}
		p.fed = f + 1
	}
	before := p.sess.Frame()
	if err := p.sess.Update(now); err != nil {
		p.events(i, now) // what led to it, such as the lost peer
		return err
	}
	after := p.sess.Frame()
	if after > before && before < core.Frame(target) {
		if before == 0 {
			p.start = now
		}
		for range min(after, core.Frame(target)) - before {
			p.trace.steps = append(p.trace.steps, now)
		}
		if after >= core.Frame(target) {
			p.end = now
		}
	}
	st := p.sess.Stats()
	p.recordDW(now, st)
	if st.Rollbacks > p.rolls {
		p.rolls = st.Rollbacks
		p.trace.rolls = append(p.trace.rolls, now)
	}
	if total := st.Stall; total > p.stall {
		p.trace.stalls = append(p.trace.stalls, span{now - (total - p.stall), now})
		p.stall = total
	}
	p.events(i, now)
	if st.Rejoining && !p.rejoining && after > 0 { // not a new process: a side that yielded
		p.life = append(p.life, lifeEvent{Ms: now.Milliseconds(), Frame: int32(after), Event: lifeYielded, Remote: i})
	}
	p.rejoining = st.Rejoining
	return nil
}

// events folds the events of the latest Update into the report.
func (p *simPeer) events(i int, now time.Duration) {
	for _, ev := range p.sess.Events() {
		if _, ok := ev.(core.MatchEndedEvent); ok {
			p.matchEnd = true
		}
		if !p.lifeEvent(i, now, ev) {
			p.event(i, ev)
		}
	}
}

// recordDW appends D and W to the report when they change.
func (p *simPeer) recordDW(now time.Duration, st rollstep.Stats) {
	ms := now.Milliseconds()
	if n := len(p.report.Delay); n == 0 || p.report.Delay[n-1].Value != st.Delay {
		p.report.Delay = append(p.report.Delay, timePoint{ms, st.Delay})
	}
	if n := len(p.report.Prediction); n == 0 || p.report.Prediction[n-1].Value != st.Prediction {
		p.report.Prediction = append(p.report.Prediction, timePoint{ms, st.Prediction})
	}
}

// event folds one session event into the report.
func (p *simPeer) event(i int, ev core.Event) {
	switch e := ev.(type) {
	case core.DesyncEvent[units.State]:
		p.desyncs = append(p.desyncs, desync{Peer: i, Remote: globalPeer(i, e.Peer), FrameDetected: int32(e.Frame), FrameEarliest: int32(e.Since)})
	case core.DesyncFieldsEvent:
		for k := range p.desyncs {
			if d := &p.desyncs[k]; d.Remote == globalPeer(i, e.Peer) && d.FrameDetected == int32(e.Frame) {
				d.Fields = append(d.Fields[:0], e.Paths...)
			}
		}
	}
}

// globalPeer returns the simulator's index of the peer that peer i's
// session calls id: its Config.Peers list every other peer in order.
func globalPeer(i int, id core.PeerID) int {
	if int(id) < i {
		return int(id)
	}
	return int(id) + 1
}

// target returns the frames (turns) a match of mode m plays and their
// period.
func (o *simOptions) target(m simMode) (int32, time.Duration) {
	if m == modeLockstep {
		return int32(o.turns), o.turn
	}
	return int32(o.frames), time.Second / time.Duration(o.fps)
}

// ticks returns the game steps per engine frame in mode m.
func (o *simOptions) ticks(m simMode) int {
	if m == modeLockstep {
		return o.ticksPerTurn
	}
	return 1
}

// sessionConfig returns peer i's session configuration.
func (o *simOptions) sessionConfig(m simMode, i int, eps []*sim.Endpoint) rollstep.Config {
	cfg := rollstep.Config{
		Players:          o.peers,
		Local:            []core.PlayerHandle{core.PlayerHandle(i)},
		ChecksumInterval: o.checkEvery,
		Game:             [16]byte{'u', 'n', 'i', 't', 's'},
		Transport: transport.Config{
			Token: o.seed*0x9e3779b97f4a7c15 + 1,
			Rand:  rand.NewChaCha8(seedBytes(o.seed, i)),
		},
	}
	for j, ep := range eps {
		if j != i {
			cfg.Peers = append(cfg.Peers, rollstep.Peer{Addr: ep.ID(), Players: []core.PlayerHandle{core.PlayerHandle(j)}})
		}
	}
	switch m {
	case modeLockstep:
		cfg.Mode = rollstep.Lockstep
		cfg.TurnPeriod = o.turn
		cfg.TicksPerTurn = o.ticksPerTurn
	case modeRollback:
		cfg.Mode = rollstep.Rollback
		cfg.TickRate = o.fps
	case modeAuto:
		cfg.Mode = rollstep.Auto
		cfg.TickRate = o.fps
	}
	if o.hasDelay {
		cfg.InputDelay, cfg.FixedDelay = o.delay, true
	}
	if o.hasPred && m != modeLockstep {
		cfg.Prediction = o.prediction
	}
	return cfg
}

// seedBytes derives peer i's handshake nonce seed from the scenario seed.
func seedBytes(seed uint64, i int) [32]byte {
	var b [32]byte
	r := state.NewRand(seed ^ uint64(i+1)<<32)
	for k := range b {
		b[k] = byte(r.Uint32())
	}
	return b
}
