package wire

import (
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
)

// DecodeInput decodes datagram p, which must be an Input packet
// authenticated with key whose sequence number window expands (see
// ParseHeader; nil is an empty window, which expands the 16 bits on the
// wire to themselves), into *m and returns its header. It does not check
// or update window. It checks every bound (runs, values, checksums, block
// hashes, frame ranges) and accepts exactly the encodings AppendInput
// produces; it never panics, and it allocates nothing when it rejects a
// packet for its header or tag.
//
// Ownership: *m belongs to the caller, who reuses it for every packet. The
// decoder overwrites all of its fields and reuses the backing arrays of
// m.Inputs, m.Checksums, m.Blocks.Hashes and of the Values of every element
// of m.Inputs[:cap(m.Inputs)], so after warm-up it allocates nothing. The
// slices it leaves in *m are valid until the next decode into *m; copy
// what must outlive it (core's Receive copies what it keeps). Never decode
// into a message whose slices are shared, such as one from a core.Ready.
// On error the contents of *m are unspecified, but still owned by m.
func (c *Codec[I]) DecodeInput(p []byte, key Key, window *ReplayWindow, m *engine.Message[I]) (Header, error) {
	r := reader{b: p}
	hd, ok := r.expect(TypeInput, key, window)
	if !ok {
		return Header{}, r.err
	}
	if c.quickBody(r.b, hd, m) {
		return hd, nil
	}
	if !c.body(&r, hd, m) {
		return Header{}, r.err
	}
	return hd, nil
}

// DecodeInputBody is DecodeInput after ParseHeader: p is a datagram whose
// header ParseHeader returned as h, so its tag is verified already and is
// not computed again. It decodes the body into *m as DecodeInput does,
// with the same ownership rules, and returns the same errors; a header of
// another type fails with ErrWrongType.
func (c *Codec[I]) DecodeInputBody(p []byte, h Header, m *engine.Message[I]) error {
	if h.Type != TypeInput {
		return errWrongType
	}
	if h.Len < shortHeader || len(p) < h.Len+TagSize {
		return errShortHeader
	}
	b := p[:len(p)-TagSize]
	if c.quickBody(b, h, m) {
		return nil
	}
	r := reader{b: b, off: h.Len}
	if !c.body(&r, h, m) {
		return r.err
	}
	return nil
}

// body decodes an Input packet's body from r, positioned after header hd
// and without the tag, into *m; it reports whether r.err is still nil.
func (c *Codec[I]) body(r *reader, hd Header, m *engine.Message[I]) bool {
	var ext byte
	if hd.Flags&flagExt != 0 {
		ext = r.byte1("extension flags")
		switch {
		case !r.ok():
		case ext == 0:
			r.stop(errExtZero)
		case ext&^extAll != 0:
			r.stop(errExtBits)
		}
	}
	m.Frame = r.seqFrame(hd.Seq, "frame")
	at := r.off
	shape := r.byte1("shape")
	h, nr := int(shape&31), int(shape>>5)
	if r.ok() && h > core.MaxPlayers {
		r.fail(at, "more held entries than MaxPlayers", ErrTooLarge)
	}
	m.Held = [core.MaxPlayers]core.Frame{}
	for i := 0; i < h && r.ok(); i++ {
		m.Held[i] = r.relFrame(m.Frame, "held")
	}
	if r.ok() && h > 0 && m.Held[h-1] == 0 {
		r.fail(at, "last held entry is zero", ErrMalformed)
	}
	m.Gone = 0
	if ext&extGone != 0 {
		at := r.off
		m.Gone = r.u16("gone")
		if r.ok() && m.Gone == 0 {
			r.fail(at, "gone flag with empty mask", ErrMalformed)
		}
	}
	m.ChecksumAck = 0
	if ext&extAck != 0 {
		at := r.off
		m.ChecksumAck = r.relFrame(m.Frame, "checksum ack")
		if r.ok() && m.ChecksumAck == 0 {
			r.fail(at, "checksum ack of frame 0 is sent as no ack", ErrMalformed)
		}
	}
	m.NoStamp = hd.Flags&flagTiming == 0
	if r.ok() && !m.NoStamp && !StampDue(hd.Seq) {
		r.fail(r.off, "timing in a packet where it is not due", ErrMalformed)
	}
	m.Stamp, m.Echo, m.EchoDelay, m.HasEcho = 0, 0, 0, false
	if !m.NoStamp {
		m.Stamp, m.Echo, m.EchoDelay, m.HasEcho = r.timing()
	}
	m.Checksums = r.checksums(ext&extSums != 0, m.Frame, m.Checksums[:0])
	r.blocks(ext&extBlocks != 0, m.Frame, &m.Blocks, &m.Answers)
	if nr == 7 {
		nr += r.count(core.MaxPlayers-7, "runs")
	}
	m.Inputs = c.readRuns(r, nr, m.Frame, &m.Held, hd.Flags&flagAtHeld != 0, m.Inputs[:0])
	r.end()
	return r.err == nil
}

