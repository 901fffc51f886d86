package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/transport/sim"
)

// The life-cycle script of rollstep sim: -leave, -kill, -blackout and
// -late. Each run (mode) of the command plays the same script from
// virtual time zero.

// stringList is a repeatable string flag; its values are parsed after
// flag.Parse, so that their errors read like every other flag's.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// exit is a -leave or -kill: peer stops at frame (turn) frame, cleanly
// (leave: it closes its session, which sends a Leave) or silently (kill:
// its host stops calling Update and never closes it).
type exit struct {
	peer  int
	frame int32
	kill  bool
}

// flag returns the flag that gave e.
func (e exit) flag() string {
	if e.kill {
		return "-kill"
	}
	return "-leave"
}

// blackout is a -blackout START/DURATION: every link drops every datagram
// sent from start for dur of virtual time.
type blackout struct {
	start, dur time.Duration
}

// cut is a -cut FROM:TO:START/DURATION: the link from peer from to peer
// to drops every datagram sent from start for dur (the other direction
// keeps working).
type cut struct {
	from, to int
	blackout
}

// late is a -late PEER:DELAY: peer's session is first updated at delay.
type late struct {
	peer  int
	delay time.Duration
}

// lifeScript is the parsed life-cycle flags.
type lifeScript struct {
	exits     []exit
	blackouts []blackout
	cuts      []cut
	lates     []late
	crashes   []crash
}

// any reports whether the script does anything.
func (s *lifeScript) any() bool {
	return len(s.exits)+len(s.blackouts)+len(s.cuts)+len(s.lates)+len(s.crashes) > 0
}

// maxLate bounds -late, so that a typo cannot make a run spin for hours
// of virtual time.
const maxLate = time.Hour

// parseLifeScript parses the values of -leave, -kill, -blackout, -cut,
// -late and -crash.
func parseLifeScript(leaves, kills, blackouts, cuts, lates, crashes []string) (lifeScript, error) {
	var s lifeScript
	for _, v := range cuts {
		c, err := parseCut(v)
		if err != nil {
			return s, err
		}
		s.cuts = append(s.cuts, c)
	}
	for _, v := range crashes {
		c, err := parseCrash(v)
		if err != nil {
			return s, err
		}
		s.crashes = append(s.crashes, c)
	}
	for _, list := range []struct {
		v    []string
		kill bool
	}{{leaves, false}, {kills, true}} {
		for _, v := range list.v {
			e, err := parseExit(v, list.kill)
			if err != nil {
				return s, err
			}
			s.exits = append(s.exits, e)
		}
	}
	for _, v := range blackouts {
		b, err := parseBlackout(v)
		if err != nil {
			return s, err
		}
		s.blackouts = append(s.blackouts, b)
	}
	for _, v := range lates {
		l, err := parseLate(v)
		if err != nil {
			return s, err
		}
		s.lates = append(s.lates, l)
	}
	return s, nil
}

// parsePeer parses the PEER of flag name's value s.
func parsePeer(name, s, p string) (int, error) {
	peer, err := strconv.Atoi(p)
	if err != nil || peer < 0 {
		return 0, fmt.Errorf("%s %q: peer %q is not a peer index ≥ 0", name, s, p)
	}
	return peer, nil
}

// parseExit parses the PEER:FRAME of a -leave or -kill.
func parseExit(s string, kill bool) (exit, error) {
	e := exit{kill: kill}
	p, f, ok := strings.Cut(s, ":")
	if !ok {
		return e, fmt.Errorf("%s %q: want PEER:FRAME, e.g. 1:300", e.flag(), s)
	}
	var err error
	if e.peer, err = parsePeer(e.flag(), s, p); err != nil {
		return e, err
	}
	frame, err := strconv.ParseInt(f, 10, 32)
	if err != nil || frame < 0 {
		return e, fmt.Errorf("%s %q: frame %q is not a frame ≥ 0", e.flag(), s, f)
	}
	e.frame = int32(frame)
	return e, nil
}

