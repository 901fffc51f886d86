package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rollstep/rollstep/internal/testenv"
)

// lifeScans are life-cycle scripts that once split or froze a match, or
// that combine what did: crashes and restarts, blackouts, one-way cuts of
// a peer that just came back, loss, duplication and reordering. Each runs
// in every mode for each peer count and seed.
var lifeScans = []struct {
	peers []int
	seeds []int
	args  string
}{
	{[]int{6, 8}, []int{951, 952, 953, 954}, "-blackout 4s/3s -cut 2:1:9s/4s"},
	{[]int{6, 8}, []int{951, 952}, "-cut 1:2:4s/4s -cut 4:3:6s/5s"},
	{[]int{6, 8}, []int{951, 952}, "-crash 1:150:1s -cut 2:0:8s/4s -loss 0.03"},
	{[]int{6, 8}, []int{951, 952}, "-cut 0:1:5s/4s -dup 0.1 -reorder 0.1"},
	{[]int{6, 8}, []int{951, 952}, "-blackout 3s/2s -cut 3:2:7s/3s -cut 2:3:7s/3s"},
	{[]int{6, 8}, []int{951, 952}, "-cut 1:0:4s/3s -cut 2:0:4s/3s -cut 3:0:4s/3s -cut 4:0:4s/3s"},
	{[]int{3, 5}, []int{811, 812}, "-crash 0:80:1s -blackout 3s/3s"},
	{[]int{3, 5}, []int{811, 812}, "-crash 1:100:500ms -crash 2:120:2s"},
	{[]int{3, 5}, []int{811, 812}, "-blackout 2s/3s -blackout 9s/3s"},
	{[]int{3, 5}, []int{811, 812}, "-kill 1:100 -crash 2:150:1s"},
	{[]int{3, 4}, []int{701, 702}, "-cut 2:1:17s/4s -cut 1:0:18s/3s"},
	{[]int{3, 4}, []int{701, 702}, "-leave 1:250 -cut 2:0:4s/6s"},
}

// TestSimLifeCycleScan runs lifeScans (under ROLLSTEP_SOAK=1, CI's soak
// step: 156 matches). Every match must end as one: no desync, one checksum
// group, and every peer that did not leave or die finished it.
func TestSimLifeCycleScan(t *testing.T) {
	if !testenv.Soak() {
		t.Skip("the life-cycle scan runs with ROLLSTEP_SOAK=1")
	}
	for _, sc := range lifeScans {
		for _, mode := range []string{"lockstep", "rollback", "auto"} {
			for _, n := range sc.peers {
				for _, seed := range sc.seeds {
					args := append([]string{"-mode", mode, "-peers", fmt.Sprint(n), "-seed", fmt.Sprint(seed)}, strings.Fields(sc.args)...)
					t.Run(strings.Join(args, " "), func(t *testing.T) {
						t.Parallel()
						_, r := lifeRun(t, args...)
						wantOneMatch(t, &r)
						for p, pr := range r.Peers {
							if e := pr.End; e != nil && e.How != endFinished && e.How != endLeft && e.How != endKilled {
								t.Errorf("peer %d ended %+v", p, e)
							}
						}
					})
				}
			}
		}
	}
}
