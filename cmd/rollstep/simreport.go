package main

import (
	"encoding/json"
	"fmt"
	"io"
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
	Delay             []timePoint `json:"delay"`      // D over time: where it started and every change
	Prediction        []timePoint `json:"prediction"` // W over time, likewise
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
	if r.FinalChecksumsEqual {
		fmt.Fprintf(w, "final checksums: all equal (%s)\n", r.Peers[0].FinalChecksum)
	} else {
		fmt.Fprintln(w, "final checksums: DIFFERENT")
	}
}

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
