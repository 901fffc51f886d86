package wire

import (
	"encoding/binary"
	"math/bits"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
)

// quickBody is body for the packet of a steady match, read in one pass
// over b (the datagram without its tag) with plain bounds checks instead
// of a sticky reader per field: no Gone or desync section, at most six
// runs of 1 to 15 values whose control words do not change, for a codec
// of core.Slot values of up to 8 bytes (quick). For any other
// packet, valid or not, it reports false and body decodes it (and names
// what is wrong), so no error is made here. It accepts exactly the packets
// of that set that body accepts and decodes them the same (fuzzInput and
// TestQuickPaths check); it may have overwritten m.Held and the backing
// arrays of *m when it reports false, which body overwrites too. Most packets of a
// match are of that set; the encoder has the same split (quickAppend).
func (c *Codec[I]) quickBody(b []byte, hd Header, m *engine.Message[I]) bool {
	if !c.quick() {
		return false
	}
	i := hd.Len
	var ext byte
	if hd.Flags&flagExt != 0 {
		if i >= len(b) {
			return false
		}
		ext = b[i]
		i++
		if ext == 0 || ext&^(extSums|extAck) != 0 {
			return false
		}
	}
	d, i, ok := varintAt(b, i)
	f := hd.Seq - uint64(d)
	if !ok || f > MaxFrame || i >= len(b) {
		return false
	}
	frame := core.Frame(f)
	shape := b[i]
	i++
	h, nr := int(shape&31), int(shape>>5)
	if h > core.MaxPlayers || nr == 7 {
		return false
	}
	held := &m.Held // *m is unspecified on failure (DecodeInput)
	*held = [core.MaxPlayers]core.Frame{}
	for k := range h {
		if held[k], i, ok = relFrameAt(b, i, frame); !ok {
			return false
		}
	}
	if h > 0 && held[h-1] == 0 {
		return false
	}
	var ack core.Frame
	if ext&extAck != 0 {
		if ack, i, ok = relFrameAt(b, i, frame); !ok || ack == 0 {
			return false
		}
	}
	noStamp := hd.Flags&flagTiming == 0
	var stamp, echo, delay time.Duration
	var hasEcho bool
	if !noStamp {
		if !StampDue(hd.Seq) {
			return false
		}
		r := reader{b: b, off: i}
		if stamp, echo, delay, hasEcho = r.timing(); !r.ok() {
			return false
		}
		i = r.off
	}
	sums := m.Checksums[:0]
	if ext&extSums != 0 {
		if i >= len(b) {
			return false
		}
		n := int(b[i])
		i++
		if n == 0 || n > MaxChecksums {
			return false
		}
		base := frame
		for range n {
			if base, i, ok = relFrameAt(b, i, base); !ok || len(b)-i < 8 {
				return false
			}
			sums = append(sums, engine.ChecksumReport{Frame: base, Sum: binary.LittleEndian.Uint64(b[i:])})
			i += 8
		}
	}
	runs, i, ok := c.quickRuns(b, i, nr, frame, held, hd.Flags&flagAtHeld != 0, m.Inputs[:0])
	if !ok || i != len(b) {
		return false
	}
	m.Frame, m.Gone, m.ChecksumAck = frame, 0, ack
	m.NoStamp, m.Stamp, m.Echo, m.EchoDelay, m.HasEcho = noStamp, stamp, echo, delay, hasEcho
	m.Checksums = sums
	m.Blocks = engine.BlockReport{Hashes: m.Blocks.Hashes[:0]}
	m.Answers = [engine.MaxAnswers]engine.BlockAnswer{}
	m.Inputs = runs
	return true
}

