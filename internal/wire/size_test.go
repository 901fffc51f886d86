package wire

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/transport"
)

// checkCut checks that got holds, for each run it keeps, a prefix of the
// same run of m, that some cut-off frame explains the prefixes (oldest
// first), and that fit counts them.
func checkCut[I comparable](t *testing.T, m, got *engine.Message[I], fit Fit) {
	t.Helper()
	sent := 0
	cut := int64(-1)
	j := 0
	for i := range m.Inputs {
		w := &m.Inputs[i]
		if j == len(got.Inputs) || got.Inputs[j].Player != w.Player {
			continue // left out entirely
		}
		g := &got.Inputs[j]
		j++
		if g.Start != w.Start || len(g.Values) > len(w.Values) {
			t.Fatalf("run of player %d: got start %d, %d values; sent start %d, %d values", w.Player, g.Start, len(g.Values), w.Start, len(w.Values))
		}
		for k := range g.Values {
			if g.Values[k] != w.Values[k] {
				t.Fatalf("run of player %d: value %d differs", w.Player, k)
			}
		}
		sent += len(g.Values)
		if len(g.Values) < len(w.Values) {
			end := int64(g.Start) + int64(len(g.Values))
			if cut >= 0 && end != cut && len(g.Values) < MaxRunValues {
				t.Fatalf("run of player %d ends at %d, another cut run at %d: not one cut-off", w.Player, end, cut)
			}
			cut = end
		}
	}
	if j != len(got.Inputs) {
		t.Fatalf("decoded %d runs, matched %d", len(got.Inputs), j)
	}
	if sent != fit.Values {
		t.Fatalf("decoded %d values, fit says %d", sent, fit.Values)
	}
}

// TestDatagramCap encodes messages far too big for one datagram: 16
// players with hundreds of unacknowledged frames of 64-byte inputs that
// change every frame, plus every checksum and block hash. No packet may
// exceed MaxDatagram; the oldest inputs must be the ones sent.
func TestDatagramCap(t *testing.T) {
	if MaxDatagram != transport.MaxDatagram {
		t.Fatalf("MaxDatagram %d, transport.MaxDatagram %d", MaxDatagram, transport.MaxDatagram)
	}
	c, _ := NewCodec[input64]()
	r := rand.New(rand.NewPCG(5, 5))
	var got engine.Message[input64]
	buf := make([]byte, 0, MaxDatagram)
	for i := range 60 {
		m := &engine.Message[input64]{Frame: 5000, Stamp: time.Hour, HasEcho: true, Echo: time.Minute, EchoDelay: time.Second}
		for p := range core.MaxPlayers {
			m.Held[p] = core.Frame(4000 + r.IntN(1000))
			start := core.Frame(4000 + r.IntN(50))
			if i%3 == 0 {
				start = 4000 // all runs equally old
			}
			run := engine.InputRun[input64]{Player: core.PlayerHandle(p), Start: start}
			for range 100 + r.IntN(400) {
				var v input64
				for k := range v.A {
					v.A[k] = r.Uint64()
				}
				if i%2 == 1 {
					v.A[0] &= 0xff // sparser changes
				}
				run.Values = append(run.Values, v)
			}
			m.Inputs = append(m.Inputs, run)
		}
		m.Gone = 0xffff
		for k := range 30 {
			m.Checksums = append(m.Checksums, engine.ChecksumReport{Frame: core.Frame(4000 + k), Sum: r.Uint64()})
		}
		m.Blocks = engine.BlockReport{Frame: 4000, BlockSize: 4096, Hashes: make([]uint64, MaxBlocks)}
		for k := range m.Answers {
			m.Answers[k] = engine.BlockAnswer{Frame: 4000, Offset: k, Length: 1}
		}
		out, fit, err := c.AppendInput(buf[:0], testKey, uint64(1)<<63, m)
		if err != nil {
			t.Fatal(err)
		}
		if len(out) > MaxDatagram || cap(out) != MaxDatagram {
			t.Fatalf("message %d: %d bytes, buffer grew to %d", i, len(out), cap(out))
		}
		if fit.Values == 0 || fit.Omitted == 0 || !fit.BlocksOmitted || fit.ChecksumsOmitted != 30-MaxChecksums {
			t.Fatalf("message %d: fit %+v", i, fit)
		}
		if _, err := c.DecodeInput(out, testKey, winAt(1<<63), &got); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		checkCut(t, m, &got, fit)
		if len(got.Blocks.Hashes) != 0 || got.Answers != ([engine.MaxAnswers]engine.BlockAnswer{}) {
			t.Fatalf("message %d: inputs cut but the desync section sent", i)
		}
		if i == 0 {
			t.Logf("16 players, 64-byte inputs: %d bytes, %d values sent, %d left", len(out), fit.Values, fit.Omitted)
		}
	}
}

// TestCapCountsValues checks the MaxValues and MaxRunValues bounds: runs of
// unchanging inputs cost almost nothing, but no packet carries more than
// MaxValues values, and the decoder accepts what the encoder makes.
func TestCapCountsValues(t *testing.T) {
	c, _ := NewCodec[input2]()
	m := &engine.Message[input2]{Frame: 10}
	for p := range core.MaxPlayers {
		m.Inputs = append(m.Inputs, engine.InputRun[input2]{Player: core.PlayerHandle(p), Values: make([]input2, 2000)})
	}
	out, fit, err := c.AppendInput(nil, testKey, 1, m)
	if err != nil {
		t.Fatal(err)
	}
	if fit.Values > MaxValues || fit.Values+fit.Omitted != 32000 {
		t.Fatalf("fit %+v", fit)
	}
	var got engine.Message[input2]
	if _, err := c.DecodeInput(out, testKey, nil, &got); err != nil {
		t.Fatal(err)
	}
	checkCut(t, m, &got, fit)
	t.Logf("16 idle players x 2000 frames: %d bytes, %d values", len(out), fit.Values)
}

