package engine

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
)

// Scenario 9: a disconnect seen by peers at different times is applied at
// the same frame everywhere.
func TestScenarioDisconnectAgreed(t *testing.T) {
	for _, tc := range []struct {
		name   string
		n      int
		w      int
		notice []int // ticks after the crash at which node i notices; -1: only via gossip
		relay  bool  // some node held fewer inputs than the agreed frame (seeded)
	}{
		{"3peers/W8", 3, 8, []int{10, 45}, true},
		{"3peers/W0/gossip", 3, 0, []int{20, -1}, false},
		{"4peers/W8", 4, 8, []int{5, 30, 70}, true},
		{"4peers/W2/gossip", 4, 2, []int{40, -1, 12}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const end = 500
			h := newHarness(t, tc.n, 17, end, func(i int, c *Config) {
				c.InputDelay, c.Prediction = 1, tc.w
			})
			h.setLinks(link{latency: 30 * time.Millisecond, jitter: 50 * time.Millisecond, loss: 200})
			crashed := tc.n - 1
			crashTick := -1
			tick := 0
			var heldAtCrash []core.Frame
			h.onTick = func(h *harness) {
				tick++
				if crashTick < 0 && h.nodes[0].eng.Frame() >= 150 {
					crashTick = tick
					h.nodes[crashed].down = true
					for _, nd := range h.nodes[:crashed] {
						heldAtCrash = append(heldAtCrash, nd.eng.next[crashed])
					}
				}
				if crashTick < 0 {
					return
				}
				for i, at := range tc.notice {
					if at >= 0 && tick == crashTick+at {
						nd := h.nodes[i]
						if err := nd.eng.DisconnectPeer(nd.peerID[crashed]); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			h.run(100000)
			h.checkAgreement()
			var agreed []core.Frame
			for i, nd := range h.nodes[:crashed] {
				var got []core.DisconnectEvent
				for _, ev := range nd.events {
					if d, ok := ev.(core.DisconnectEvent); ok {
						got = append(got, d)
					}
				}
				if len(got) != 1 || got[0].Player != core.PlayerHandle(crashed) {
					t.Fatalf("node %d: disconnect events %+v", i, got)
				}
				agreed = append(agreed, got[0].Frame)
				if nd.eng.State().Gone != 1<<crashed {
					t.Fatalf("node %d: the game never saw player %d disconnected", i, crashed)
				}
			}
			for i, f := range agreed {
				if f != agreed[0] {
					t.Fatalf("disconnect frames differ: %v (node %d)", agreed, i)
				}
			}
			relayed := false
			for _, held := range heldAtCrash {
				if held < agreed[0] {
					relayed = true // this node got the missing inputs relayed
				}
			}
			if relayed != tc.relay {
				t.Fatalf("relayed %v, want %v (held at the crash %v, agreed %d)", relayed, tc.relay, heldAtCrash, agreed[0])
			}
		})
	}
}
