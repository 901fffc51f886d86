package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
)

// Input types the tests encode: 2 bytes (raw literals), 4 bytes with a
// bool (masked literals and value validation), 64 bytes (masked, wide).
type (
	input2 struct {
		Buttons uint8
		Dir     uint8
	}
	inputBool struct {
		Fire bool
		X    int8
		Y    int16
	}
	input64 struct{ A [8]uint64 }
	// input11 is 11 bytes: a word and a 3-byte tail.
	input11 struct {
		A [8]uint8
		B [3]uint8
	}
)

func gen11(r *rand.Rand, prev input11) input11 {
	if r.IntN(3) == 0 {
		return prev
	}
	v := prev
	if r.IntN(2) == 0 {
		v.A[r.IntN(8)] ^= uint8(r.Uint32())
	} else {
		v.B[r.IntN(3)] = uint8(r.Uint32())
	}
	return v
}

const testToken = 0x5eed_70c0_dead_beef

// gen makes the next input of a player from its previous one: mostly the
// same, sometimes changed, as real inputs are.
type gen[I comparable] func(r *rand.Rand, prev I) I

func gen2(r *rand.Rand, prev input2) input2 {
	if r.IntN(4) != 0 {
		return prev
	}
	return input2{Buttons: uint8(r.Uint32()), Dir: uint8(r.IntN(3)) * uint8(r.Uint32())}
}

func genBool(r *rand.Rand, prev inputBool) inputBool {
	if r.IntN(3) != 0 {
		return prev
	}
	return inputBool{Fire: r.IntN(2) == 0, X: int8(r.Uint32()), Y: int16(r.IntN(5) - 2)}
}

func gen64(r *rand.Rand, prev input64) input64 {
	if r.IntN(4) == 0 {
		return prev
	}
	v := prev
	v.A[r.IntN(8)] = r.Uint64()
	return v
}

// randMessage returns a random message for players players with runs of
// up to maxRun values.
func randMessage[I comparable](r *rand.Rand, g gen[I], players, maxRun int) *engine.Message[I] {
	m := &engine.Message[I]{Frame: core.Frame(r.IntN(1 << uint(r.IntN(31))))}
	near := func() core.Frame { return core.Frame(max(0, int(m.Frame)+r.IntN(64)-40)) }
	for p := range players {
		if r.IntN(8) != 0 {
			m.Held[p] = near()
		}
	}
	if r.IntN(4) == 0 {
		m.Gone = uint16(r.Uint32()) & (1<<players - 1)
	}
	m.ChecksumAck = near()
	m.Stamp = time.Duration(r.Int64N(1 << uint(r.IntN(50))))
	if r.IntN(4) == 0 {
		m.NoStamp = true
	} else if r.IntN(3) != 0 {
		m.HasEcho = true
		m.Echo = m.Stamp + time.Duration(r.Int64N(1<<34)-1<<33)
		m.EchoDelay = time.Duration(r.Int64N(1 << 26))
	}
	if r.IntN(2) == 0 {
		f := near()
		for range r.IntN(MaxChecksums + 1) {
			m.Checksums = append(m.Checksums, engine.ChecksumReport{Frame: f, Sum: r.Uint64()})
			f += core.Frame(r.IntN(3))
		}
	}
	if r.IntN(4) == 0 {
		m.Blocks = engine.BlockReport{Frame: near(), Offset: r.IntN(1 << uint(r.IntN(31))), Length: r.IntN(1 << 20), BlockSize: r.IntN(1 << 20), Hashes: make([]uint64, 1+r.IntN(8))}
		for i := range m.Blocks.Hashes {
			m.Blocks.Hashes[i] = r.Uint64()
		}
	}
	for i := range m.Answers {
		if r.IntN(6) == 0 {
			m.Answers[i] = engine.BlockAnswer{Frame: near(), Offset: r.IntN(1 << uint(r.IntN(31))), Length: 1 + r.IntN(1<<20), Differ: r.Uint64() >> uint(r.IntN(64))}
			if r.IntN(4) == 0 {
				m.Answers[i].Unavailable, m.Answers[i].Differ = true, 0
			}
		}
	}
	for _, p := range r.Perm(players)[:r.IntN(players+1)] {
		run := engine.InputRun[I]{Player: core.PlayerHandle(p), Start: near()}
		var v I
		for range r.IntN(maxRun + 1) {
			v = g(r, v)
			run.Values = append(run.Values, v)
		}
		m.Inputs = append(m.Inputs, run)
	}
	return m
}