// steadyMessage is a steady-state message of a 2-player match at 60 fps:
// frame f, player 0 local with 2-byte inputs and six frames the peer has
// not acknowledged, the input held down for the whole run.
func steadyMessage(f core.Frame) *engine.Message[input2] {
	v := input2{Buttons: 0x05, Dir: 0}
	return &engine.Message[input2]{
		Frame: f,
		// Player 0 is ours (input delay 2); player 1's inputs we hold up
		// to about 3 frames behind.
		Held:        [core.MaxPlayers]core.Frame{f + 3, f - 2},
		ChecksumAck: f - 8,
		Inputs:      []engine.InputRun[input2]{{Player: 0, Start: f - 3, Values: []input2{v, v, v, v, v, v}}},
		Stamp:       time.Duration(f) * time.Second / 60,
		Echo:        time.Duration(f)*time.Second/60 + 20*time.Millisecond,
		EchoDelay:   9 * time.Millisecond,
		HasEcho:     true,
	}
}

// TestSteadyStateSize computes the steady-state datagram size that doc.go
// states, with the 28-byte IPv4+UDP header.
func TestSteadyStateSize(t *testing.T) {
	c, _ := NewCodec[input2]()
	cases := []struct {
		name    string
		frame   core.Frame
		stamped bool
		sums    int
		noAck   bool // ChecksumAck zeroed: the endpoint omits an unchanged ack
		want    int  // datagram bytes including IP and UDP
	}{
		{"first minute", 3000, false, 0, false, 46},
		{"first minute, stamped", 3000, true, 0, false, 55},
		{"after 4.5 minutes", 20000, false, 0, false, 46},
		{"after 4.5 minutes, ack omitted", 20000, false, 0, true, 44},
		{"after 4.5 minutes, stamped", 20000, true, 0, false, 56},
		{"after 4.5 minutes, stamped, ack omitted", 20000, true, 0, true, 54},
		{"after 4.5 minutes, 1 checksum", 20000, false, 1, false, 56},
		{"after 4.5 minutes, 6 checksums", 20000, false, 6, false, 101},
	}
	for _, tc := range cases {
		m := steadyMessage(tc.frame)
		if tc.noAck {
			m.ChecksumAck = 0
		}
		for k := range tc.sums {
			m.Checksums = append(m.Checksums, engine.ChecksumReport{Frame: tc.frame - 8 + core.Frame(k), Sum: 0x0123456789abcdef})
		}
		// The sequence number is a few past the frame (Hellos, KeepAlives),
		// the first that StampDue picks for a stamped packet.
		seq := uint64(tc.frame) + 3
		for StampDue(seq) != tc.stamped {
			seq++
		}
		p, _, err := c.AppendInput(nil, testKey, seq, m)
		if err != nil {
			t.Fatal(err)
		}
		got := len(p) + transport.HeaderOverhead
		t.Logf("%s: %d bytes payload, %d with IP+UDP", tc.name, len(p), got)
		if got != tc.want {
			t.Errorf("%s: %d bytes with IP+UDP, want %d (update doc.go)", tc.name, got, tc.want)
		}
	}
}

// TestCutRandom encodes random oversized messages and checks the cut on
// each: at most MaxDatagram bytes, prefixes of the runs, one cut-off frame,
// and no run left out that holds a frame older than the cut-off unless
// every run is at the oldest frame.
func TestCutRandom(t *testing.T) {
	c, _ := NewCodec[input64]()
	r := rand.New(rand.NewPCG(8, 8))
	var got engine.Message[input64]
	buf := make([]byte, 0, MaxDatagram)
	cuts := 0
	defer func() {
		if cuts < 100 {
			t.Errorf("only %d of 300 messages were cut", cuts)
		}
	}()
	for i := range 300 {
		m := randMessage(r, gen64, core.MaxPlayers, 1+r.IntN(300))
		out, fit, err := c.AppendInput(buf[:0], testKey, uint64(i), m)
		if err != nil {
			t.Fatal(err)
		}
		if len(out) > MaxDatagram || cap(out) != MaxDatagram {
			t.Fatalf("message %d: %d bytes, cap %d", i, len(out), cap(out))
		}
		if _, err := c.DecodeInput(out, testKey, nil, &got); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if fit.Omitted == 0 {
			if d := diffMessage(&got, m, uint64(i)); d != "" && !fit.BlocksOmitted && fit.ChecksumsOmitted == 0 {
				t.Fatalf("message %d: complete fit but differs:\n%s", i, d)
			}
			continue
		}
		cuts++
		checkCut(t, m, &got, fit)
		// The cut-off: the end of any shortened run.
		cut, lo := int64(-1), int64(math.MaxInt64)
		j := 0
		for k := range m.Inputs {
			w := &m.Inputs[k]
			if len(w.Values) > 0 {
				lo = min(lo, int64(w.Start))
			}
			if j < len(got.Inputs) && got.Inputs[j].Player == w.Player {
				if g := &got.Inputs[j]; len(g.Values) < len(w.Values) {
					cut = int64(g.Start) + int64(len(g.Values))
				}
				j++
			}
		}
		j = 0
		for k := range m.Inputs {
			w := &m.Inputs[k]
			if j < len(got.Inputs) && got.Inputs[j].Player == w.Player {
				j++
				continue
			}
			if len(w.Values) > 0 && cut >= 0 && int64(w.Start) < cut && cut != lo+1 {
				t.Fatalf("message %d: run of player %d (start %d) left out below cut-off %d", i, w.Player, w.Start, cut)
			}
		}
	}
}