// parseBlackout parses START/DURATION.
func parseBlackout(s string) (blackout, error) { return parseSpan("-blackout", s, s) }

// parseSpan parses the START/DURATION s of flag name's value v.
func parseSpan(name, v, s string) (blackout, error) {
	a, d, ok := strings.Cut(s, "/")
	if !ok {
		return blackout{}, fmt.Errorf("%s %q: want START/DURATION, e.g. 2s/3s", name, v)
	}
	start, err := time.ParseDuration(a)
	if err != nil || start < 0 {
		return blackout{}, fmt.Errorf("%s %q: start %q is not a duration ≥ 0, such as 2s", name, v, a)
	}
	dur, err := time.ParseDuration(d)
	if err != nil || dur <= 0 {
		return blackout{}, fmt.Errorf("%s %q: duration %q is not a positive duration, such as 3s", name, v, d)
	}
	if start > maxLate || dur > maxLate {
		return blackout{}, fmt.Errorf("%s %q: want a start and a duration of at most %v", name, v, maxLate)
	}
	return blackout{start, dur}, nil
}

// parseCut parses FROM:TO:START/DURATION.
func parseCut(s string) (cut, error) {
	parts := strings.SplitN(s, ":", 3)
	if len(parts) != 3 {
		return cut{}, fmt.Errorf("-cut %q: want FROM:TO:START/DURATION, e.g. 1:0:3s/4s", s)
	}
	var c cut
	var err error
	if c.from, err = parsePeer("-cut", s, parts[0]); err != nil {
		return c, err
	}
	if c.to, err = parsePeer("-cut", s, parts[1]); err != nil {
		return c, err
	}
	if c.from == c.to {
		return c, fmt.Errorf("-cut %q: a link joins two different peers", s)
	}
	c.blackout, err = parseSpan("-cut", s, parts[2])
	return c, err
}

// parseLate parses PEER:DELAY.
func parseLate(s string) (late, error) {
	p, d, ok := strings.Cut(s, ":")
	if !ok {
		return late{}, fmt.Errorf("-late %q: want PEER:DELAY, e.g. 1:4s", s)
	}
	peer, err := parsePeer("-late", s, p)
	if err != nil {
		return late{}, err
	}
	delay, err := time.ParseDuration(d)
	if err != nil || delay <= 0 || delay > maxLate {
		return late{}, fmt.Errorf("-late %q: delay %q is not a duration in (0, %v], such as 4s", s, d, maxLate)
	}
	return late{peer, delay}, nil
}

// check validates the script against the match: peers in range, one exit
// and one -late per peer, and exit frames that some mode played reaches.
func (s *lifeScript) check(o *simOptions) error {
	exited := map[int]exit{}
	for _, e := range s.exits {
		if e.peer >= o.peers {
			return fmt.Errorf("%s %d:%d: there are only %d peers (0-based)", e.flag(), e.peer, e.frame, o.peers)
		}
		if prev, ok := exited[e.peer]; ok {
			return fmt.Errorf("%s %d:%d: peer %d already stops at %s %d:%d", e.flag(), e.peer, e.frame, e.peer, prev.flag(), prev.peer, prev.frame)
		}
		exited[e.peer] = e
		if longest, what := o.longestMatch(); e.frame >= longest {
			return fmt.Errorf("%s %d:%d: the match ends before frame %d (%s)", e.flag(), e.peer, e.frame, e.frame, what)
		}
	}
	for _, c := range s.crashes {
		if c.peer >= o.peers {
			return fmt.Errorf("-crash %d:%d:%v: there are only %d peers (0-based)", c.peer, c.frame, c.down, o.peers)
		}
		if _, ok := exited[c.peer]; ok {
			return fmt.Errorf("-crash %d:%d:%v: peer %d already stops (one -leave, -kill or -crash per peer)", c.peer, c.frame, c.down, c.peer)
		}
		exited[c.peer] = exit{peer: c.peer, frame: c.frame, kill: true}
		if longest, what := o.longestMatch(); c.frame >= longest {
			return fmt.Errorf("-crash %d:%d:%v: the match ends before frame %d (%s)", c.peer, c.frame, c.down, c.frame, what)
		}
	}
	for _, c := range s.cuts {
		if max(c.from, c.to) >= o.peers {
			return fmt.Errorf("-cut %d:%d:%v/%v: there are only %d peers (0-based)", c.from, c.to, c.start, c.dur, o.peers)
		}
	}
	delayed := map[int]bool{}
	for _, l := range s.lates {
		if l.peer >= o.peers {
			return fmt.Errorf("-late %d:%v: there are only %d peers (0-based)", l.peer, l.delay, o.peers)
		}
		if delayed[l.peer] {
			return fmt.Errorf("-late %d:%v: peer %d is given -late twice", l.peer, l.delay, l.peer)
		}
		delayed[l.peer] = true
	}
	return nil
}

