package rollback

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/sim"
)

var update = flag.Bool("update", false, "rewrite testdata/*.txt transcripts")

// TestTranscripts runs named, seeded scenarios and compares a stable
// description of them, second by second, with testdata/<name>.txt. Run
// with -update to rewrite the files after an intended change, and review
// the diff.
func TestTranscripts(t *testing.T) {
	for _, sc := range []struct {
		name  string
		peers int
		link  sim.LinkConfig
		plan  func(m *match, second int)
	}{
		{"rollback-2p-100ms", 2, sim.LinkConfig{Latency: sim.Latency{Base: ms(100), Jitter: ms(10)}}, nil},
		{"rollback-3p-lossy", 3, sim.LinkConfig{Latency: sim.Latency{Base: ms(60), Jitter: ms(20)},
			Loss: 0.15, Duplicate: 0.05, Reorder: 0.05, ReorderDelay: ms(30)}, nil},
		{"rollback-3p-drop", 3, sim.LinkConfig{Latency: sim.Latency{Base: ms(40)}}, func(m *match, s int) {
			m.nodes[2].mute = s >= 3
		}},
	} {
		t.Run(sc.name, func(t *testing.T) {
			m := newMatch(t, sc.peers, 1000+uint64(sc.peers), sc.link, nil)
			var b strings.Builder
			fmt.Fprintf(&b, "# %d peers, link %+v\n", sc.peers, sc.link)
			logged := make([]int, sc.peers)
			for s := 1; s <= 8; s++ {
				if sc.plan != nil {
					sc.plan(m, s)
				}
				m.run(time.Second)
				fmt.Fprintf(&b, "t=%ds\n", s)
				for i, nd := range m.nodes {
					st := nd.s.Stats()
					e := st
					c, _ := nd.s.ConfirmedFrame()
					fmt.Fprintf(&b, "  node %d: frame %d confirmed %d rollbacks %d resim %d stall %dms D %d waited %d\n",
						i, e.Frame, c, e.Rollbacks, e.ResimFrames, st.Stall.Milliseconds(), st.Delay, st.Waited)
					for _, ev := range nd.events[logged[i]:] {
						fmt.Fprintf(&b, "    %s\n", describe(ev))
					}
					logged[i] = len(nd.events)
				}
			}
			m.checkAgreement()
			path := filepath.Join("testdata", sc.name+".txt")
			if *update {
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got := b.String(); got != string(want) {
				t.Errorf("transcript differs from %s (run with -update and review the diff):\n%s", path, got)
			}
		})
	}
}

// describe prints an event without its time-dependent pointers.
func describe(ev core.Event) string {
	switch e := ev.(type) {
	case core.DesyncEvent[pair]:
		return fmt.Sprintf("desync peer %d frame %d", e.Peer, e.Frame)
	case core.StartedEvent:
		return fmt.Sprintf("started at %v", e.At)
	default:
		return strings.TrimPrefix(fmt.Sprintf("%T %+v", ev, ev), "rollback.")
	}
}
