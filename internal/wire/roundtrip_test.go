package wire

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/arena"
	"github.com/rollstep/rollstep/internal/engine"
)

func testInputRoundTrip[I comparable](t *testing.T, g gen[I]) {
	c, err := NewCodec[I]()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, uint64(c.InputSize())))
	var got engine.Message[I]
	var buf []byte
	for i := range 3000 {
		m := randMessage(r, g, 1+r.IntN(core.MaxPlayers), 1+r.IntN(20))
		if c.InputSize() > 8 {
			m.Inputs = m.Inputs[:min(len(m.Inputs), 2)]
		}
		seq := r.Uint64() >> uint(r.IntN(64))
		var fit Fit
		buf, fit, err = c.AppendInput(buf[:0], testKey, seq, m)
		if err != nil {
			t.Fatalf("message %d: AppendInput: %v", i, err)
		}
		if !fit.Complete() {
			t.Fatalf("message %d: %d bytes, fit %+v, want complete", i, len(buf), fit)
		}
		// The receiver's newest accepted number is anywhere within
		// 32767 below and 32768 above seq.
		var w ReplayWindow
		newest := seq + uint64(int64(r.IntN(1<<16))-32768)
		if i%7 == 0 || (newest > seq) != (newest-seq < 1<<15) {
			newest = seq // no neighbour on one side of 0 or 2^64-1
		}
		_ = w.Accept(newest)
		h, err := c.DecodeInput(buf, testKey, &w, &got)
		if err != nil {
			t.Fatalf("message %d: DecodeInput: %v", i, err)
		}
		if h.Type != TypeInput || h.Seq != seq {
			t.Fatalf("message %d: header %+v, want input seq %d", i, h, seq)
		}
		if d := diffMessage(&got, m, seq); d != "" {
			t.Fatalf("message %d: round trip differs:\n%s", i, d)
		}
	}
}

func TestInputRoundTrip(t *testing.T) {
	t.Run("2-byte", func(t *testing.T) { testInputRoundTrip(t, gen2) })
	t.Run("bool", func(t *testing.T) { testInputRoundTrip(t, genBool) })
	t.Run("64-byte", func(t *testing.T) { testInputRoundTrip(t, gen64) })
	t.Run("11-byte", func(t *testing.T) { testInputRoundTrip(t, gen11) })
}

// TestSlotRoundTrip: runs of core.Slot values, as engines send them,
// round-trip with commands, fills and step reports in their control
// words, and a run whose control words never change costs exactly what
// the bare inputs cost: the slot literal spends nothing on an unchanged
// control word.
func TestSlotRoundTrip(t *testing.T) {
	slots, err := NewCodec[engine.Slot[uint16]]()
	if err != nil {
		t.Fatal(err)
	}
	bare, err := NewCodec[uint16]()
	if err != nil {
		t.Fatal(err)
	}
	vals := []uint16{1, 1, 5, 5, 4, 4, 0, 0, 0, 7, 0x1234, 0x1234}
	msg := func(ctl func(k int) engine.Control) *engine.Message[engine.Slot[uint16]] {
		m := &engine.Message[engine.Slot[uint16]]{Frame: 100, NoStamp: true}
		m.Held[0] = 100
		run := engine.InputRun[engine.Slot[uint16]]{Player: 0, Start: 100 - core.Frame(len(vals))}
		for k, v := range vals {
			run.Values = append(run.Values, engine.Slot[uint16]{Control: ctl(k), Value: v})
		}
		m.Inputs = append(m.Inputs, run)
		return m
	}
	plain := &engine.Message[uint16]{Frame: 100, NoStamp: true}
	plain.Held[0] = 100
	plain.Inputs = []engine.InputRun[uint16]{{Player: 0, Start: 100 - core.Frame(len(vals)), Values: vals}}
	pb, _, err := bare.AppendInput(nil, testKey, 7, plain)
	if err != nil {
		t.Fatal(err)
	}
	zero := msg(func(int) engine.Control { return engine.Control{} })
	ps, _, err := slots.AppendInput(nil, testKey, 7, zero)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != len(pb) {
		t.Errorf("slots with zero control words: %d bytes, bare inputs %d", len(ps), len(pb))
	}
	// Control words that change alone (on a repeated value), together with
	// the value, and back: every one survives the round trip.
	var ctls []engine.Control // from raw bytes: a command, a fill, a step report, none
	for _, b := range [][8]byte{{0, 1}, {0, 1}, {1}, {0, 3, 0xc8, 0}, {0, 0, 0, 0, 0x10, 0x27}, {}} {
		var c engine.Control
		if err := arena.DecodeRaw(b[:], &c); err != nil {
			t.Fatal(err)
		}
		ctls = append(ctls, c)
	}
	for _, m := range []*engine.Message[engine.Slot[uint16]]{zero, msg(func(k int) engine.Control { return ctls[k%len(ctls)] })} {
		p, _, err := slots.AppendInput(nil, testKey, 7, m)
		if err != nil {
			t.Fatal(err)
		}
		var out engine.Message[engine.Slot[uint16]]
		if _, err := slots.DecodeInput(p, testKey, nil, &out); err != nil {
			t.Fatalf("decode: %v", err)
		}
		if len(out.Inputs) != 1 || !slices.Equal(out.Inputs[0].Values, m.Inputs[0].Values) {
			t.Fatalf("round trip: got %+v, want %+v", out.Inputs, m.Inputs)
		}
	}
}
