package wire

import (
	"math/rand/v2"
	"testing"

	"github.com/rollstep/rollstep/core"
)

func testInputRoundTrip[I comparable](t *testing.T, g gen[I]) {
	c, err := NewCodec[I]()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, uint64(c.InputSize())))
	var got core.Message[I]
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