// longestMatch returns the length of the longest match the modes of o
// play, and says what they play.
func (o *simOptions) longestMatch() (int32, string) {
	switch o.mode {
	case modeLockstep:
		return int32(o.turns), fmt.Sprintf("-turns %d", o.turns)
	case modeBoth:
		return int32(max(o.turns, o.frames)), fmt.Sprintf("-turns %d, -frames %d", o.turns, o.frames)
	}
	return int32(o.frames), fmt.Sprintf("-frames %d", o.frames)
}

// plan is what the script does to one peer in a match of target frames.
type plan struct {
	exitAt    int32 // the frame at which it leaves or is killed; -1 for none
	kill      bool
	startAt   time.Duration // its first Update
	crashAt   int32         // -crash: the frame its process dies at; -1 for none
	crashDown time.Duration // and how long before a new one starts
}

// planFor returns peer i's plan. An exit at or past the end of this
// mode's match does not happen: the peer finishes first.
func (s *lifeScript) planFor(i int, target int32) plan {
	p := plan{exitAt: -1, crashAt: -1}
	for _, c := range s.crashes {
		if c.peer == i && c.frame < target {
			p.crashAt, p.crashDown = c.frame, c.down
		}
	}
	for _, e := range s.exits {
		if e.peer == i && e.frame < target {
			p.exitAt, p.kill = e.frame, e.kill
		}
	}
	for _, l := range s.lates {
		if l.peer == i {
			p.startAt = l.delay
		}
	}
	return p
}

// lastLate returns the latest -late delay, 0 without one.
func (s *lifeScript) lastLate() time.Duration {
	var d time.Duration
	for _, l := range s.lates {
		d = max(d, l.delay)
	}
	return d
}

// during reports whether b covers virtual time now.
func (b blackout) during(now time.Duration) bool { return now >= b.start && now-b.start < b.dur }

// cutAt reports whether the link from peer a to peer b drops what is sent
// at virtual time now: a blackout, or a -cut of that direction.
func (s *lifeScript) cutAt(a, b int, now time.Duration) bool {
	for _, o := range s.blackouts {
		if o.during(now) {
			return true
		}
	}
	for _, c := range s.cuts {
		if c.from == a && c.to == b && c.during(now) {
			return true
		}
	}
	return false
}

// lights cuts and heals the network's links as the script says: every
// directed link while a blackout lasts, one direction of one link while a
// -cut does.
type lights struct {
	script *lifeScript
	out    []bool // out[a*n+b]: the link from peer a to peer b is cut
}

// apply cuts or heals netw's links for now.
func (l *lights) apply(netw *sim.Network, eps []*sim.Endpoint, now time.Duration) {
	n := len(eps)
	if l.out == nil {
		l.out = make([]bool, n*n)
	}
	changed := false
	for a := range n {
		for b := range n {
			if out := a != b && l.script.cutAt(a, b, now); out != l.out[a*n+b] {
				l.out[a*n+b], changed = out, true
			}
		}
	}
	if !changed {
		return
	}
	netw.Heal()
	for a := range n {
		for b := range n {
			if l.out[a*n+b] {
				netw.Cut(eps[a].ID(), eps[b].ID())
			}
		}
	}
}

