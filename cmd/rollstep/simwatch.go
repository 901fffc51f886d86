package main

import (
	"fmt"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/units"
	"github.com/rollstep/rollstep/transport/sim"
)

// simSpectator is a -watch spectator: a session with Config.Spectate of
// one peer's host session, at its own endpoint.
type simSpectator struct {
	sess     *rollstep.Session[units.State, units.Order]
	finalSum *finalChecksum
	report   spectatorReport
	done     bool       // it played the last frame, or its stream ended
	overAt   core.Frame // the frame its replay last started over from
}

// spectatorReport is one spectator's line of a simReport.
type spectatorReport struct {
	Host          int    `json:"host"`   // the peer it watches
	Frames        int32  `json:"frames"` // frames (turns) it played
	FinalChecksum string `json:"final_checksum"`
	// StartedOver counts the times its replay started over from a new
	// join record of its host: the host's side yielded a split, or its
	// process restarted.
	StartedOver int `json:"started_over"`
	// End says how its stream ended before the last frame, "" when it
	// played it: the host left, was lost, or dropped it.
	End string `json:"end,omitempty"`
}

// newSpectator makes a spectator of peer host, whose session's
// configuration is hostCfg, at a new endpoint of netw, and adds its
// address to hostCfg's spectators (a restarted process of the host copies
// the configuration).
func newSpectator(netw *sim.Network, host int, hostEp *sim.Endpoint, hostCfg *rollstep.Config, initial units.State, target int32) (*simSpectator, error) {
	ep := netw.NewEndpoint()
	hostCfg.Spectators = append(hostCfg.Spectators, ep.ID())
	cfg := rollstep.Config{
		Mode:             hostCfg.Mode,
		Spectate:         true,
		Players:          hostCfg.Players,
		Peers:            []rollstep.Peer{{Addr: hostEp.ID()}},
		TickRate:         hostCfg.TickRate,
		TurnPeriod:       hostCfg.TurnPeriod,
		TicksPerTurn:     hostCfg.TicksPerTurn,
		ChecksumInterval: hostCfg.ChecksumInterval,
		Game:             hostCfg.Game,
	}
	cfg.Transport.Token = hostCfg.Transport.Token
	sp := &simSpectator{finalSum: &finalChecksum{tick: target * int32(max(cfg.TicksPerTurn, 1))}}
	sp.report.Host = host
	var err error
	sp.sess, err = rollstep.NewSession(cfg, recordingGame{sp.finalSum, -1}, initial, ep)
	return sp, err
}

// step runs the spectator's loop once at now, until it played the last
// frame or its stream ended. It reports whether it is done.
func (sp *simSpectator) step(now time.Duration) bool {
	if sp.done {
		return true
	}
	err := sp.sess.Update(now)
	for _, ev := range sp.sess.Events() {
		switch ev := ev.(type) {
		case core.RejoinEvent:
			sp.report.StartedOver++
			sp.overAt = ev.Handoff
		case core.PeerLostEvent:
			sp.report.End = lostText(ev)
		}
	}
	switch {
	case err != nil:
		sp.report.End, sp.done = "error: "+err.Error(), true
	case sp.finalSum.ok:
		sp.report.End, sp.done = "", true
	case sp.sess.Ended():
		sp.done = true
	}
	return sp.done
}

// lostText says how a spectator's stream ended.
func lostText(ev core.PeerLostEvent) string {
	switch {
	case ev.Left && ev.Reason == core.LeaveDropped:
		return "dropped by the host"
	case ev.Left && ev.Reason == core.LeaveEnded:
		return "the host ended the match"
	case ev.Left:
		return "the host left"
	case ev.Err != nil:
		return "the host was lost: " + ev.Err.Error()
	}
	return "the host was lost"
}

// skippedSpectator says why spectator sp's final checksum is not compared
// with the peers', or returns "": it did not play the last frame (its
// stream ended), its host's own final checksum is not compared (the host
// threw that frame away), or its replay started over past it.
func (r *simReport) skippedSpectator(sp *simSpectator, final int32) string {
	host := &r.Peers[sp.report.Host]
	switch {
	case !sp.finalSum.ok:
		return "its stream ended"
	case host.skippedFinal(final) != "":
		return "its host " + host.skippedFinal(final)
	case sp.overAt >= core.Frame(final):
		return "it started over past the last frame"
	}
	return ""
}

// finish fills in the spectator's report and closes its session.
func (sp *simSpectator) finish() spectatorReport {
	sp.report.Frames = int32(sp.sess.Frame())
	sp.report.FinalChecksum = "missing"
	if sp.finalSum.ok {
		sp.report.FinalChecksum = fmt.Sprintf("%016x", sp.finalSum.sum)
	}
	_ = sp.sess.Close()
	return sp.report
}