// quickRuns is readRuns for quickBody: nr runs from b[i:], each of 1 to 15
// values. It returns the runs, the offset past them, and false for
// anything quickBody leaves to body.
func (c *Codec[I]) quickRuns(b []byte, i, nr int, base core.Frame, held *[core.MaxPlayers]core.Frame, atHeld bool, dst []engine.InputRun[I]) ([]engine.InputRun[I], int, bool) {
	if atHeld && nr == 0 {
		return dst, i, false
	}
	allAtHeld, ok := nr > 0, true
	for range nr {
		if i >= len(b) {
			return dst, i, false
		}
		head := b[i]
		i++
		n, player := int(head>>4), core.PlayerHandle(head&15)
		if n == 0 {
			return dst, i, false
		}
		var start core.Frame
		if atHeld {
			h := held[player]
			if h == 0 || core.Frame(n) > h {
				return dst, i, false
			}
			start = h - core.Frame(n)
		} else {
			if start, i, ok = relFrameAt(b, i, base); !ok || int64(start)+int64(n)-1 > MaxFrame {
				return dst, i, false
			}
			allAtHeld = allAtHeld && endsAtHeld(held, player, start, n)
		}
		vals := runValues(dst, n)
		if i, ok = c.quickRun(b, i, vals); !ok {
			return dst, i, false
		}
		dst = append(dst, engine.InputRun[I]{Player: player, Start: start, Values: vals})
	}
	return dst, i, atHeld || !allAtHeld
}

// quickRun is readRun for quickRuns: the values of one run from b[i:]
// into vals. Every gap is one byte, and no control word changes (a
// command or a step report); the value's delta is read as one word. It
// returns the offset past the run, and false for anything else, which
// readRun reads.
func (c *Codec[I]) quickRun(b []byte, i int, vals []I) (int, bool) {
	// The current value's bytes: a zero control word, then the value's
	// (its size is at most 16, quick).
	var buf [2 * slotControl]byte
	vsize := c.size - slotControl
	var cur uint64 // the value's bytes
	var zero I
	for pos := 0; pos < len(vals); pos++ {
		if i >= len(b) || b[i] >= 0x80 || b[i]&1 != 0 {
			return i, false
		}
		gap := int(b[i] >> 1)
		i++
		if gap > len(vals)-pos {
			return i, false
		}
		last := zero
		if pos > 0 {
			last = vals[pos-1]
		}
		for end := pos + gap; pos < end; pos++ {
			vals[pos] = last
		}
		if pos == len(vals) {
			return i, true
		}
		// The delta d: the raw bytes of a value of up to 2 bytes, else a
		// mask byte and its nonzero bytes.
		var d uint64
		if !c.masked {
			if len(b)-i < vsize {
				return i, false
			}
			for k := range vsize {
				d |= uint64(b[i+k]) << (8 * k)
			}
			i += vsize
		} else {
			if i >= len(b) || b[i]>>vsize != 0 {
				return i, false
			}
			m := b[i]
			i++
			if k := bits.OnesCount8(m); m&(m+1) == 0 && k > 0 && i+k >= 8 && i+k <= len(b) {
				// The low k bytes are the nonzero ones (most deltas): one
				// load of the word that ends with them, every byte of
				// them checked nonzero at once.
				d = binary.LittleEndian.Uint64(b[i+k-8:]) >> (64 - 8*k)
				if hasZeroByte(d, k) {
					return i, false
				}
				i += k
			} else {
				for ; m != 0; m &= m - 1 {
					if i >= len(b) || b[i] == 0 {
						return i, false
					}
					d |= uint64(b[i]) << (8 * bits.TrailingZeros8(m))
					i++
				}
			}
		}
		if d == 0 {
			return i, false
		}
		cur ^= d
		binary.LittleEndian.PutUint64(buf[slotControl:], cur)
		if c.raw.Decode(buf[:c.size], &vals[pos]) != nil {
			return i, false
		}
	}
	return i, true
}

// hasZeroByte reports whether one of the low k bytes of w is zero (k is 1
// to 8). A byte borrows in w - 0x01…01 only below or at the lowest zero
// byte, so the sign bits of the low k bytes are exact.
func hasZeroByte(w uint64, k int) bool {
	low := uint64(0x8080808080808080) >> (64 - 8*k)
	return (w-0x0101010101010101)&^w&low != 0
}

// quickAppend reads the engine's four answers.
var _ [engine.MaxAnswers - 4]struct{}
var _ [4 - engine.MaxAnswers]struct{}

