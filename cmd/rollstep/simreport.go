package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// simReport is the result of one run of rollstep sim in one mode. Its JSON
// form is the stable schema documented in doc.go; fields are only ever
// added, never renamed or removed.
type simReport struct {
	Mode                string       `json:"mode"`
	Seconds             float64      `json:"seconds"` // virtual time the match took
	Peers               []peerReport `json:"peers"`
	Desyncs             []desync     `json:"desyncs"`
	FinalChecksumsEqual bool         `json:"final_checksums_equal"`
	FinalFrame          int32        `json:"final_frame"` // the frame every peer reached and compared
	// ChecksumGroups groups the peers that finished by final checksum,
	// in order of their first peer: one group when they agree, two or
	// more after a split or a desync. Like the peers' Events and End it
	// is present only when the run had a life-cycle event (see
	// eventful).
	ChecksumGroups []checksumGroup `json:"checksum_groups,omitempty"`
	// EndedApart reports that the groups are the sides of a split that
	// was never healed (see endedApart): found as the match ended, or
	// yielded to a side that ended the match first. Each side ended on
	// its own result.
	EndedApart bool `json:"ended_apart,omitempty"`
	// Spectators are the -watch spectators, in the order of the peers
	// they watch.
	Spectators []spectatorReport `json:"spectators,omitempty"`
	// eventful reports that the match did more than connect every peer
	// and play to the end: the text report then lists the life cycle.
	eventful bool
}

// peerReport is one peer's line of a simReport.
type peerReport struct {
	Peer              int         `json:"peer"`
	StallSeconds      float64     `json:"stall_seconds"`
	TurnMsMean        float64     `json:"turn_ms_mean"` // mean period of a turn (lockstep) or frame (rollback)
	Frames            int32       `json:"frames"`
	Rollbacks         int64       `json:"rollbacks"`
	ResimulatedFrames int64       `json:"resimulated_frames"`
	UploadBytesPerSec float64     `json:"upload_bytes_per_sec"` // IP+UDP headers included
	Datagrams         int64       `json:"datagrams"`
	FinalChecksum     string      `json:"final_checksum"`
	Delay             []timePoint `json:"delay"`                     // D over time: where it started and every change
	Prediction        []timePoint `json:"prediction"`                // W over time, likewise
	Events            []lifeEvent `json:"events,omitempty"`          // life-cycle events, in order (eventful runs only)
	End               *peerEnd    `json:"end,omitempty"`             // how its match ended (eventful runs only)
	FirstUpdateMs     int64       `json:"first_update_ms,omitempty"` // -late: when its session was first updated
}

// timePoint is a value from a virtual time on: D or W.
type timePoint struct {
	Ms    int64 `json:"ms"`
	Value int   `json:"value"`
}

// desync is one desync a peer detected.
type desync struct {
	Peer          int      `json:"peer"`
	Remote        int      `json:"remote"`
	FrameDetected int32    `json:"frame_detected"`
	FrameEarliest int32    `json:"frame_earliest"`
	Fields        []string `json:"fields"`
}

