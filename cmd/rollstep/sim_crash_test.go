package main

import (
	"io"
	"strings"
	"testing"
	"time"
)

// -crash: the peer's process dies, a new one rejoins after the downtime,
// every peer reports the rejoin and all final checksums are equal.
func TestSimCrashRejoins(t *testing.T) {
	for _, mode := range []string{"rollback", "lockstep", "auto"} {
		t.Run(mode, func(t *testing.T) {
			text, r := lifeRun(t, "-mode", mode, "-peers", "3", "-loss", "0.05", "-crash", "1:150:1s", "-frames", "600", "-turns", "300")
			for p := range 3 {
				wantEnd(t, &r, p, endFinished)
				rj := events(&r, p, lifeRejoin, 1)
				if len(rj) != 1 || rj[0].Error != "" || rj[0].Rejoin == nil || rj[0].Rejoin.Return <= 150 {
					t.Errorf("peer %d's rejoin events: %+v", p, rj)
				}
			}
			if len(events(&r, 1, lifeCrashed, 1)) != 1 || len(events(&r, 1, lifeRestarted, 1)) != 1 {
				t.Errorf("peer 1 does not report its crash and restart: %+v", r.Peers[1].Events)
			}
			wantGroups(t, &r, []int{0, 1, 2})
			for _, want := range []string{"CRASHED", "this peer rejoined", "peer 1 rejoined: snapshot of", "final checksums: all equal"} {
				if !strings.Contains(text, want) {
					t.Errorf("the report lacks %q:\n%s", want, text)
				}
			}
		})
	}
}

func TestSimCrashFlags(t *testing.T) {
	o, err := parseSimFlags([]string{"-peers", "3", "-crash", "1:600:1500ms"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if p := o.script.planFor(1, 1200); p.crashAt != 600 || p.crashDown != 1500*time.Millisecond {
		t.Errorf("peer 1's plan %+v", p)
	}
	for _, tc := range []struct{ args []string }{
		{[]string{"-crash", "1:600"}},
		{[]string{"-crash", "1:-1:1s"}},
		{[]string{"-crash", "1:600:soon"}},
		{[]string{"-crash", "5:600:1s"}},
		{[]string{"-crash", "1:600:1s", "-kill", "1:30"}},
		{[]string{"-crash", "1:5000:1s"}},
	} {
		if _, err := parseSimFlags(tc.args, io.Discard); err == nil || !strings.Contains(err.Error(), "-crash") && !strings.Contains(err.Error(), "-kill") {
			t.Errorf("%v: %v, want an error naming -crash", tc.args, err)
		}
	}
}

// Player 1's process dies, and 1 s later, while its new process is coming
// back, every link drops for 4 s. The new process connected to some
// survivors before the blackout, and their proof of it arrived only
// after; after the heal each side yields to player 0's and every peer,
// the new process included, finishes with one checksum. (8 peers, seeds
// 22 and 23: a survivor that then yielded kept the session the new
// process had already given up on, and the match froze. 3 peers, seed
// 33: the new process, given its state by player 2's side, yielded to
// player 0's offer and then started its session with player 0 over,
// which abandoned that very offer.)
func TestSimCrashInABlackoutHeals(t *testing.T) {
	for _, tc := range []struct{ peers, seed string }{{"8", "22"}, {"8", "23"}, {"3", "33"}} {
		t.Run(tc.peers+"/"+tc.seed, func(t *testing.T) {
			_, r := lifeRun(t, "-mode", "rollback", "-peers", tc.peers, "-seed", tc.seed, "-frames", "600",
				"-loss", "0.05", "-blackout", "3s/4s", "-crash", "1:100:1s")
			var all []int
			for p := range r.Peers {
				wantEnd(t, &r, p, endFinished)
				all = append(all, p)
			}
			wantGroups(t, &r, all)
		})
	}
}