// quick reports whether the quick paths take the codec's packets at all:
// those of core.Slot values of up to 8 bytes, whose deltas fit a word.
// Larger inputs, and the bare inputs only tests encode, take the general
// ones.
func (c *Codec[I]) quick() bool { return c.fast }

// varintAt reads a zigzag varint from b[i:] as reader.varint does, and
// returns it with the offset past it; false if it is truncated, overlong
// or past 64 bits.
func varintAt(b []byte, i int) (int64, int, bool) {
	if i < len(b) {
		if c := b[i]; c < 0x80 { // most are one byte: inlined
			return int64(c>>1) ^ -int64(c&1), i + 1, true
		}
	}
	return varintSlow(b, i)
}

// varintSlow is varintAt for a varint of more than one byte. It is kept
// out of line so that varintAt's one-byte case inlines.
//
//go:noinline
func varintSlow(b []byte, i int) (int64, int, bool) {
	var u uint64
	for k := range binary.MaxVarintLen64 {
		if i+k >= len(b) || k == binary.MaxVarintLen64-1 && b[i+k] > 1 {
			return 0, i, false
		}
		c := b[i+k]
		u |= uint64(c&0x7f) << (7 * k)
		if c < 0x80 {
			return int64(u>>1) ^ -int64(u&1), i + k + 1, c != 0
		}
	}
	return 0, i, false
}

// relFrameAt reads a frame from b[i:] as reader.relFrame does: a zigzag
// delta from base, which must give a frame in 0..MaxFrame. The one-byte
// case inlines.
func relFrameAt(b []byte, i int, base core.Frame) (core.Frame, int, bool) {
	if i < len(b) && b[i] < 0x80 {
		f := int64(base) + (int64(b[i]>>1) ^ -int64(b[i]&1))
		return core.Frame(f), i + 1, uint64(f) <= MaxFrame
	}
	return relFrameSlow(b, i, base)
}

// relFrameSlow is relFrameAt for a delta of more than one byte.
func relFrameSlow(b []byte, i int, base core.Frame) (core.Frame, int, bool) {
	d, i, ok := varintSlow(b, i)
	f := int64(base) + d
	return core.Frame(f), i, ok && d >= -MaxFrame-1 && d <= MaxFrame && f >= 0 && f <= MaxFrame
}

