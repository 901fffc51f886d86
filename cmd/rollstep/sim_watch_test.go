package main

import (
	"io"
	"strings"
	"testing"
)

// -watch: spectators of a peer that crashes and of one that does not
// both play the last frame on the peers' checksum; the crashed peer's
// spectator starts its replay over from its new process's join record.
func TestSimWatch(t *testing.T) {
	for _, mode := range []string{"rollback", "lockstep", "auto"} {
		t.Run(mode, func(t *testing.T) {
			text, r := lifeRun(t, "-mode", mode, "-peers", "3", "-loss", "0.05", "-crash", "1:150:1s", "-frames", "600", "-turns", "300",
				"-watch", "1", "-watch", "2")
			if len(r.Spectators) != 2 {
				t.Fatalf("spectators %+v", r.Spectators)
			}
			for k, host := range []int{1, 2} {
				sp := r.Spectators[k]
				if sp.Host != host || sp.End != "" || sp.FinalChecksum != r.Peers[0].FinalChecksum {
					t.Errorf("spectator %d: %+v, peers' checksum %s", k, sp, r.Peers[0].FinalChecksum)
				}
			}
			if r.Spectators[0].StartedOver != 1 || r.Spectators[1].StartedOver != 0 {
				t.Errorf("replays started over: %+v", r.Spectators)
			}
			if !r.FinalChecksumsEqual {
				t.Error("final checksums not equal")
			}
			for _, want := range []string{"spectator of peer 1: played the last", "its replay started over once", "spectator of peer 2: played the last"} {
				if !strings.Contains(text, want) {
					t.Errorf("the report lacks %q:\n%s", want, text)
				}
			}
		})
	}
}

// A spectator whose host is killed reports how its stream ended and is
// not compared.
func TestSimWatchHostKilled(t *testing.T) {
	text, r := lifeRun(t, "-mode", "rollback", "-peers", "3", "-kill", "1:150", "-frames", "600", "-watch", "1")
	if len(r.Spectators) != 1 || r.Spectators[0].End != "the host was lost" || r.Spectators[0].FinalChecksum != "missing" {
		t.Fatalf("spectators %+v", r.Spectators)
	}
	if !r.FinalChecksumsEqual || !strings.Contains(text, "spectator of peer 1: stream ended at frame") {
		t.Errorf("equal %v, report:\n%s", r.FinalChecksumsEqual, text)
	}
}

func TestSimWatchFlags(t *testing.T) {
	o, err := parseSimFlags([]string{"-peers", "3", "-watch", "2", "-watch", "0"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(o.watch) != 2 || o.watch[0] != 2 || o.watch[1] != 0 {
		t.Errorf("watch %v", o.watch)
	}
	for _, args := range [][]string{{"-watch", "3"}, {"-watch", "-1"}, {"-watch", "x"}} {
		if _, err := parseSimFlags(append([]string{"-peers", "3"}, args...), io.Discard); err == nil || !strings.Contains(err.Error(), "-watch") {
			t.Errorf("%v: %v, want an error naming -watch", args, err)
		}
	}
}

// Spectators through a 3 s blackout of 8 peers, in which every peer but
// player 0's yields and comes back one at a time, and player 1 crashes
// after its return: every spectator plays the last turn on the peers'
// checksum. Found by a -watch scan: the spectator of peer 2 heard of
// player 1's disconnect in the message whose slots settled other players'
// returns; its engine then waited for their votes on it, which never
// came, and stalled.
func TestSimWatchThroughReturnsAndACrash(t *testing.T) {
	_, r := lifeRun(t, "-mode", "lockstep", "-peers", "8", "-seed", "235", "-loss", "0.05", "-blackout", "3s/4s", "-crash", "1:100:1s",
		"-watch", "0", "-watch", "1", "-watch", "2")
	for _, sp := range r.Spectators {
		if sp.End != "" || sp.FinalChecksum != r.Peers[0].FinalChecksum {
			t.Errorf("spectator %+v, peers' checksum %s", sp, r.Peers[0].FinalChecksum)
		}
	}
	if !r.FinalChecksumsEqual {
		t.Error("final checksums not equal")
	}
}
