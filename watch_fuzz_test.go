package rollstep

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/transfer"
	"github.com/rollstep/rollstep/transport/sim"
)

// newWatcher returns a spectator of two players whose host is address 1,
// for feeding it by hand.
func newWatcher(t *testing.T) *Session[gState, gInput] {
	t.Helper()
	nw, _ := sim.New(sim.Config{})
	g := &gPeer{}
	cfg := Config{Mode: Rollback, Spectate: true, Players: 2, Peers: []Peer{{Addr: 1}}}
	cfg.Transport.Token = 7
	sp, err := NewSession[gState, gInput](cfg, core.GameFunc[gState, gInput](g.step), gState{}, nw.NewEndpoint())
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// FuzzSpectatorStream feeds a spectator arbitrary stream messages, as a
// hostile or broken host could send them (the wire codec has already
// bounded their sizes): it must never panic, never feed its engine past
// the horizon, and keep simulating.
func FuzzSpectatorStream(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 3, 1, 2, 3})
	f.Add([]byte{1, 5, 0, 0, 8, 9, 9, 9, 9, 9, 9, 9, 9, 0xff, 0xff})
	f.Add([]byte{0, 0, 0, 0, 64, 1, 1, 1, 1, 2, 2, 2, 2, 3, 0, 1, 0, 0, 0})
	// Runs of eight inputs from frame 0 for both players, which the
	// spectator plays: the seeds above carry no input (a zero count).
	f.Add([]byte{0, 0, 0, 8, 0, 1, 0, 1, 0, 2, 0, 2, 0, 3, 0, 3, 0, 4, 0, 4, 0,
		1, 0, 0, 8, 0, 1, 0, 1, 0, 2, 0, 2, 0, 3, 0, 3, 0, 4, 0, 4, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		sp := newWatcher(t)
		m := &engine.Message[engine.Slot[gInput]]{}
		for len(data) >= 5 && !sp.Ended() {
			p := core.PlayerHandle(data[0] % 3) // 2 is out of range
			start := core.Frame(int16(binary.LittleEndian.Uint16(data[1:])))
			n := int(data[3]) % 70
			mode := data[4]
			data = data[5:]
			vals := make([]engine.Slot[gInput], 0, n)
			for k := 0; k < n && len(data) >= 2; k++ {
				vals = append(vals, engine.Slot[gInput]{Value: gInput{uint32(binary.LittleEndian.Uint16(data))}})
				data = data[2:]
			}
			*m = engine.Message[engine.Slot[gInput]]{Inputs: []engine.InputRun[engine.Slot[gInput]]{{Player: p, Start: start, Values: vals}}}
			if mode&1 != 0 {
				m.Gone = 1 << (mode >> 1 & 1)
				m.Held[mode>>1&1] = core.Frame(mode >> 2)
			}
			_ = sp.rx.Receive(time.Duration(len(data)), 0, m)
			for q := range 2 {
				if sp.watch.next[q] > sp.eng.Frame()+watchHorizon {
					t.Fatalf("player %d fed to frame %d, past the horizon of frame %d", q, sp.watch.next[q], sp.eng.Frame())
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
	// An older record's offer first: the newer one starts over.
	f.Add(make([]byte, 64), transfer.AppendOffer(nil, transfer.Offer{ID: 1, Size: 1, RawSize: 1, ChunkSize: transfer.MinChunkSize}))
	// A real record, of a match 10 frames in, which the spectator loads.
	ec := engine.DefaultConfig()
	ec.Players, ec.Local, ec.Peers = 2, []core.PlayerHandle{0, 1}, nil
	e, err := engine.NewEngine[gState, gInput](ec, core.GameFunc[gState, gInput]((&gPeer{}).step), &gState{})
	if err != nil {
		f.Fatal(err)
	}
	for k := range 10 {
		_ = e.AddLocalInput(0, gInput{1})
		_ = e.AddLocalInput(1, gInput{2})
		e.Advance(time.Duration(k) * time.Millisecond)
	}
	_, rec, err := e.JoinRecord(nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(rec, []byte{})
	f.Fuzz(func(t *testing.T, rec, stray []byte) {
		sp := newWatcher(t)
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
		case sp.watch.join.Complete():
			if sp.Frame() < 1 {
				t.Fatalf("started from frame %d", sp.Frame())
			}
			for range 4 {
				sp.eng.Advance(0)
			}
		}
	})
}
