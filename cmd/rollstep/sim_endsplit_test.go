package main

import (
	"strings"
	"testing"
)

// A latency spike of 3 s, longer than the disconnect timeout, begins 2.5
// s before the end of the match (and another before that, with a crash):
// every peer loses the others and plays the last frames alone. In
// rollback each finds the split at the last frame and reports it before
// its end, which waited for it; in auto the higher peers yield to peer 0,
// which ends the match before they can take its state: they give the
// yield up and end on their own side. Every peer finishes, and the
// report says the match ended split. Before, the peers of rollback ended
// at once without a word of the split, and those of auto failed their
// rejoin after its 30 s timeout.
func TestSimSplitAtTheEnd(t *testing.T) {
	for _, mode := range []string{"rollback", "auto"} {
		t.Run(mode, func(t *testing.T) {
			text, r := lifeRun(t, "-mode", mode, "-peers", "3", "-seed", "211", "-spike", "3s/4s/15s", "-crash", "1:200:1s")
			for p := range 3 {
				wantEnd(t, &r, p, endFinished)
				for q := range 3 {
					if q != p && len(events(&r, p, lifeSplit, q))+len(events(&r, q, lifeSplit, p)) == 0 {
						t.Errorf("neither of peers %d and %d reports their split", p, q)
					}
				}
			}
			if len(r.ChecksumGroups) != 3 || !r.EndedApart {
				t.Errorf("groups %+v, ended apart %v: want 3 groups, apart", r.ChecksumGroups, r.EndedApart)
			}
			if !strings.Contains(text, "the match ended split") {
				t.Errorf("the report does not say the match ended split:\n%s", text)
			}
			if mode == "auto" {
				if rj := events(&r, 1, lifeRejoin, 1); len(rj) == 0 || !strings.Contains(rj[len(rj)-1].Error, "rejoin failed") {
					t.Errorf("peer 1 does not report the yield it gave up: %+v", rj)
				}
			}
		})
	}
}

// One-way outages (-cut): the link from peer 1 to peer 0 failing for 4 s
// heals to one match (peer 1 learns from peer 0's probes that it was
// dropped and rejoins); the link from peer 2 to peer 1 failing for 30 s
// in lockstep, where peer 1 outranks peer 2 and peer 0 hears both, ends
// with every peer finished: peers 0 and 1 play on, peer 2 comes back
// through peer 0 and is dropped again by peer 1, which cannot hear it,
// later each time, and the match ends two seconds after the link heals,
// with peer 2 apart, reported. A probe's word that its sender dropped the
// receiver is not acted on by a peer outranked by the sender and on the
// side not to yield: acting on it there (peer 2 dropping peer 1, whose
// own drop of peer 2 the others adopt) froze the match.
func TestSimOneWayCut(t *testing.T) {
	for _, tc := range []struct {
		args []string
		one  bool // the match heals to one checksum group
	}{
		{[]string{"-mode", "rollback", "-peers", "3", "-seed", "701", "-cut", "1:0:4s/4s"}, true},
		{[]string{"-mode", "lockstep", "-peers", "3", "-seed", "701", "-cut", "2:1:3s/30s"}, false},
		{[]string{"-mode", "auto", "-peers", "2", "-seed", "701", "-cut", "1:0:3s/40s"}, false},
		// A partial partition lasting the match: peer 2's last yield is
		// given up when the others end it, and it plays on apart on the
		// engine of its previous return, whose inputs before its return
		// frame are dropped, not queued (they filled the queue: peer 2
		// failed with ErrQueueFull).
		{[]string{"-mode", "auto", "-peers", "4", "-seed", "701", "-cut", "1:2:3s/30s", "-cut", "2:1:3s/30s"}, false},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, r := lifeRun(t, tc.args...)
			for p := range r.Peers {
				wantEnd(t, &r, p, endFinished)
			}
			if tc.one && !r.FinalChecksumsEqual {
				t.Errorf("groups %+v, want one", r.ChecksumGroups)
			}
			if !tc.one && !r.EndedApart {
				t.Errorf("groups %+v, ended apart %v: want apart, reported", r.ChecksumGroups, r.EndedApart)
			}
		})
	}
}

// An 8-peer match splits in a 4 s blackout; peer 0 sponsors the yielded
// peers one at a time. The others agree to drop the one whose handoff is
// under way (its new process was silent while it came back); its
// sponsorship must end there, freeing peer 0 for the next. Before, it
// waited for its 30 s timeout, past the end of the match, and the five
// peers still waiting ended apart (7 checksum groups); now every peer but
// the dropped one heals.
func TestSimSponsorFreedByAnAgreedDrop(t *testing.T) {
	_, r := lifeRun(t, "-mode", "rollback", "-peers", "8", "-seed", "605", "-loss", "0.05", "-blackout", "3s/4s", "-crash", "1:100:1s")
	largest := 0
	for _, g := range r.ChecksumGroups {
		largest = max(largest, len(g.Peers))
	}
	for p := range r.Peers {
		wantEnd(t, &r, p, endFinished)
	}
	if largest < 7 {
		t.Errorf("checksum groups %+v: want 7 peers or more in one", r.ChecksumGroups)
	}
}

// TestSimRejoinsHeal: runs whose rejoins once ended the match in two
// groups; each now heals to one match that every peer finishes.
//
//   - unstick: a blackout in a match of five whose lowest peer's process
//     restarts: rejoins follow one another for seconds, and agreements
//     wait for them. A session that starts over because it waited for an
//     agreement (unstick) must not do so while it sponsors a rejoin or a
//     peer's session with it starts over: peer 1, the lowest survivor,
//     did while peer 0's new process waited for it, and nobody brought
//     either back (their rejoins timed out after 30 s).
//   - return before handshake: after a blackout, peer 2 is cut from peer
//     1 one way while the match brings it back; dropped again, it yields
//     and starts over as a new process, which the others bring back while
//     peer 1 still has the old session lost. Peer 1 takes the return on
//     that session (resumeReturned), and the new process's handshake with
//     peer 1, which comes after it, is the same process, not a new crash:
//     peer 1 used to drop it at once.
//   - stale restart: the same script in a lockstep match of 8. Peer 1
//     holds a restart of peer 2 that peer 2 gave up (it talks to peer 1 on
//     its old session again), so peer 1 could not take peer 2's return on
//     that session: it dropped the returned peer as unheard and peer 2
//     yielded again. A restart silent for a handshake timeout no longer
//     holds the old session.
func TestSimRejoinsHeal(t *testing.T) {
	for name, args := range map[string]string{
		"unstick":                 "-mode lockstep -peers 5 -seed 811 -ticks-per-turn 2 -delay 10 -crash 0:80:1s -blackout 3s/3s",
		"return-before-handshake": "-mode auto -peers 6 -seed 953 -blackout 4s/3s -cut 2:1:9s/4s",
		"stale-restart":           "-mode lockstep -peers 8 -seed 952 -blackout 4s/3s -cut 2:1:9s/4s",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, r := lifeRun(t, strings.Fields(args)...)
			for p := range r.Peers {
				wantEnd(t, &r, p, endFinished)
			}
			wantOneMatch(t, &r)
		})
	}
}

// wantOneMatch fails unless the run ended as one match: no desync and one
// checksum group among the peers that finished.
func wantOneMatch(t *testing.T, r *simReport) {
	t.Helper()
	if len(r.Desyncs) > 0 || len(r.ChecksumGroups) > 1 || !r.FinalChecksumsEqual {
		t.Errorf("%s: %d desyncs, checksum groups %+v, want one match", r.Mode, len(r.Desyncs), r.ChecksumGroups)
	}
}
