package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
)

// randDesync returns a message with a large desync section: a query of up
// to MaxBlocks hashes and up to core.MaxAnswers answers, some entries
// empty, with offsets up to 2^31-1.
func randDesync(r *rand.Rand) *engine.Message[input2] {
	m := randMessage(r, gen2, 2, 6)
	big := func() int { return r.IntN(1 << uint(r.IntN(31))) } // below 2^31: int is 32 bits on 386 and arm
	m.Blocks = engine.BlockReport{Frame: core.Frame(r.IntN(int(m.Frame) + 1)), Offset: big(), Length: big(), BlockSize: big(), Hashes: make([]uint64, 1+r.IntN(MaxBlocks))}
	for i := range m.Blocks.Hashes {
		m.Blocks.Hashes[i] = r.Uint64()
	}
	m.Answers = [engine.MaxAnswers]engine.BlockAnswer{}
	for i := range m.Answers {
		if r.IntN(4) == 0 {
			continue // an empty entry, also between answers
		}
		a := engine.BlockAnswer{Frame: core.Frame(r.IntN(int(m.Frame) + 1)), Offset: big(), Length: 1 + big()%math.MaxInt32, Differ: r.Uint64()}
		if r.IntN(3) == 0 {
			a.Differ, a.Unavailable = 0, true
		}
		m.Answers[i] = a
	}
	switch r.IntN(4) {
	case 0:
		m.Blocks = engine.BlockReport{}
	case 1:
		m.Answers = [engine.MaxAnswers]engine.BlockAnswer{}
	}
	return m
}

// TestDesyncRoundTrip checks that queries and answers round-trip, that the
// largest section fits a datagram with a steady-state message, and that
// every prefix is truncated.
func TestDesyncRoundTrip(t *testing.T) {
	c, _ := NewCodec[input2]()
	r := rand.New(rand.NewPCG(9, 9))
	var got engine.Message[input2]
	for i := range 500 {
		m := randDesync(r)
		p, fit, err := c.AppendInput(nil, testKey, 77, m)
		if err != nil || !fit.Complete() {
			t.Fatalf("message %d: fit %+v, %v", i, fit, err)
		}
		if _, err := c.DecodeInput(p, testKey, nil, &got); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if d := diffMessage(&got, m, 77); d != "" {
			t.Fatalf("message %d: round trip differs:\n%s", i, d)
		}
		if q, _, _ := c.AppendInput(nil, testKey, 77, &got); !bytes.Equal(p, q) {
			t.Fatalf("message %d: re-encoding differs:\n%x\n%x", i, p, q)
		}
		for n := shortHeader; n < len(p)-TagSize; n++ {
			q := resign(append(append([]byte(nil), p[:n]...), 0, 0, 0, 0), nil)
			if _, err := c.DecodeInput(q, testKey, nil, &got); !errors.Is(err, ErrTruncated) {
				t.Fatalf("message %d re-tagged prefix %d: %v, want ErrTruncated", i, n, err)
			}
		}
	}
	t.Run("largest", func(t *testing.T) {
		m := &engine.Message[input2]{Frame: math.MaxInt32, Stamp: 1 << 50, HasEcho: true, Echo: 1, EchoDelay: 1 << 40,
			ChecksumAck: math.MaxInt32, Checksums: make([]engine.ChecksumReport, MaxChecksums),
			Blocks: engine.BlockReport{Offset: math.MaxInt32, Length: math.MaxInt32, BlockSize: math.MaxInt32, Hashes: make([]uint64, MaxBlocks)}}
		for i := range m.Answers {
			// Frames alternate between 0 and 2^31-1: each differs from
			// the previous answer's by the most.
			m.Answers[i] = engine.BlockAnswer{Frame: core.Frame(i % 2 * math.MaxInt32), Offset: math.MaxInt32, Length: math.MaxInt32, Differ: math.MaxUint64}
		}
		p, fit, err := c.AppendInput(nil, testKey, math.MaxUint64, m)
		if err != nil || !fit.Complete() {
			t.Fatalf("fit %+v, %v", fit, err)
		}
		bare := *m
		bare.Blocks, bare.Answers = engine.BlockReport{}, [engine.MaxAnswers]engine.BlockAnswer{}
		q, _, _ := c.AppendInput(nil, testKey, math.MaxUint64, &bare)
		// Parts 1; query: frame, offset, length, size (5 each), count 1,
		// 64 hashes; each answer: frame, offset, length (5 each), mask 8.
		const most = 1 + 4*5 + 1 + MaxBlocks*8 + engine.MaxAnswers*(3*5+8)
		if section := len(p) - len(q); section != most || len(p) > MaxDatagram {
			t.Fatalf("%d bytes, desync section %d, want %d and at most %d", len(p), section, most, MaxDatagram)
		}
		t.Logf("largest packet %d bytes, desync section %d", len(p), len(p)-len(q))
	})
}