// writeJSON writes r as one line of JSON.
func (r *simReport) writeJSON(w io.Writer) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// writeText writes r as a table a person reads at a glance.
func (r *simReport) writeText(w io.Writer) {
	unit := "frame"
	if r.Mode == string(modeLockstep) {
		unit = "turn"
	}
	fmt.Fprintf(w, "%s: %d peers, %d %ss in %.1f s of virtual time\n", r.Mode, len(r.Peers), r.FinalFrame, unit, r.Seconds)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "peer\tstall s\t%s ms\trollbacks\tresimulated\tupload B/s\tD\tW\t\n", unit)
	for _, p := range r.Peers {
		fmt.Fprintf(tw, "%d\t%.2f\t%.1f\t%d\t%d\t%.0f\t%s\t%s\t\n", p.Peer, p.StallSeconds, p.TurnMsMean,
			p.Rollbacks, p.ResimulatedFrames, p.UploadBytesPerSec, series(p.Delay), series(p.Prediction))
	}
	tw.Flush()
	if r.eventful {
		r.writeLife(w, unit)
	}
	for _, d := range r.Desyncs {
		where := fmt.Sprintf("at frame %d", d.FrameDetected)
		if d.FrameEarliest != d.FrameDetected {
			where = fmt.Sprintf("at frame %d (between %d and %d)", d.FrameDetected, d.FrameEarliest, d.FrameDetected)
		}
		fields := "fields unknown"
		if len(d.Fields) > 0 {
			fields = "fields " + strings.Join(d.Fields, ", ")
		}
		fmt.Fprintf(w, "DESYNC: peer %d disagrees with peer %d %s: %s\n", d.Peer, d.Remote, where, fields)
	}
	for _, sp := range r.Spectators {
		over := ""
		switch sp.StartedOver {
		case 0:
		case 1:
			over = ", its replay started over once"
		default:
			over = fmt.Sprintf(", its replay started over %d times", sp.StartedOver)
		}
		if sp.End != "" {
			fmt.Fprintf(w, "spectator of peer %d: stream ended at %s %d: %s%s\n", sp.Host, unit, sp.Frames, sp.End, over)
			continue
		}
		fmt.Fprintf(w, "spectator of peer %d: played the last %s, checksum %s%s\n", sp.Host, unit, sp.FinalChecksum, over)
	}
	switch {
	case r.eventful:
		r.writeGroups(w)
	case r.FinalChecksumsEqual:
		fmt.Fprintf(w, "final checksums: all equal (%s)\n", r.Peers[0].FinalChecksum)
	default:
		fmt.Fprintln(w, "final checksums: DIFFERENT")
	}
}

// writeLife writes every peer's life-cycle events and how its match
// ended, one line each, peer by peer.
func (r *simReport) writeLife(w io.Writer, unit string) {
	fmt.Fprintln(w, "life cycle:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, p := range r.Peers {
		if p.FirstUpdateMs > 0 {
			fmt.Fprintf(tw, "  peer %d\t%s\t%s 0\tfirst updated (-late)\n", p.Peer, seconds(p.FirstUpdateMs), unit)
		}
		events := p.Events
		if p.End != nil && p.End.Error != "" {
			// The error that ended the match is written once, on its line.
			events = slices.Clone(events)
			for k := range events {
				if events[k].Error == p.End.Error {
					events[k].Error = "see the ERROR below"
				}
			}
		}
		lines := lifeLines(events, unit)
		for k, l := range lines {
			if k == maxLifeLines && len(lines) > maxLifeLines+1 {
				fmt.Fprintf(tw, "  peer %d\t…\t\t%d more (-json lists every event)\n", p.Peer, len(lines)-maxLifeLines)
				break
			}
			fmt.Fprintf(tw, "  peer %d\t%s\n", p.Peer, l)
		}
		if p.End != nil {
			fmt.Fprintf(tw, "  peer %d\t%s\t%s %d\t%s\n", p.Peer, seconds(p.End.Ms), unit, p.End.Frame, p.End.describe(r.FinalFrame, unit))
		}
	}
	tw.Flush()
}

// maxLifeLines bounds the text report's life-cycle lines per peer: a
// spiky link interrupts a peer every spike.
const maxLifeLines = 12

// lifeLines renders events as the cells of the text report's lines
// (time, frame, what): an interruption and the resumption that ends it
// share a line.
func lifeLines(events []lifeEvent, unit string) []string {
	var lines []string
	resumed := make([]bool, len(events))
	for k, e := range events {
		if resumed[k] {
			continue
		}
		what := e.describe(unit)
		if e.Event == lifeInterrupted {
			for j := k + 1; j < len(events); j++ {
				if r := events[j]; r.Remote == e.Remote && r.Event != lifeConnected {
					if r.Event == lifeResumed {
						resumed[j] = true
						what = fmt.Sprintf("peer %d interrupted for %.3f s", e.Remote, float64(r.Ms-e.Ms)/1000)
					}
					break
				}
			}
		}
		lines = append(lines, fmt.Sprintf("%s\t%s %d\t%s", seconds(e.Ms), unit, e.Frame, what))
	}
	return lines
}

