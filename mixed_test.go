package rollstep

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/testenv"
	"github.com/rollstep/rollstep/transport"
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
		c.Inputs = Held
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
		for _, ps := range p.sess.Stats().Peers {
			if ps.State != transport.StateConnected {
				t.Fatalf("peer %d lost a peer: %+v", i, ps)
			}
		}
	}
}

// agreedEnd is the end of the frames every peer has confirmed.
func agreedEnd(peers []*gPeer) int {
	end := 1 << 30
	for _, p := range peers {
		f, _ := p.sess.ConfirmedFrame() // -1 before frame 0 is
		end = min(end, int(f)+1)
	}
	return end
}

// TestMixedModesUnderCommands: two Rollback peers, a Lockstep peer and an
// Auto peer over a bad network (60 ms ± 20 ms, 15 % loss, 5 %
// duplication, 10 % reordering) while their players keep pausing,
// resuming and changing the game speed, each from its own peer: every
// checksum of a confirmed frame agrees (the checksum covers the pause and
// speed state too), for 3,000 frames (30,000 under ROLLSTEP_SOAK=1).
func TestMixedModesUnderCommands(t *testing.T) {
	net, err := sim.New(sim.Config{Seed: 11, Link: sim.LinkConfig{Latency: sim.Latency{Base: 60 * ms, Jitter: 20 * ms},
		Loss: 0.15, Duplicate: 0.05, Reorder: 0.1, ReorderDelay: 30 * ms}})
	if err != nil {
		t.Fatal(err)
	}
	modes := []Mode{Rollback, Lockstep, Auto, Rollback}
	peers := newPeersN(t, net, 4, Config{TickRate: 60}, func(i int, c *Config) {
		c.Mode = modes[i]
		c.Inputs = Held
	})
	frames := testenv.Pick(3000, 30000)
	var now time.Duration
	pauses := 0
	for k := 0; now < time.Duration(frames/10)*time.Second && agreedEnd(peers) < frames; k++ {
		play(t, net, peers, &now, now+time.Second, 4*ms)
		j := k % len(peers)
		var err error
		switch k % 7 {
		case 0:
			err = peers[j].sess.Pause(core.PlayerHandle(j))
		case 3:
			err = peers[j].sess.Resume(core.PlayerHandle(j))
		case 5:
			err = peers[j].sess.SetSpeed(core.PlayerHandle(j), 50+37*k%250)
		}
		if err != nil {
			t.Fatalf("peer %d: %v", j, err)
		}
		if peers[0].sess.Stats().Paused {
			pauses++
		}
	}
	t.Logf("%d frames confirmed by all in %v, paused at %d of the checks", agreedEnd(peers), now, pauses)
	if agreedEnd(peers) < frames {
		t.Fatalf("only %d frames confirmed in %v", agreedEnd(peers), now)
	}
	if pauses == 0 {
		t.Fatal("never paused: the test proves nothing")
	}
	for i, p := range peers {
		st := p.sess.Stats()
		if st.Desyncs != 0 || st.Checksums == 0 {
			t.Fatalf("peer %d: %d desyncs in %d checksums", i, st.Desyncs, st.Checksums)
		}
	}
}