// canon returns what a message becomes on the wire: stamps truncated to
// microseconds, echo fields zero without HasEcho, no empty block report,
// the answers first and the empty ones zero, and empty slices as nil.
func canon[I comparable](m *engine.Message[I]) engine.Message[I] {
	c := *m
	c.Stamp = c.Stamp.Truncate(time.Microsecond)
	c.Echo = c.Echo.Truncate(time.Microsecond)
	c.EchoDelay = c.EchoDelay.Truncate(time.Microsecond)
	if !c.HasEcho {
		c.Echo, c.EchoDelay = 0, 0
	}
	if len(c.Blocks.Hashes) == 0 {
		c.Blocks = engine.BlockReport{}
	}
	c.Answers = [engine.MaxAnswers]engine.BlockAnswer{}
	n := 0
	for _, a := range m.Answers {
		if a.Length != 0 {
			c.Answers[n] = a
			n++
		}
	}
	if len(c.Checksums) == 0 {
		c.Checksums = nil
	}
	c.Inputs = nil
	for _, r := range m.Inputs {
		if len(r.Values) == 0 {
			r.Values = nil
		}
		c.Inputs = append(c.Inputs, r)
	}
	return c
}

// diffMessage returns "" if got and want are equal after canon, else a
// description.
// The packet had sequence number seq, which decides whether the timing
// was sent (StampDue).
func diffMessage[I comparable](got, want *engine.Message[I], seq uint64) string {
	g, w := canon(got), canon(want)
	if w.NoStamp || !StampDue(seq) {
		w.NoStamp, w.Stamp, w.Echo, w.EchoDelay, w.HasEcho = true, 0, 0, 0, false
	}
	if reflect.DeepEqual(g, w) {
		return ""
	}
	return fmt.Sprintf("got  %+v\nwant %+v", g, w)
}

// errorsIs is errors.Is, shortened for table tests.
func errorsIs(err, target error) bool { return errors.Is(err, target) }

// testKey is the key of testToken.
var testKey = NewKey(testToken)

// testBase is the newest sequence number of testWindow: past 2^32, so
// that sequence numbers need their full 64 bits.
const testBase = 1<<40 + 12345

// testWindow returns a window that has accepted testBase, which expands
// the sequence numbers testSeq draws.
func testWindow() *ReplayWindow {
	var w ReplayWindow
	_ = w.Accept(testBase)
	return &w
}

// testSeq draws a sequence number testWindow expands correctly: within
// testBase-32767 .. testBase+32768.
func testSeq(r *rand.Rand) uint64 { return testBase - 32767 + r.Uint64N(1<<16) }

// winAt returns a window that has accepted seq, so that it expands seq's
// low 16 bits back to seq.
func winAt(seq uint64) *ReplayWindow {
	var w ReplayWindow
	_ = w.Accept(seq)
	return &w
}

// seal appends the tag of hand-built packet p (header and body) with full
// sequence number seq under testKey.
func seal(p []byte, seq uint64) []byte { return appendTag(p, testKey, seq, 0) }

// resign returns a copy of packet p with its tag recomputed under testKey,
// the sequence number expanded with w, so that a damaged body reaches the
// body decoder instead of failing the tag. It returns p's copy unchanged
// when p is too short or its first byte names no type.
func resign(p []byte, w *ReplayWindow) []byte {
	q := append([]byte(nil), p...)
	if len(q) == 0 {
		return q
	}
	t := Type(q[0] >> 3 & 7)
	n := shortHeader
	if t.longSeq() {
		n = longHeader
	}
	if len(q) < n+TagSize {
		return q
	}
	var seq uint64
	if t.longSeq() {
		seq = binary.LittleEndian.Uint64(q[1:])
	} else {
		seq = w.Expand(binary.LittleEndian.Uint16(q[1:]))
	}
	end := len(q) - TagSize
	binary.LittleEndian.PutUint32(q[end:], tag(testKey, seq, q[:end]))
	return q
}
