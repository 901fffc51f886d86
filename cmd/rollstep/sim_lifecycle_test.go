package main

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSimLifeFlags(t *testing.T) {
	o, err := parseSimFlags([]string{"-peers", "3", "-leave", "1:300", "-leave", "2:10", "-kill", "0:5",
		"-blackout", "3s/3s", "-blackout", "10s/500ms", "-late", "1:4s", "-cut", "2:0:20s/1s"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	s := o.script
	wantExits := []exit{{peer: 1, frame: 300}, {peer: 2, frame: 10}, {peer: 0, frame: 5, kill: true}}
	wantBlackouts := []blackout{{3 * time.Second, 3 * time.Second}, {10 * time.Second, 500 * time.Millisecond}}
	if !slices.Equal(s.exits, wantExits) || !slices.Equal(s.blackouts, wantBlackouts) ||
		!slices.Equal(s.lates, []late{{1, 4 * time.Second}}) {
		t.Errorf("parsed %+v", s)
	}
	for _, tc := range []struct {
		now  time.Duration
		dark bool
	}{{2999 * time.Millisecond, false}, {3 * time.Second, true}, {5999 * time.Millisecond, true},
		{6 * time.Second, false}, {10200 * time.Millisecond, true}, {10500 * time.Millisecond, false}} {
		if got := s.cutAt(1, 2, tc.now); got != tc.dark {
			t.Errorf("cutAt(1, 2, %v) = %v, want %v", tc.now, got, tc.dark)
		}
	}
	// -cut 2:0:20s/1s drops what peer 2 sends peer 0 from 20 s to 21 s,
	// and nothing else.
	for _, tc := range []struct {
		a, b int
		now  time.Duration
		cut  bool
	}{{2, 0, 20 * time.Second, true}, {2, 0, 20999 * time.Millisecond, true}, {2, 0, 21 * time.Second, false},
		{2, 0, 19 * time.Second, false}, {0, 2, 20500 * time.Millisecond, false}, {2, 1, 20500 * time.Millisecond, false}} {
		if got := s.cutAt(tc.a, tc.b, tc.now); got != tc.cut {
			t.Errorf("cutAt(%d, %d, %v) = %v, want %v", tc.a, tc.b, tc.now, got, tc.cut)
		}
	}
	if p := s.planFor(1, 1200); p.exitAt != 300 || p.kill || p.startAt != 4*time.Second {
		t.Errorf("peer 1's plan %+v", p)
	}
	if p := s.planFor(1, 300); p.exitAt != -1 {
		t.Errorf("peer 1 leaves at frame %d of a 300-frame match", p.exitAt)
	}

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"leave without frame", []string{"-leave", "1"}, `-leave "1": want PEER:FRAME, e.g. 1:300`},
		{"leave of no peer", []string{"-leave", "x:3"}, `-leave "x:3": peer "x" is not a peer index ≥ 0`},
		{"negative kill frame", []string{"-kill", "1:-2"}, `-kill "1:-2": frame "-2" is not a frame ≥ 0`},
		{"leave of a missing peer", []string{"-leave", "5:3"}, "-leave 5:3: there are only 2 peers (0-based)"},
		{"leave and kill", []string{"-leave", "1:3", "-kill", "1:5"}, "-kill 1:5: peer 1 already stops at -leave 1:3"},
		{"leave twice", []string{"-leave", "1:3", "-leave", "1:5"}, "-leave 1:5: peer 1 already stops at -leave 1:3"},
		{"leave past the end", []string{"-leave", "1:5000"}, "-leave 1:5000: the match ends before frame 5000 (-turns 300, -frames 1200)"},
		{"kill past the lockstep end", []string{"-mode", "lockstep", "-kill", "0:300"}, "-kill 0:300: the match ends before frame 300 (-turns 300)"},
		{"blackout without duration", []string{"-blackout", "3s"}, `-blackout "3s": want START/DURATION, e.g. 2s/3s`},
		{"blackout bad start", []string{"-blackout", "soon/3s"}, `-blackout "soon/3s": start "soon" is not a duration ≥ 0`},
		{"blackout negative start", []string{"-blackout", "-1s/3s"}, `start "-1s" is not a duration ≥ 0`},
		{"blackout zero duration", []string{"-blackout", "1s/0s"}, `-blackout "1s/0s": duration "0s" is not a positive duration`},
		{"blackout too long", []string{"-blackout", "1s/2h"}, "want a start and a duration of at most 1h0m0s"},
		{"cut without span", []string{"-cut", "1:0"}, `-cut "1:0": want FROM:TO:START/DURATION, e.g. 1:0:3s/4s`},
		{"cut of itself", []string{"-cut", "1:1:2s/1s"}, `-cut "1:1:2s/1s": a link joins two different peers`},
		{"cut of a missing peer", []string{"-cut", "0:4:2s/1s"}, "-cut 0:4:2s/1s: there are only 2 peers (0-based)"},
		{"cut bad span", []string{"-cut", "0:1:2s"}, `-cut "0:1:2s": want START/DURATION, e.g. 2s/3s`},
		{"late without delay", []string{"-late", "1"}, `-late "1": want PEER:DELAY, e.g. 1:4s`},
		{"late zero", []string{"-late", "1:0s"}, `-late "1:0s": delay "0s" is not a duration in (0, 1h0m0s]`},
		{"late in frames", []string{"-late", "1:40"}, `delay "40" is not a duration`},
		{"late of a missing peer", []string{"-late", "3:1s"}, "-late 3:1s: there are only 2 peers (0-based)"},
		{"late twice", []string{"-late", "1:1s", "-late", "1:2s"}, "-late 1:2s: peer 1 is given -late twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(append([]string{"sim"}, tc.args...), &out, &errOut); code != 2 {
				t.Errorf("exit code %d, want 2", code)
			}
			if !strings.Contains(errOut.String(), tc.want) {
				t.Errorf("stderr %q does not say %q", errOut.String(), tc.want)
			}
		})
	}
}

