package rollstep

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/transport/sim"
)

// TestMixedModesInOneMatch: every mode speaks one protocol, so a Rollback
// peer, a Lockstep peer and an Auto peer play one match, here over links
// of 60 ms ± 10 ms with 10 % loss each way. Every frame confirmed by all
// three agrees for 3,000 frames, the Rollback peer predicts (W > 0), the
// Lockstep peer never does, and no peer is lost. Before the inputs of
// every mode were core.Slot values, the Lockstep family's envelope made
// the handshake refuse the Rollback peer (InputSize).
func TestMixedModesInOneMatch(t *testing.T) {
	net, err := sim.New(sim.Config{Seed: 8, Link: sim.LinkConfig{Latency: sim.Latency{Base: 60 * ms, Jitter: 10 * ms}, Loss: 0.1}})
	if err != nil {
		t.Fatal(err)
	}
	modes := []Mode{Rollback, Lockstep, Auto}
	peers := newPeersN(t, net, 3, Config{TickRate: 60}, func(i int, c *Config) {
		c.Mode = modes[i]
		c.HoldInputs = modes[i] != Rollback
	})
	var now time.Duration
	for now < 120*time.Second && agreedEnd(peers) < 3000 {
		play(t, net, peers, &now, now+time.Second, 4*ms)
	}
	f := agree(t, peers)
	t.Logf("%d frames confirmed by all in %v; largest W: %d %d %d", f, now, peers[0].maxW, peers[1].maxW, peers[2].maxW)
	if f < 3000 {
		t.Fatalf("only %d frames confirmed in %v", f, now)
	}
	if peers[0].maxW == 0 || peers[1].maxW != 0 {
		t.Fatalf("largest W: rollback peer %d, lockstep peer %d; want > 0 and 0", peers[0].maxW, peers[1].maxW)
	}
	for i, p := range peers {
		for _, ps := range p.sess.Stats().Engine.Peers {
			if !ps.Connected {
				t.Fatalf("peer %d lost a peer: %+v", i, ps)
			}
		}
	}
}

// agreedEnd is the end of the frames every peer has confirmed.
func agreedEnd(peers []*gPeer) int {
	end := 1 << 30
	for _, p := range peers {
		end = min(end, int(p.sess.Stats().Engine.ConfirmedEnd))
	}
	return end
}