// The life-cycle events a peer's report lists, as JSON names them.
const (
	lifeConnected   = "connected"   // the handshake with the remote completed
	lifeRefused     = "refused"     // the handshake was refused (Error says why)
	lifeInterrupted = "interrupted" // nothing arrived from the remote for the interrupt timeout
	lifeResumed     = "resumed"     // an interrupted remote was heard again
	lifeLost        = "lost"        // silent for the disconnect timeout, or its handshake timed out (Error)
	lifeLeft        = "left"        // the remote sent a Leave
	lifeSplit       = "split"       // a lost remote was heard again: both sides played on apart
	lifeDropped     = "dropped"     // the agreed frame (Since) from which the remote's inputs are disconnected
	lifeCrashed     = "crashed"     // -crash: this peer's process died (Remote is the peer itself)
	lifeRestarted   = "restarted"   // -crash: a new process of this peer started, to rejoin
	lifeYielded     = "yielded"     // Stats.Rejoining turned true in a running peer: its side of a split yielded (it throws its frames away to rejoin), it started over, or, dropped again soon after a return, it waits to yield again (Remote is the peer itself)
	lifeRejoin      = "rejoin"      // a rejoin of Remote (or this peer: Rejoin.Self) ended; Error if it failed
)

// lifeEvent is one life-cycle event a peer saw about a remote peer.
type lifeEvent struct {
	Ms     int64  `json:"ms"`     // virtual time of the Update that reported it
	Frame  int32  `json:"frame"`  // this peer's frame (turn) after that Update
	Event  string `json:"event"`  // one of the names above
	Remote int    `json:"remote"` // the peer it is about (0-based)
	// Since is, for dropped, the first frame the remote's inputs are
	// disconnected (every peer reports the same), and for split the
	// frame from which this peer played without the remote.
	Since *int32 `json:"since,omitempty"`
	Error string `json:"error,omitempty"` // refused, or lost by handshake timeout: why
	// Rejoin is the timeline of a rejoin event.
	Rejoin *rejoinInfo `json:"rejoin,omitempty"`
}

// How a peer's match ended, as JSON names it.
const (
	endFinished = "finished" // it confirmed every frame of the match
	endLeft     = "left"     // it closed its session at -leave's frame
	endKilled   = "killed"   // its host stopped at -kill's frame
	endError    = "error"    // Update (or AddLocalInput) failed; Error has the text
)

// peerEnd says how a peer's match ended.
type peerEnd struct {
	How   string `json:"how"`   // finished, left, killed or error
	Ms    int64  `json:"ms"`    // virtual time it happened
	Frame int32  `json:"frame"` // the peer's frame (turn) then
	Error string `json:"error,omitempty"`
	// Remote is the peer (0-based, the simulator's numbering) the error
	// is about, when it names one: the error's own text numbers the
	// session's list of the other peers.
	Remote *int `json:"remote,omitempty"`
}

// failed returns the end of peer i's match by err at now, at frame.
func failed(i int, now time.Duration, frame core.Frame, err error) *peerEnd {
	e := &peerEnd{How: endError, Ms: now.Milliseconds(), Frame: int32(frame), Error: err.Error()}
	var timeout *endpoint.HandshakeTimeoutError
	var refused *endpoint.HandshakeError
	switch {
	case errors.As(err, &timeout):
		r := globalPeer(i, timeout.Peer)
		e.Remote = &r
	case errors.As(err, &refused):
		r := globalPeer(i, refused.Peer)
		e.Remote = &r
	}
	return e
}

// checksumGroup is a set of peers that finished with one final checksum.
type checksumGroup struct {
	Checksum string `json:"checksum"`
	Peers    []int  `json:"peers"`
}