// lifeRun plays one match of rollstep sim with args (one mode) and
// returns its text report and its JSON report, decoded.
func lifeRun(t *testing.T, args ...string) (string, simReport) {
	t.Helper()
	o, err := parseSimFlags(args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	run, err := simulate(&o, o.mode)
	if err != nil {
		t.Fatal(err)
	}
	var text, js bytes.Buffer
	run.report.writeText(&text)
	if err := run.report.writeJSON(&js); err != nil {
		t.Fatal(err)
	}
	var r simReport
	if err := json.Unmarshal(js.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	return text.String(), r
}

// events returns peer's events of kind kind about remote.
func events(r *simReport, peer int, kind string, remote int) []lifeEvent {
	var out []lifeEvent
	for _, e := range r.Peers[peer].Events {
		if e.Event == kind && e.Remote == remote {
			out = append(out, e)
		}
	}
	return out
}

// wantEnd checks how peer's match ended.
func wantEnd(t *testing.T, r *simReport, peer int, how string) {
	t.Helper()
	if e := r.Peers[peer].End; e == nil || e.How != how {
		t.Errorf("%s: peer %d ended %+v, want %s", r.Mode, peer, e, how)
	}
}

// wantGroups checks the checksum groups' peers.
func wantGroups(t *testing.T, r *simReport, groups ...[]int) {
	t.Helper()
	var got [][]int
	for _, g := range r.ChecksumGroups {
		got = append(got, g.Peers)
	}
	if !slices.EqualFunc(got, groups, slices.Equal) {
		t.Errorf("%s: checksum groups %v, want %v", r.Mode, got, groups)
	}
	if r.FinalChecksumsEqual != (len(groups) == 1) {
		t.Errorf("%s: final_checksums_equal %v with %d groups", r.Mode, r.FinalChecksumsEqual, len(groups))
	}
}

func TestSimLeave(t *testing.T) {
	for _, mode := range []string{"rollback", "lockstep"} {
		t.Run(mode, func(t *testing.T) {
			text, r := lifeRun(t, "-mode", mode, "-peers", "3", "-leave", "1:300", "-frames", "500", "-turns", "330")
			wantEnd(t, &r, 0, endFinished)
			wantEnd(t, &r, 2, endFinished)
			wantEnd(t, &r, 1, endLeft)
			if f := r.Peers[1].End.Frame; f != 300 {
				t.Errorf("peer 1 left at frame %d, want 300", f)
			}
			for _, p := range []int{0, 2} {
				if len(events(&r, p, lifeLeft, 1)) != 1 || len(events(&r, p, lifeDropped, 1)) != 1 {
					t.Errorf("peer %d does not report peer 1 left and dropped: %+v", p, r.Peers[p].Events)
				}
				if len(events(&r, p, lifeLost, 1)) != 0 {
					t.Errorf("peer %d reports peer 1 lost, not left", p)
				}
			}
			// Every survivor drops the departed player at one agreed frame.
			a, b := events(&r, 0, lifeDropped, 1), events(&r, 2, lifeDropped, 1)
			if len(a) == 1 && len(b) == 1 && *a[0].Since != *b[0].Since {
				t.Errorf("peers 0 and 2 drop peer 1 from frames %d and %d", *a[0].Since, *b[0].Since)
			}
			wantGroups(t, &r, []int{0, 2})
			for _, want := range []string{"life cycle:", "LEFT at ", "peer 1 left",
				"among the 2 peers that finished (peers 0, 2); not compared: peer 1 (left)"} {
				if !strings.Contains(text, want) {
					t.Errorf("the report lacks %q:\n%s", want, text)
				}
			}
		})
	}
}

func TestSimKill(t *testing.T) {
	for _, mode := range []string{"rollback", "lockstep"} {
		t.Run(mode, func(t *testing.T) {
			text, r := lifeRun(t, "-mode", mode, "-peers", "3", "-kill", "2:150", "-frames", "600", "-turns", "200")
			wantEnd(t, &r, 2, endKilled)
			for _, p := range []int{0, 1} {
				wantEnd(t, &r, p, endFinished)
				if len(events(&r, p, lifeInterrupted, 2)) == 0 || len(events(&r, p, lifeLost, 2)) != 1 ||
					len(events(&r, p, lifeDropped, 2)) != 1 {
					t.Errorf("peer %d does not report peer 2 interrupted, lost and dropped: %+v", p, r.Peers[p].Events)
				}
				if len(events(&r, p, lifeLeft, 2)) != 0 {
					t.Errorf("peer %d reports a Leave from the killed peer", p)
				}
			}
			wantGroups(t, &r, []int{0, 1})
			for _, want := range []string{"KILLED at ", "peer 2 lost", "not compared: peer 2 (killed)"} {
				if !strings.Contains(text, want) {
					t.Errorf("the report lacks %q:\n%s", want, text)
				}
			}
		})
	}
}

func TestSimBlackoutHeals(t *testing.T) {
	// A 3 s blackout outlasts the 2.5 s disconnect timeout: each peer
	// drops the other and plays on alone; when the links heal, the
	// probes of the lost peer reveal the split, and peer 1 (without the
	// lowest handle) yields: it throws its frames away and rejoins from
	// peer 0, so the match ends as one.
	for _, tc := range []struct{ mode, length string }{{"rollback", "-frames"}, {"lockstep", "-turns"}} {
		t.Run(tc.mode, func(t *testing.T) {
			text, r := lifeRun(t, "-mode", tc.mode, "-blackout", "2s/3s", tc.length, "300")
			for p, remote := range []int{1, 0} {
				wantEnd(t, &r, p, endFinished)
				if len(events(&r, p, lifeLost, remote)) != 1 {
					t.Errorf("peer %d does not report peer %d lost: %+v", p, remote, r.Peers[p].Events)
				}
				split := events(&r, p, lifeSplit, remote)
				if len(split) != 1 {
					t.Fatalf("peer %d reports %d splits from peer %d, want 1: %+v", p, len(split), remote, r.Peers[p].Events)
				}
				if e := split[0]; e.Ms < 5000 || e.Since == nil || *e.Since <= 0 {
					t.Errorf("peer %d: split %+v, want after the heal at 5 s with the frame it played apart from", p, e)
				}
			}
			if rj := events(&r, 1, lifeRejoin, 1); len(rj) != 1 || rj[0].Error != "" || !rj[0].Rejoin.Self {
				t.Errorf("peer 1 does not report its own rejoin: %+v", r.Peers[1].Events)
			}
			if rj := events(&r, 0, lifeRejoin, 1); len(rj) != 1 || rj[0].Error != "" || rj[0].Rejoin.Snapshot <= 0 {
				t.Errorf("peer 0 does not report peer 1's rejoin with the snapshot it sent: %+v", r.Peers[0].Events)
			}
			wantGroups(t, &r, []int{0, 1})
			for _, want := range []string{"SPLIT from peer 1", "SPLIT from peer 0", "this peer rejoined", "final checksums: all equal"} {
				if !strings.Contains(text, want) {
					t.Errorf("the report lacks %q:\n%s", want, text)
				}
			}
		})
	}
}

func TestSimLateJoin(t *testing.T) {
	t.Run("past the handshake timeout", func(t *testing.T) {
		for _, mode := range []string{"lockstep", "rollback"} {
			text, r := lifeRun(t, "-mode", mode, "-late", "1:20s", "-frames", "300", "-turns", "100")
			e := r.Peers[0].End
			if e == nil || e.How != endError || !strings.Contains(e.Error, "handshake") ||
				!strings.Contains(e.Error, "timed out") || e.Remote == nil || *e.Remote != 1 || e.Ms != 10000 {
				t.Errorf("%s: the waiting peer ended %+v, want the handshake timeout about peer 1 at 10 s", mode, e)
			}
			if r.Peers[1].FirstUpdateMs != 20000 {
				t.Errorf("%s: the late peer was first updated at %d ms, want 20000", mode, r.Peers[1].FirstUpdateMs)
			}
			wantGroups(t, &r)
			for _, want := range []string{"ERROR (about peer 1): endpoint: handshake with peer 0 timed out after 10s",
				"first updated (-late)", "no peer finished"} {
				if !strings.Contains(text, want) {
					t.Errorf("%s: the report lacks %q:\n%s", mode, want, text)
				}
			}
		}
	})
	t.Run("within the handshake timeout", func(t *testing.T) {
		_, r := lifeRun(t, "-mode", "rollback", "-peers", "3", "-late", "1:4s", "-frames", "300")
		for p := range 3 {
			wantEnd(t, &r, p, endFinished)
		}
		if c := events(&r, 0, lifeConnected, 1); len(c) != 1 || c[0].Ms < 4000 {
			t.Errorf("peer 0 connects to the late peer at %+v, want once after 4 s", c)
		}
		wantGroups(t, &r, []int{0, 1, 2})
	})
}

func TestSimLifeDeterministicAndQuiet(t *testing.T) {
	args := []string{"-mode", "both", "-peers", "3", "-blackout", "1s/1s", "-kill", "2:40", "-turns", "60", "-frames", "240"}
	if a, b := runSimArgs(t, args...), runSimArgs(t, args...); a != b {
		t.Errorf("two runs of the same script printed different reports:\n%s\n---\n%s", a, b)
	}
	// A match without a life-cycle event keeps the report it always had.
	quiet := []string{"-mode", "both", "-turns", "40", "-frames", "120", "-latency", "30ms", "-loss", "0"}
	text := runSimArgs(t, quiet...)
	js := runSimArgs(t, append(quiet, "-json")...)
	if strings.Contains(text, "life cycle") {
		t.Errorf("a quiet run lists its life cycle:\n%s", text)
	}
	for _, key := range []string{`"events"`, `"end"`, `"checksum_groups"`, `"first_update_ms"`} {
		if strings.Contains(js, key) {
			t.Errorf("a quiet run's JSON has %s", key)
		}
	}
}