// checksums appends the checksum reports, if present, to dst.
func (r *reader) checksums(present bool, base core.Frame, dst []engine.ChecksumReport) []engine.ChecksumReport {
	if !present || !r.ok() {
		return dst
	}
	at := r.off
	n := r.count(MaxChecksums, "checksums")
	if r.ok() && n == 0 {
		r.fail(at, "checksum flag with no reports", ErrMalformed)
	}
	for i := 0; i < n && r.ok(); i++ {
		f := r.relFrame(base, "checksum frame")
		s := r.u64("checksum")
		dst = append(dst, engine.ChecksumReport{Frame: f, Sum: s})
		base = f
	}
	return dst
}

// The desync section's parts byte (ext 0x04): a query flag, the number of
// answers, and which of them are Unavailable.
const (
	partQuery       = 0x01 // a BlockReport follows
	partAnswerShift = 1    // bits 1-3: the number of BlockAnswers that follow
	partAnswers     = 7 << partAnswerShift
	partUnavailable = 0x10 // bit 4+i: answer i is Unavailable: no Differ
)

// The parts byte has room for the answers of core.MaxAnswers.
var _ [4 - engine.MaxAnswers]struct{}

// blocks reads the desync section, if present, into b and as, reusing
// b.Hashes.
func (r *reader) blocks(present bool, base core.Frame, b *engine.BlockReport, as *[engine.MaxAnswers]engine.BlockAnswer) {
	hs := b.Hashes[:0]
	*b = engine.BlockReport{Hashes: hs}
	*as = [engine.MaxAnswers]engine.BlockAnswer{}
	if !present || !r.ok() {
		return
	}
	at := r.off
	parts := r.byte1("desync parts")
	n := int(parts&partAnswers) >> partAnswerShift
	if r.ok() && (parts == 0 || n > engine.MaxAnswers || parts>>(4+n) != 0) {
		r.fail(at, "bad desync parts", ErrMalformed)
	}
	if parts&partQuery != 0 && r.ok() {
		b.Frame = r.relFrame(base, "blocks frame")
		b.Offset = r.size("blocks offset")
		b.Length = r.size("blocks length")
		b.BlockSize = r.size("block size")
		at = r.off
		n := r.count(MaxBlocks, "block hashes")
		if r.ok() && n == 0 {
			r.fail(at, "query with no hashes", ErrMalformed)
		}
		for i := 0; i < n && r.ok(); i++ {
			hs = append(hs, r.u64("block hash"))
		}
		b.Hashes = hs
	}
	for i := 0; i < n && r.ok(); i++ {
		a := &as[i]
		a.Frame = r.relFrame(base, "answer frame")
		a.Offset = r.size("answer offset")
		at = r.off
		a.Length = r.size("answer length")
		if r.ok() && a.Length == 0 {
			r.fail(at, "answer of an empty range", ErrMalformed)
		}
		if parts&(partUnavailable<<i) != 0 {
			a.Unavailable = true
		} else {
			a.Differ = r.u64("answer mask")
		}
		base = a.Frame
	}
}

// size reads a uvarint of at most MaxFrame, such as a byte offset.
func (r *reader) size(what string) int {
	at := r.off
	v := r.uvarint(what)
	if r.ok() && v > MaxFrame {
		r.fail(at, what+" out of range", ErrMalformed)
	}
	return int(v)
}

// readRuns appends nr runs to dst, reusing the Values arrays found in
// dst[:cap(dst)]. With atHeld the starts are not on the wire: each run
// ends at its player's entry of held, which must not be zero. Without it,
// the runs must not all end there (that encoding is the one with the
// flag).
func (c *Codec[I]) readRuns(r *reader, nr int, base core.Frame, held *[core.MaxPlayers]core.Frame, atHeld bool, dst []engine.InputRun[I]) []engine.InputRun[I] {
	total := 0
	allAtHeld := nr > 0
	if atHeld && nr == 0 && r.ok() {
		r.fail(r.off, "runs-end-at-held flag without runs", ErrMalformed)
	}
	for i := 0; i < nr && r.ok(); i++ {
		at := r.off
		head := r.byte1("run head")
		n := int(head >> 4)
		if n == 0 {
			cat := r.off
			n = r.count(MaxRunValues, "run length")
			if r.ok() && n >= 1 && n <= 15 {
				r.fail(cat, "run length is not minimal", ErrMalformed)
			}
		}
		if r.ok() && total+n > MaxValues {
			r.fail(at, "more than MaxValues values", ErrTooLarge)
		}
		total += n
		player := core.PlayerHandle(head & 15)
		var start core.Frame
		if atHeld {
			h := held[player]
			if r.ok() && (h == 0 || int64(n) > int64(h)) {
				r.fail(at, "run cannot end at its player's held entry", ErrMalformed)
			}
			start = h - core.Frame(n)
		} else {
			sat := r.off
			start = r.relFrame(base, "run start")
			if r.ok() && int64(start)+int64(n)-1 > MaxFrame {
				r.fail(sat, "run ends past the largest frame", ErrMalformed)
			}
			allAtHeld = allAtHeld && endsAtHeld(held, player, start, n)
		}
		if !r.ok() {
			break
		}
		vals := runValues(dst, n)
		c.readRun(r, vals)
		dst = append(dst, engine.InputRun[I]{Player: player, Start: start, Values: vals})
	}
	if !atHeld && allAtHeld && r.ok() {
		r.fail(r.off, "run starts that the held entries imply", ErrMalformed)
	}
	return dst
}