// lifeEvent records one life-cycle event of a session, if ev is one; it
// reports whether it was.
func (p *simPeer) lifeEvent(i int, now time.Duration, ev any) bool {
	e := lifeEvent{Ms: now.Milliseconds(), Frame: int32(p.sess.Frame())}
	var since core.Frame = -1
	switch x := ev.(type) {
	case core.ConnectedEvent:
		e.Event, e.Remote = lifeConnected, globalPeer(i, x.Peer)
	case core.RefusedEvent:
		e.Event, e.Remote, e.Error = lifeRefused, globalPeer(i, x.Peer), errText(x.Err)
	case core.InterruptedEvent:
		e.Event, e.Remote = lifeInterrupted, globalPeer(i, x.Peer)
	case core.ResumedEvent:
		e.Event, e.Remote = lifeResumed, globalPeer(i, x.Peer)
	case core.SplitEvent:
		e.Event, e.Remote, since = lifeSplit, globalPeer(i, x.Peer), x.Frame
	case core.PeerLostEvent:
		e.Event, e.Remote, e.Error = lifeLost, globalPeer(i, x.Peer), errText(x.Err)
		if x.Left {
			e.Event = lifeLeft
		}
	case core.DisconnectEvent:
		// One player per peer: the handle is the peer's index.
		e.Event, e.Remote, since = lifeDropped, int(x.Player), x.Frame
	case core.RejoinEvent:
		r := rejoinEvent(i, x)
		r.Ms, r.Frame = e.Ms, e.Frame
		p.life = append(p.life, r)
		return true
	default:
		return false
	}
	if e.Event == lifeSplit && since < 0 {
		since = p.droppedAt(e.Remote) // lockstep does not say; the agreed drop does
	}
	if since >= 0 {
		f := int32(since)
		e.Since = &f
	}
	p.life = append(p.life, e)
	return true
}

// droppedAt returns the frame from which peer p dropped remote's inputs,
// or -1.
func (p *simPeer) droppedAt(remote int) core.Frame {
	for _, e := range p.life {
		if e.Event == lifeDropped && e.Remote == remote && e.Since != nil {
			return core.Frame(*e.Since)
		}
	}
	return -1
}

// errText returns err's text, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// describe renders e for the text report.
func (e *lifeEvent) describe(unit string) string {
	var s string
	switch e.Event {
	case lifeConnected:
		s = fmt.Sprintf("connected to peer %d", e.Remote)
	case lifeDropped:
		s = fmt.Sprintf("peer %d dropped", e.Remote)
		if e.Since != nil {
			s += fmt.Sprintf(": its inputs disconnected from %s %d on", unit, *e.Since)
		}
	case lifeRejoin:
		s = e.describeRejoin(unit)
	case lifeCrashed:
		s = "CRASHED: this peer's process died"
	case lifeRestarted:
		s = "a new process of this peer started"
	case lifeYielded:
		s = "YIELDED: gives its side up to rejoin, or waits to try again"
	case lifeSplit:
		s = fmt.Sprintf("SPLIT from peer %d", e.Remote)
		if e.Since != nil {
			s += fmt.Sprintf(": played apart since %s %d", unit, *e.Since)
		}
	default:
		s = fmt.Sprintf("peer %d %s", e.Remote, e.Event)
	}
	if e.Error != "" {
		s += ": " + e.Error
	}
	return s
}

// describe renders e for the text report.
func (e *peerEnd) describe(target int32, unit string) string {
	switch e.How {
	case endFinished:
		return fmt.Sprintf("finished: all %d %ss confirmed", target, unit)
	case endLeft:
		return fmt.Sprintf("LEFT at %s %d (closed its session)", unit, e.Frame)
	case endKilled:
		return fmt.Sprintf("KILLED at %s %d (no longer updated, never closed)", unit, e.Frame)
	}
	if e.Remote != nil {
		return fmt.Sprintf("ERROR (about peer %d): %s", *e.Remote, e.Error)
	}
	return "ERROR: " + e.Error
}