// TestDesyncDecodeErrors checks malformed desync sections.
func TestDesyncDecodeErrors(t *testing.T) {
	c, _ := NewCodec[input2]()
	var m engine.Message[input2]
	body := func(section ...byte) []byte {
		p := appendHeader(nil, TypeInput, flagExt, 1)
		p = append(p, extBlocks, 2, 0) // ext, Frame 0 (seq 1 minus 1), shape; no ack, no timing
		return seal(append(p, section...), 1)
	}
	query := []byte{0, 1, 2, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8} // frame, offset, length, size, n, hash
	answer := []byte{0, 0, 1}                              // frame, offset, length
	cat := func(bs ...[]byte) []byte {
		var out []byte
		for _, b := range bs {
			out = append(out, b...)
		}
		return out
	}
	const one, two = 1 << partAnswerShift, 2 << partAnswerShift // answers
	if _, err := c.DecodeInput(body(cat([]byte{partQuery | two | partUnavailable<<1}, query, answer, make([]byte, 8), []byte{4, 9, 1})...), testKey, nil, &m); err != nil {
		t.Fatalf("valid section: %v", err)
	}
	want := [engine.MaxAnswers]engine.BlockAnswer{{Length: 1}, {Frame: 2, Offset: 9, Length: 1, Unavailable: true}}
	if m.Blocks.Offset != 1 || m.Blocks.Length != 2 || len(m.Blocks.Hashes) != 1 || m.Answers != want {
		t.Fatalf("decoded %+v %+v", m.Blocks, m.Answers)
	}
	for _, tc := range []struct {
		name string
		p    []byte
		want error
	}{
		{"no parts", body(0), ErrMalformed},
		{"five answers", body(cat([]byte{5 << partAnswerShift}, answer, answer, answer, answer, answer)...), ErrMalformed},
		{"unavailable without answer", body(cat([]byte{partQuery | partUnavailable}, query)...), ErrMalformed},
		{"unavailable past the answers", body(cat([]byte{one | partUnavailable<<1}, answer, make([]byte, 8))...), ErrMalformed},
		{"answer of empty range", body(one|partUnavailable, 0, 0, 0), ErrMalformed},
		{"second answer before frame 0", body(cat([]byte{two | partUnavailable | partUnavailable<<1}, answer, []byte{1, 0, 1})...), ErrMalformed},
		{"query without hashes", body(partQuery, 0, 0, 1, 1, 0), ErrMalformed},
		{"offset past 2^31-1", body(binary.AppendUvarint([]byte{one | partUnavailable, 0}, 1<<31)...), ErrMalformed},
		{"65 hashes", body(partQuery, 0, 0, 1, 1, 65), ErrTooLarge},
		{"trailing unavailable mask", body(cat([]byte{one | partUnavailable}, answer, make([]byte, 8))...), ErrMalformed},
		{"missing second answer", body(cat([]byte{two}, answer, make([]byte, 8))...), ErrTruncated},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := c.DecodeInput(tc.p, testKey, nil, &m); !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}
