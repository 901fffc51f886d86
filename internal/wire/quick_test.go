package wire

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/arena"
	"github.com/rollstep/rollstep/internal/engine"
)

// slotGen wraps g for core.Slot values whose control word changes once in
// about every 16 values, as commands and step reports do.
func slotGen[I comparable](t *testing.T, g gen[I]) gen[engine.Slot[I]] {
	var ctl engine.Control
	if err := arena.DecodeRaw([]byte{0, 3, 0xc8, 0, 0, 0, 0, 0}, &ctl); err != nil {
		t.Fatal(err)
	}
	return func(r *rand.Rand, prev engine.Slot[I]) engine.Slot[I] {
		v := engine.Slot[I]{Control: prev.Control, Value: g(r, prev.Value)}
		if r.IntN(16) == 0 {
			v.Control = ctl
		} else if r.IntN(8) == 0 {
			v.Control = engine.Control{}
		}
		return v
	}
}

// steadyMessages returns messages like a steady match's (few short runs
// ending at Held, near frames, a checksum report) with some of them just
// outside what the quick paths take: a long run, a far frame, timing, a
// changed control word.
func steadyMessages[I comparable](r *rand.Rand, g gen[I], n int) []*engine.Message[I] {
	var out []*engine.Message[I]
	for range n {
		f := core.Frame(r.IntN(1 << 20))
		m := &engine.Message[I]{Frame: f, NoStamp: r.IntN(2) == 0}
		if !m.NoStamp {
			m.Stamp = time.Duration(r.Int64N(1 << 40))
			if m.HasEcho = r.IntN(2) == 0; m.HasEcho {
				m.Echo, m.EchoDelay = m.Stamp-time.Duration(r.Int64N(1<<30)), time.Duration(r.Int64N(1<<25))
			}
		}
		players := 1 + r.IntN(8)
		for p := range players {
			m.Held[p] = max(0, f+core.Frame(r.IntN(8)-4))
			if r.IntN(64) == 0 {
				m.Held[p] = max(0, f-core.Frame(r.IntN(200)))
			}
		}
		if r.IntN(2) == 0 {
			m.ChecksumAck = max(1, f-core.Frame(r.IntN(70)))
		}
		for range r.IntN(3) {
			m.Checksums = append(m.Checksums, engine.ChecksumReport{Frame: max(0, f-core.Frame(r.IntN(40))), Sum: r.Uint64()})
		}
		for _, p := range r.Perm(players)[:r.IntN(min(players, 7)+1)] {
			k := 1 + r.IntN(4)
			if r.IntN(16) == 0 {
				k = 1 + r.IntN(40)
			}
			start := max(0, m.Held[p]-core.Frame(k))
			if r.IntN(4) == 0 {
				start = max(0, start-core.Frame(r.IntN(80)))
			}
			run := engine.InputRun[I]{Player: core.PlayerHandle(p), Start: start}
			var v I
			for range k {
				if r.IntN(3) != 0 {
					v = g(r, v)
				}
				run.Values = append(run.Values, v)
			}
			m.Inputs = append(m.Inputs, run)
		}
		out = append(out, m)
	}
	return out
}

// testQuickPaths checks that the quick encoder and decoder give exactly
// what the general ones give, and that they take most steady messages.
func testQuickPaths[I comparable](t *testing.T, g gen[I]) {
	c, err := NewCodec[I]()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, uint64(c.InputSize())))
	msgs := steadyMessages(r, g, 3000)
	for range 300 {
		msgs = append(msgs, randMessage(r, g, 1+r.IntN(core.MaxPlayers), 1+r.IntN(20)))
	}
	quickEnc, quickDec, quickTimed := 0, 0, 0
	for i, m := range msgs {
		seq, w := testSeq(r), testWindow()
		if r.IntN(4) == 0 { // the first packets all carry timing
			seq = r.Uint64N(4 * StampEvery)
			w = winAt(seq)
		}
		p, fit, err := c.AppendInput(nil, testKey, seq, m)
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		want, wantFit := c.appendInput(nil, testKey, seq, m)
		if !bytes.Equal(p, want) || fit != wantFit {
			t.Fatalf("message %d: AppendInput gives\n %x %+v\nthe general encoder\n %x %+v", i, p, fit, want, wantFit)
		}
		if _, _, ok := c.quickAppend(nil, testKey, seq, m); ok {
			quickEnc++
		}
		h, err := ParseHeader(p, testKey, w)
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		var got, slow engine.Message[I]
		if err := c.DecodeInputBody(p, h, &got); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		rd := reader{b: p[:len(p)-TagSize], off: h.Len}
		if !c.body(&rd, h, &slow) {
			t.Fatalf("message %d: body: %v", i, rd.err)
		}
		if d := diffMessage(&got, &slow, seq); d != "" {
			t.Fatalf("message %d: DecodeInputBody and body differ:\n%s", i, d)
		}
		var q engine.Message[I]
		if c.quickBody(p[:len(p)-TagSize], h, &q) {
			quickDec++
			if !q.NoStamp {
				quickTimed++
			}
		}
	}
	t.Logf("%d messages: %d encoded, %d decoded by the quick paths (%d with timing)", len(msgs), quickEnc, quickDec, quickTimed)
	if c.quick() && (quickEnc < len(msgs)/3 || quickDec < len(msgs)/3 || quickTimed < len(msgs)/20) {
		t.Errorf("the quick paths took %d and %d of %d messages (%d with timing); steady ones should mostly take them",
			quickEnc, quickDec, len(msgs), quickTimed)
	}
	if !c.quick() && quickEnc+quickDec > 0 {
		t.Errorf("the quick paths took %d and %d messages of a codec they are not for", quickEnc, quickDec)
	}
}

