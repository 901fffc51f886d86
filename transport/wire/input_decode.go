package wire

import (
	"github.com/rollstep/rollstep/core"
)

// DecodeInput decodes datagram p, which must be an Input packet of session
// token, into *m and returns its header. It checks every bound (runs,
// values, checksums, block hashes, frame ranges) and accepts exactly the
// encodings AppendInput produces; it never panics.
//
// Ownership: *m belongs to the caller, who reuses it for every packet. The
// decoder overwrites all of its fields and reuses the backing arrays of
// m.Inputs, m.Checksums, m.Blocks.Hashes and of the Values of every element
// of m.Inputs[:cap(m.Inputs)], so after warm-up it allocates nothing. The
// slices it leaves in *m are valid until the next decode into *m; copy
// what must outlive it (core's Receive copies what it keeps). Never decode
// into a message whose slices are shared, such as one from a core.Ready.
// On error the contents of *m are unspecified, but still owned by m.
func (c *Codec[I]) DecodeInput(p []byte, token uint64, m *core.Message[I]) (Header, error) {
	r := reader{b: p}
	hd, ok := r.expect(TypeInput, token)
	if !ok {
		return Header{}, r.err
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
	if hd.Flags&flagGone != 0 {
		at := r.off
		m.Gone = r.u16("gone")
		if r.ok() && m.Gone == 0 {
			r.fail(at, "gone flag with empty mask", ErrMalformed)
		}
	}
	m.ChecksumAck = r.relFrame(m.Frame, "checksum ack")
	m.NoStamp = hd.Flags&flagTiming == 0
	if r.ok() && !m.NoStamp && !StampDue(hd.Seq) {
		r.fail(r.off, "timing in a packet where it is not due", ErrMalformed)
	}
	m.Stamp, m.Echo, m.EchoDelay, m.HasEcho = 0, 0, 0, false
	if !m.NoStamp {
		m.Stamp, m.Echo, m.EchoDelay, m.HasEcho = r.timing()
	}
	m.Checksums = r.checksums(hd.Flags&flagSums != 0, m.Frame, m.Checksums[:0])
	r.blocks(hd.Flags&flagBlocks != 0, m.Frame, &m.Blocks, &m.Answer)
	if nr == 7 {
		nr += r.count(core.MaxPlayers-7, "runs")
	}
	m.Inputs = c.readRuns(&r, nr, m.Frame, m.Inputs[:0])
	r.end()
	if r.err != nil {
		return Header{}, r.err
	}
	return hd, nil
}

// checksums appends the checksum reports, if present, to dst.
func (r *reader) checksums(present bool, base core.Frame, dst []core.ChecksumReport) []core.ChecksumReport {
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
		dst = append(dst, core.ChecksumReport{Frame: f, Sum: s})
		base = f
	}
	return dst
}

// Parts of the desync section (flag 0x80).
const (
	partQuery       = 0x01 // a BlockReport follows
	partAnswer      = 0x02 // a BlockAnswer follows
	partUnavailable = 0x04 // the BlockAnswer is Unavailable: no Differ
)

// blocks reads the desync section, if present, into b and a, reusing
// b.Hashes.
func (r *reader) blocks(present bool, base core.Frame, b *core.BlockReport, a *core.BlockAnswer) {
	hs := b.Hashes[:0]
	*b = core.BlockReport{Hashes: hs}
	*a = core.BlockAnswer{}
	if !present || !r.ok() {
		return
	}
	at := r.off
	parts := r.byte1("desync parts")
	if r.ok() && (parts == 0 || parts&^(partQuery|partAnswer|partUnavailable) != 0 || parts&(partAnswer|partUnavailable) == partUnavailable) {
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
	if parts&partAnswer != 0 && r.ok() {
		a.Frame = r.relFrame(base, "answer frame")
		a.Offset = r.size("answer offset")
		at = r.off
		a.Length = r.size("answer length")
		if r.ok() && a.Length == 0 {
			r.fail(at, "answer of an empty range", ErrMalformed)
		}
		if parts&partUnavailable != 0 {
			a.Unavailable = true
		} else {
			a.Differ = r.u64("answer mask")
		}
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
// dst[:cap(dst)].
func (c *Codec[I]) readRuns(r *reader, nr int, base core.Frame, dst []core.InputRun[I]) []core.InputRun[I] {
	total := 0
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
		sat := r.off
		start := r.relFrame(base, "run start")
		if r.ok() && int64(start)+int64(n)-1 > MaxFrame {
			r.fail(sat, "run ends past the largest frame", ErrMalformed)
		}
		if !r.ok() {
			break
		}
		vals := runValues(dst, n)
		c.readRun(r, vals)
		dst = append(dst, core.InputRun[I]{Player: core.PlayerHandle(head & 15), Start: start, Values: vals})
	}
	return dst
}