// quickAppend is AppendInput for the message of a steady match, for a
// codec that is quick: no Gone and no desync section, at most
// MaxChecksums checksum reports and six runs of 1 to 15 values whose
// control words do not change, and nothing checkMessage rejects (it
// checks the fields such a message has itself, in the passes it makes
// anyway). It writes the bytes the general encoder writes (fuzzInput and
// TestQuickPaths check) in one pass, without the cut-off search's
// bookkeeping. For any other message it reports false with dst unchanged
// (up to its length).
func (c *Codec[I]) quickAppend(dst []byte, key Key, seq uint64, m *engine.Message[I]) ([]byte, Fit, bool) {
	if !c.quick() || m.Gone != 0 || len(m.Blocks.Hashes) != 0 || len(m.Checksums) > MaxChecksums ||
		len(m.Inputs) > 6 {
		return dst, Fit{}, false
	}
	if a := &m.Answers; a[0].Length|a[1].Length|a[2].Length|a[3].Length != 0 {
		return dst, Fit{}, false
	}
	if m.Frame < 0 || m.ChecksumAck < 0 || anyNegative(&m.Held) || m.Stamp < 0 && !m.NoStamp ||
		m.HasEcho && (m.NoStamp || m.EchoDelay < 0) {
		return dst, Fit{}, false // checkMessage names what is wrong
	}
	neg := core.Frame(0)
	for _, s := range m.Checksums {
		neg |= s.Frame
	}
	if neg < 0 {
		return dst, Fit{}, false
	}
	var fl, ext byte
	timed := !m.NoStamp && StampDue(seq)
	if timed {
		fl |= flagTiming
	}
	if len(m.Checksums) > 0 {
		ext |= extSums
	}
	if m.ChecksumAck != 0 {
		ext |= extAck
	}
	if ext != 0 {
		fl |= flagExt
	}
	atHeld, values := len(m.Inputs) > 0, 0
	for i := range m.Inputs {
		r := &m.Inputs[i]
		n := len(r.Values)
		if n == 0 || n > 15 || uint(r.Player) >= core.MaxPlayers || r.Start < 0 || int64(r.Start)+int64(n)-1 > MaxFrame {
			return dst, Fit{}, false
		}
		values += n
		atHeld = atHeld && endsAtHeld(&m.Held, r.Player, r.Start, n)
	}
	if atHeld {
		fl |= flagAtHeld
	}
	start := len(dst)
	dst = appendHeader(dst, TypeInput, fl, seq)
	if ext != 0 {
		dst = append(dst, ext)
	}
	f := int64(m.Frame)
	dst = appendVarint(dst, int64(seq-uint64(m.Frame)))
	h := heldLen(&m.Held)
	dst = append(dst, byte(h|len(m.Inputs)<<5))
	for _, x := range m.Held[:h] {
		dst = appendVarint(dst, int64(x)-f)
	}
	if m.ChecksumAck != 0 {
		dst = appendVarint(dst, int64(m.ChecksumAck)-f)
	}
	if timed {
		dst = appendTiming(dst, m.Stamp, m.Echo, m.EchoDelay, m.HasEcho)
	}
	if len(m.Checksums) > 0 {
		dst = append(dst, byte(len(m.Checksums)))
		last := f
		for _, s := range m.Checksums {
			dst = appendU64(appendVarint(dst, int64(s.Frame)-last), s.Sum)
			last = int64(s.Frame)
		}
	}
	for i := range m.Inputs {
		r := &m.Inputs[i]
		dst = append(dst, byte(r.Player)|byte(len(r.Values))<<4)
		if !atHeld {
			dst = appendVarint(dst, int64(r.Start)-f)
		}
		var ok bool
		if dst, ok = c.quickAppendRun(dst, r.Values, start+MaxDatagram-TagSize); !ok {
			return dst[:start], Fit{}, false
		}
	}
	return appendTag(dst, key, seq, start), Fit{Values: values}, true
}

// quickAppendRun is appendRun for quickAppend, the value's delta as one
// word: false if a control word changes or the run would pass limit.
func (c *Codec[I]) quickAppendRun(dst []byte, vals []I, limit int) ([]byte, bool) {
	vsize := c.size - slotControl
	var last uint64 // the previous value's bytes
	gap := byte(0)
	var zero I
	for i := range vals {
		if i == 0 && vals[0] == zero || i > 0 && vals[i] == vals[i-1] {
			gap++ // equal values have equal bytes (see appendRun)
			continue
		}
		// cur's capacity is 16 bytes, zero past c.size (NewCodec).
		cur := c.raw.Append(c.cur[:0], &vals[i])
		v := binary.LittleEndian.Uint64(cur[slotControl:16])
		d := v ^ last
		if binary.LittleEndian.Uint64(cur) != 0 || d == 0 || len(dst)+2+8 > limit {
			return dst, false
		}
		last = v
		dst = append(dst, gap<<1)
		gap = 0
		if !c.masked { // the raw delta
			for k := range vsize {
				dst = append(dst, byte(d>>(8*k)))
			}
			continue
		}
		f := nonzeroBytes(d)
		dst = append(dst, byte(f*0x0102040810204080>>56))
		if k := bits.OnesCount64(f); f == 0x0101010101010101>>(64-8*k) { // only the low k bytes are nonzero
			// One word written, cut to them: limit leaves room for it.
			dst = binary.LittleEndian.AppendUint64(dst, d)[:len(dst)+k]
			continue
		}
		for ; f != 0; f &= f - 1 {
			dst = append(dst, byte(d>>bits.TrailingZeros64(f)))
		}
	}
	if gap > 0 {
		if len(dst) >= limit {
			return dst, false
		}
		dst = append(dst, gap<<1)
	}
	return dst, true
}
