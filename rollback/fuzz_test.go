package rollback

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/probe"
	"github.com/rollstep/rollstep/internal/transfer"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/sim"
)

// FuzzSpectatorStream feeds a spectator arbitrary stream messages, as a
// hostile or broken host could send them (the wire codec has already
// bounded their sizes): it must never panic, never feed its engine past
// the horizon, and keep simulating.
func FuzzSpectatorStream(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 3, 1, 2, 3})
	f.Add([]byte{1, 5, 0, 0, 8, 9, 9, 9, 9, 9, 9, 9, 9, 0xff, 0xff})
	f.Add([]byte{0, 0, 0, 0, 64, 1, 1, 1, 1, 2, 2, 2, 2, 3, 0, 1, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		nw, _ := sim.New(sim.Config{})
		sp, err := NewSpectator[pair, uint16](SpectatorConfig{Host: 1, Transport: testConfig(2, 0, 1).Transport}, pairGame{leakAt: -1}, pair{}, nw.NewEndpoint())
		if err != nil {
			t.Fatal(err)
		}
		m := &engine.Message[engine.Slot[uint16]]{}
		for len(data) >= 5 && !sp.Ended() {
			p := core.PlayerHandle(data[0] % 3) // 2 is out of range
			start := core.Frame(int16(binary.LittleEndian.Uint16(data[1:])))
			n := int(data[3]) % 70
			mode := data[4]
			data = data[5:]
			vals := make([]engine.Slot[uint16], 0, n)
			for k := 0; k < n && len(data) >= 2; k++ {
				vals = append(vals, engine.Slot[uint16]{Value: binary.LittleEndian.Uint16(data)})
				data = data[2:]
			}
			*m = engine.Message[engine.Slot[uint16]]{Inputs: []engine.InputRun[engine.Slot[uint16]]{{Player: p, Start: start, Values: vals}}}
			if mode&1 != 0 {
				m.Gone = 1 << (mode >> 1 & 1)
				m.Held[mode>>1&1] = core.Frame(mode >> 2)
			}
			_ = sp.rx.Receive(time.Duration(len(data)), 0, m)
			for q := range 2 {
				if sp.next[q] > sp.eng.Frame()+sp.horizon {
					t.Fatalf("player %d fed to frame %d, past the horizon of frame %d", q, sp.next[q], sp.eng.Frame())
				}
			}
			for range 4 {
				if !sp.eng.Advance(0).Stepped {
					break
				}
			}
		}
	})
}

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

// FuzzSpectatorJoinRecord is a hostile host's join record: arbitrary
// bytes, compressed and sent as the host would (an offer, then chunks in
// any order, some twice), and arbitrary Transfer payloads besides. The
// spectator must never panic; it either starts from the record (at a
// frame past 0, and keeps simulating) or ends its stream with an error,
// or is still waiting.
func FuzzSpectatorJoinRecord(f *testing.F) {
	f.Add([]byte{1, 2, 10, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0}, []byte{transfer.KindOffer})
	f.Add([]byte{}, []byte{transfer.KindChunk, 0, 0, 0, 0, 0, 0})
	f.Add(make([]byte, 64), []byte{transfer.KindAck, 1})
	f.Fuzz(func(t *testing.T, rec, stray []byte) {
		nw, _ := sim.New(sim.Config{})
		sp, err := NewSpectator[pair, uint16](SpectatorConfig{Host: 1, Transport: testConfig(2, 0, 1).Transport}, pairGame{leakAt: -1}, pair{}, nw.NewEndpoint())
		if err != nil {
			t.Fatal(err)
		}
		blob := transfer.Compress(rec)
		o := transfer.Offer{ID: 3, Size: len(blob), RawSize: len(rec), ChunkSize: transfer.MinChunkSize}
		if len(stray) > 0 {
			sp.rx.ReceiveTransfer(0, 0, stray)
		}
		sp.rx.ReceiveTransfer(0, 0, transfer.AppendOffer(nil, o))
		for i := o.Chunks() - 1; i >= 0; i-- { // backwards, and the last one twice
			end := min((i+1)*o.ChunkSize, len(blob))
			c := transfer.Chunk{ID: o.ID, Index: uint32(i), Data: blob[i*o.ChunkSize : end]}
			sp.rx.ReceiveTransfer(0, 0, transfer.AppendChunk(nil, c))
			if i == o.Chunks()-1 {
				sp.rx.ReceiveTransfer(0, 0, transfer.AppendChunk(nil, c))
			}
		}
		switch {
		case sp.Ended():
			ev := sp.Events()
			if l, ok := ev[len(ev)-1].(core.PeerLostEvent); !ok || l.Err == nil {
				t.Fatalf("ended with %v, want a PeerLostEvent with the record's error", ev)
			}
		case sp.loaded:
			if sp.Frame() < 1 {
				t.Fatalf("started from frame %d", sp.Frame())
			}
			for range 4 {
				sp.eng.Advance(0)
			}
		}
	})
}
