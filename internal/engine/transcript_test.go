package engine

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
)

var rewrite = flag.Bool("rewrite", false, "rewrite testdata/scenarios/*.txt from the current engine")

// TestScenarioTranscripts runs named scenarios over the fake network and
// compares a stable text description of every peer with
// testdata/scenarios/NAME.txt (regenerate with go test -run Transcripts
// -rewrite).
func TestScenarioTranscripts(t *testing.T) {
	if DefaultSyncTest != 0 {
		t.Skip("transcripts describe builds without the rollstep_synctest tag")
	}
	type scenario struct {
		name  string
		n     int
		end   core.Frame
		d, w  int
		link  link
		setup func(h *harness)
	}
	for _, sc := range []scenario{
		{name: "rollback-2p-50ms", n: 2, end: 300, d: 1, w: 8, link: link{latency: 50 * time.Millisecond, jitter: 20 * time.Millisecond, loss: 50}},
		{name: "lockstep-3p-100ms", n: 3, end: 200, d: 3, w: 0, link: link{latency: 100 * time.Millisecond, jitter: 30 * time.Millisecond, loss: 20}},
		{name: "rollback-4p-lossy", n: 4, end: 300, d: 0, w: 8, link: link{latency: 20 * time.Millisecond, jitter: 80 * time.Millisecond, loss: 200}},
		{name: "disconnect-3p", n: 3, end: 300, d: 1, w: 8, link: link{latency: 40 * time.Millisecond, jitter: 40 * time.Millisecond, loss: 100}, setup: func(h *harness) {
			noticed := 0
			h.onTick = func(h *harness) {
				if h.nodes[0].eng.Frame() >= 120 && !h.nodes[2].down {
					h.nodes[2].down = true
				}
				if h.nodes[2].down && noticed < 30 {
					if noticed++; noticed == 30 {
						_ = h.nodes[0].eng.DisconnectPeer(h.nodes[0].peerID[2])
					}
				}
			}
		}},
		{name: "nudge-2p-n10", n: 2, end: 150, d: 1, w: 8, link: link{latency: 30 * time.Millisecond}, setup: func(h *harness) {
			h.nodes[1].game.nudge, h.nodes[1].game.nudgeAt = true, 61
			for _, nd := range h.nodes {
				nd.eng.cfg.ChecksumInterval = 10
			}
		}},
	} {
		t.Run(sc.name, func(t *testing.T) {
			h := newHarness(t, sc.n, 41, sc.end, func(i int, c *Config) {
				c.InputDelay, c.Prediction = sc.d, sc.w
			})
			h.setLinks(sc.link)
			if sc.setup != nil {
				sc.setup(h)
			}
			h.run(100000)
			got := transcript(h)
			path := filepath.Join("testdata", "scenarios", sc.name+".txt")
			if *rewrite {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -rewrite to create it)", err)
			}
			if got != string(want) {
				t.Fatalf("transcript differs from %s (run with -rewrite if the change is intended)\n--- got\n%s--- want\n%s", path, got, want)
			}
		})
	}
}

// transcript describes every peer of a finished run, deterministically.
func transcript(h *harness) string {
	var b strings.Builder
	fmt.Fprintf(&b, "virtual time %v, %d peers, %d frames\n", h.now, len(h.nodes), h.end)
	for i, nd := range h.nodes {
		st := nd.eng.Stats()
		fmt.Fprintf(&b, "peer %d: frame %d confirmed-end %d stalled-calls %d stall %v\n", i, st.Frame, st.ConfirmedEnd, st.StalledCalls, st.StallTime)
		fmt.Fprintf(&b, "  rollbacks %d resim %d saves %d loads %d depth", st.Rollbacks, st.ResimFrames, st.Saves, st.Loads)
		for d, k := range st.RollbackDepth {
			if k > 0 {
				fmt.Fprintf(&b, " %d:%d", d, k)
			}
		}
		fmt.Fprintf(&b, "\n  checksums %d desyncs %d final-state %016x\n", st.Checksums, st.Desyncs, checksumOf(nd.eng.State()))
		for _, ev := range nd.events {
			switch ev := ev.(type) {
			case core.DesyncEvent[testState]:
				fmt.Fprintf(&b, "  event desync peer %d frame %d since %d\n", ev.Peer, ev.Frame, ev.Since)
			case core.DesyncFieldsEvent:
				fmt.Fprintf(&b, "  event desync-fields peer %d frame %d %v", ev.Peer, ev.Frame, ev.Paths)
				if ev.Incomplete {
					fmt.Fprintf(&b, " incomplete: %s", ev.Reason)
				}
				b.WriteByte('\n')
			default:
				fmt.Fprintf(&b, "  event %T %+v\n", ev, ev)
			}
		}
	}
	return b.String()
}