// writeGroups writes the final checksums of the peers that finished,
// grouped by value, and names the peers that were not compared: those
// that did not finish, and those that finished without simulating the
// last frame (then the groups are said to be of the peers compared).
func (r *simReport) writeGroups(w io.Writer) {
	compared := 0
	for _, g := range r.ChecksumGroups {
		compared += len(g.Peers)
	}
	var out []string
	skipped := false // a peer finished without a final checksum: not all that finished are compared
	for _, p := range r.Peers {
		why := p.skippedFinal(r.FinalFrame)
		switch {
		case p.End != nil && p.End.How != endFinished:
			out = append(out, fmt.Sprintf("%d (%s)", p.Peer, p.End.How))
		case why != "":
			out = append(out, fmt.Sprintf("%d (%s)", p.Peer, why))
			skipped = true
		}
	}
	among, only := "that finished", "finished"
	if skipped {
		among, only = "compared", "compared"
	}
	rest := ""
	if len(out) > 0 {
		rest = "; not compared: peer " + strings.Join(out, ", ")
	}
	switch {
	case compared == 0 && !skipped:
		fmt.Fprintf(w, "final checksums: none to compare, no peer finished%s\n", rest)
	case compared == 0:
		fmt.Fprintf(w, "final checksums: none to compare%s\n", rest)
	case compared == 1:
		fmt.Fprintf(w, "final checksums: only %s %s (%s)%s\n",
			peerList(r.ChecksumGroups[0].Peers), only, r.ChecksumGroups[0].Checksum, rest)
	case len(r.ChecksumGroups) == 1 && len(out) == 0:
		fmt.Fprintf(w, "final checksums: all equal (%s)\n", r.ChecksumGroups[0].Checksum)
	case len(r.ChecksumGroups) == 1:
		fmt.Fprintf(w, "final checksums: all equal (%s) among the %s %s (%s)%s\n",
			r.ChecksumGroups[0].Checksum, plural(compared, "peer"), among, peerList(r.ChecksumGroups[0].Peers), rest)
	default:
		var gs []string
		for _, g := range r.ChecksumGroups {
			gs = append(gs, fmt.Sprintf("%s %s", g.Checksum, peerList(g.Peers)))
		}
		fmt.Fprintf(w, "final checksums: DIFFERENT, %d groups among the %s %s: %s%s\n",
			len(r.ChecksumGroups), plural(compared, "peer"), among, strings.Join(gs, " | "), rest)
		if r.EndedApart {
			fmt.Fprintln(w, "  the match ended split: the peers of every side but one reported the split, which no rejoin healed; each side ended on its own result")
		}
	}
}

// peerList renders peer indexes: "peer 1", "peers 0, 2".
func peerList(peers []int) string {
	s := make([]string, len(peers))
	for i, p := range peers {
		s[i] = fmt.Sprint(p)
	}
	if len(peers) == 1 {
		return "peer " + s[0]
	}
	return "peers " + strings.Join(s, ", ")
}

// plural renders "1 peer", "2 peers".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// seconds renders a virtual time in milliseconds as seconds.
func seconds(ms int64) string { return fmt.Sprintf("%.3f s", float64(ms)/1000) }

// series renders a value over time compactly: "2" when it never changed,
// "2→3@4.1s→2@9.0s" otherwise.
func series(pts []timePoint) string {
	if len(pts) == 0 {
		return "-"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d", pts[0].Value)
	const maxShown = 4
	for i, p := range pts[1:] {
		if i == maxShown {
			fmt.Fprintf(&b, "→…(%d more)", len(pts)-1-maxShown)
			break
		}
		fmt.Fprintf(&b, "→%d@%.1fs", p.Value, float64(p.Ms)/1000)
	}
	return b.String()
}
