package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
)

// Scenario: a partial partition. Peers b and c lose each other and time
// each other out while every other peer hears both. Whichever declaration
// reaches the others first, every peer that hears both keeps the peer with
// the lower player handle, drops the other at one agreed frame, and the
// survivors end in the same state.
func TestScenarioPartialPartition(t *testing.T) {
	for _, tc := range []struct{ n, b, c int }{
		{4, 1, 2}, // hearers 0 and 3: one below the pair, one above
		{4, 3, 0}, // hearers 1 and 2, between
		{3, 2, 1}, // one hearer, below
	} {
		for _, first := range []string{"b", "c"} {
			t.Run(fmt.Sprintf("%dpeers/%d-%d/%s-first", tc.n, tc.b, tc.c, first), func(t *testing.T) {
				partialPartition(t, tc.n, tc.b, tc.c, first == "b")
			})
		}
	}
}

func partialPartition(t *testing.T, n, b, c int, bFirst bool) {
	const end = 400
	h := newHarness(t, n, 29, end, func(i int, cfg *Config) {
		cfg.InputDelay, cfg.Prediction = 1, 8
	})
	h.setLinks(link{latency: 30 * time.Millisecond, jitter: 20 * time.Millisecond, loss: 20})
	first, second := b, c
	if !bFirst {
		first, second = c, b
	}
	// The declarations are 20 ticks (320 ms) apart, far more than a one-way
	// trip, so every hearer gets the first one first.
	cut, tick := -1, 0
	dropped := -1
	h.onTick = func(h *harness) {
		tick++
		if cut < 0 && h.nodes[0].eng.Frame() >= 120 {
			cut = tick
			h.links[b][c].loss, h.links[c][b].loss = 1000, 1000
		}
		if cut < 0 {
			return
		}
		declare := func(by, gone int) {
			nd := h.nodes[by]
			if err := nd.eng.DisconnectPeer(nd.peerID[gone]); err != nil {
				t.Fatal(err)
			}
		}
		switch tick {
		case cut + 10:
			declare(first, second)
		case cut + 30:
			declare(second, first)
		}
		// Once every other peer agreed to drop b or c, that peer is cut
		// off from the match: it stops.
		if dropped >= 0 {
			return
		}
		for _, p := range []int{b, c} {
			all := true
			for i, nd := range h.nodes {
				if i == b || i == c {
					continue
				}
				if _, ok := nd.eng.Disconnected(core.PlayerHandle(p)); !ok {
					all = false
				}
			}
			if all {
				dropped = p
				h.nodes[p].down = true
				return
			}
		}
	}
	h.run(100000)
	if want := max(b, c); dropped != want {
		t.Fatalf("the peers that hear both dropped player %d, want %d (the higher handle)", dropped, want)
	}
	h.checkAgreement()
	var frames []core.Frame
	for i, nd := range h.nodes {
		if nd.down {
			continue
		}
		var got []core.DisconnectEvent
		for _, ev := range nd.events {
			if d, ok := ev.(core.DisconnectEvent); ok {
				got = append(got, d)
			}
		}
		if len(got) != 1 || got[0].Player != core.PlayerHandle(dropped) {
			t.Fatalf("node %d: disconnect events %+v, want one for player %d", i, got, dropped)
		}
		frames = append(frames, got[0].Frame)
		if nd.eng.State().Gone != 1<<dropped {
			t.Fatalf("node %d: the game saw players %#b disconnected, want only %d", i, nd.eng.State().Gone, dropped)
		}
	}
	for i, f := range frames {
		if f != frames[0] {
			t.Fatalf("survivors disagree on the disconnect frame: %v (survivor %d)", frames, i)
		}
	}
}