func TestQuickPaths(t *testing.T) {
	t.Run("slot-bool", func(t *testing.T) { testQuickPaths(t, slotGen(t, genBool)) })
	t.Run("slot-11-byte", func(t *testing.T) { testQuickPaths(t, slotGen(t, gen11)) })
	t.Run("slot-2-byte", func(t *testing.T) { testQuickPaths(t, slotGen(t, gen2)) })
	t.Run("slot-8-byte", func(t *testing.T) { testQuickPaths(t, slotGen(t, gen8)) })
	t.Run("2-byte", func(t *testing.T) { testQuickPaths(t, gen2) })
}

// input8 is 8 bytes, the largest value the quick paths take.
type input8 struct {
	A uint32
	B [4]uint8
}

// gen8 changes some bytes of the value, each to zero or not: deltas whose
// nonzero bytes are the low ones (one word on the wire) and others.
func gen8(r *rand.Rand, prev input8) input8 {
	if r.IntN(4) == 0 {
		return prev
	}
	v := prev
	for range 1 + r.IntN(3) {
		b := uint32(r.IntN(256)) * uint32(r.IntN(2))
		if k := r.IntN(8); k < 4 {
			v.A = v.A&^(0xff<<(8*k)) | b<<(8*k)
		} else {
			v.B[k-4] = uint8(b)
		}
	}
	return v
}

// TestHasZeroByte compares hasZeroByte with a byte-by-byte check on words
// whose bytes are often zero.
func TestHasZeroByte(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for range 200000 {
		k := 1 + r.IntN(8)
		var w uint64
		for j := range k {
			if r.IntN(4) != 0 {
				w |= uint64(1+r.IntN(255)) << (8 * j)
			}
		}
		want := false
		for j := range k {
			want = want || byte(w>>(8*j)) == 0
		}
		if got := hasZeroByte(w, k); got != want {
			t.Fatalf("hasZeroByte(%#x, %d) = %v, want %v", w, k, got, want)
		}
	}
}

// TestQuickRejectsAZeroLiteralByte damages a literal read in one load (its
// nonzero bytes are the low ones): a byte the mask lists must not be
// zero, which the general decoder rejects too.
func TestQuickRejectsAZeroLiteralByte(t *testing.T) {
	type slot = engine.Slot[input8]
	c, err := NewCodec[slot]()
	if err != nil {
		t.Fatal(err)
	}
	m := &engine.Message[slot]{Frame: 100, NoStamp: true}
	m.Held[0] = 101
	m.Inputs = []engine.InputRun[slot]{{Player: 0, Start: 100, Values: []slot{{Value: input8{A: 0x04030201}}}}}
	seq := uint64(testBase)
	p, _, err := c.AppendInput(nil, testKey, seq, m)
	if err != nil {
		t.Fatal(err)
	}
	body := p[:len(p)-TagSize]
	if got := body[len(body)-5:]; !bytes.Equal(got, []byte{0x0f, 1, 2, 3, 4}) {
		t.Fatalf("the packet ends with %x, not the mask and bytes of the value", got)
	}
	for j := 1; j <= 4; j++ {
		q := append([]byte(nil), body...)
		q[len(q)-j] = 0
		q = seal(q, seq)
		h, err := ParseHeader(q, testKey, winAt(seq))
		if err != nil {
			t.Fatal(err)
		}
		var got engine.Message[slot]
		if c.quickBody(q[:len(q)-TagSize], h, &got) {
			t.Errorf("byte %d of the literal zeroed: quickBody accepts %x", 4-j, q)
		}
		if err := c.DecodeInputBody(q, h, &got); err == nil {
			t.Errorf("byte %d of the literal zeroed: DecodeInputBody accepts %x", 4-j, q)
		}
	}
}
