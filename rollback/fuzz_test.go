package rollback

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/rollstep/rollstep/internal/probe"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/sim"
)

// FuzzSpectatorAcks is the host's side of a stream: a hostile spectator
// (which holds its own direction's key, so its packets pass the tag)
// acknowledges arbitrary frames, backwards, far ahead or negative,
// between the host's updates. The host must never panic, play exactly the
// frames it plays without the forged acknowledgements (the network is
// simulated and seeded), hold the acknowledgement within the confirmed
// inputs it has logged (a spectator cannot hold a frame it was never
// sent), and never lose a peer.
func FuzzSpectatorAcks(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 10, 0, 0, 0})
	f.Add([]byte{0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0x80, 5, 0, 0, 0})
	f.Add([]byte{40, 0, 0, 0, 39, 0, 0, 0, 38, 0, 0, 0, 200, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		var frames [2]core.Frame
		for run, forge := range []bool{false, true} {
			m, w := newWatched(t, 5, sim.LinkConfig{}, streamOpts{})
			w.run(t, m, 500*time.Millisecond)
			host := m.nodes[0].s
			for k := 0; k+4 <= len(data) && k < 4*64; k += 4 {
				ack := core.Frame(int32(binary.LittleEndian.Uint32(data[k:])))
				if forge {
					probe.StreamReceive(host, 0, ack)
				}
				w.run(t, m, m.render)
				st := host.Stats().Spectators[0]
				if _, end := host.LogRange(); st.Acked > end || st.Acked < 0 {
					t.Fatalf("ack %d: the host holds %d acknowledged, outside the frames it logged (up to %d)", ack, st.Acked, end)
				}
			}
			frames[run] = host.Frame()
			for i := range 2 {
				if n := m.count(i, isType[core.PeerLostEvent]); n != 0 {
					t.Fatalf("node %d lost a peer", i)
				}
			}
		}
		if frames[0] != frames[1] {
			t.Fatalf("the host played to frame %d under forged acknowledgements, %d without", frames[1], frames[0])
		}
	})
}
