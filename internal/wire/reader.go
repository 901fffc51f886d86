package wire

import (
	"encoding/binary"
	"math"
	"time"

	"github.com/rollstep/rollstep/core"
)

// reader reads a datagram front to back. The first failure is sticky: it
// is kept in err, every later read returns a zero value, and the caller
// checks err once per field group. Invariants: 0 <= off <= len(b), and
// once err is set, off == len(b) (stop cuts b), so a read's fast path
// need not look at err: it finds no byte left.
type reader struct {
	b   []byte
	off int
	err *DecodeError
}

// fail records a failure at offset off unless one is already recorded.
func (r *reader) fail(off int, what string, kind error) {
	if r.err == nil {
		r.stop(&DecodeError{Offset: off, What: what, Err: kind})
	}
}

// stop records err, which must not be nil, unless a failure is already
// recorded, and ends the datagram where the reader is.
func (r *reader) stop(err *DecodeError) {
	if r.err == nil {
		r.err = err
	}
	r.b = r.b[:r.off]
}

// ok reports whether no read has failed yet.
func (r *reader) ok() bool { return r.err == nil }

// byte1 reads one byte.
func (r *reader) byte1(what string) byte {
	if r.err != nil {
		return 0
	}
	if r.off >= len(r.b) {
		r.fail(r.off, what, ErrTruncated)
		return 0
	}
	c := r.b[r.off]
	r.off++
	return c
}

// bytes returns the next n bytes, aliasing the datagram.
func (r *reader) bytes(n int, what string) []byte {
	if r.err != nil {
		return nil
	}
	if n > len(r.b)-r.off {
		r.fail(r.off, what, ErrTruncated)
		return nil
	}
	s := r.b[r.off : r.off+n]
	r.off += n
	return s
}

// u16 reads a little-endian uint16.
func (r *reader) u16(what string) uint16 {
	s := r.bytes(2, what)
	if s == nil {
		return 0
	}
	return binary.LittleEndian.Uint16(s)
}

// u64 reads a little-endian uint64.
func (r *reader) u64(what string) uint64 {
	s := r.bytes(8, what)
	if s == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(s)
}

// uvarint reads a minimal LEB128 unsigned varint of at most 10 bytes.
// Overlong encodings (a final zero byte after the first) and values past
// 2^64-1 are malformed, so every value has exactly one encoding.
//
// Most fields are one byte: that case is inlined at the call sites, and
// uvarintSlow reads the rest.
func (r *reader) uvarint(what string) uint64 {
	if off := r.off; off < len(r.b) && r.b[off] < 0x80 {
		r.off = off + 1
		return uint64(r.b[off])
	}
	return r.uvarintSlow(what)
}

// uvarintSlow is uvarint for a varint of more than one byte, a truncated
// datagram or a reader that already failed.
func (r *reader) uvarintSlow(what string) uint64 {
	if r.err != nil {
		return 0
	}
	start := r.off
	var x uint64
	for i := 0; i < binary.MaxVarintLen64; i++ {
		if r.off >= len(r.b) {
			r.fail(start, what, ErrTruncated)
			return 0
		}
		c := r.b[r.off]
		r.off++
		if i == binary.MaxVarintLen64-1 && c > 1 {
			r.fail(start, what+": varint overflows 64 bits", ErrMalformed)
			return 0
		}
		x |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			if c == 0 && i > 0 {
				r.fail(start, what+": varint is not minimal", ErrMalformed)
				return 0
			}
			return x
		}
	}
	r.fail(start, what+": varint overflows 64 bits", ErrMalformed)
	return 0
}

// varint reads a zigzag-encoded signed varint.
func (r *reader) varint(what string) int64 {
	u := r.uvarint(what)
	return int64(u>>1) ^ -int64(u&1)
}

// count reads a uvarint that must not exceed limit.
func (r *reader) count(limit int, what string) int {
	start := r.off
	u := r.uvarint(what)
	if r.err == nil && u > uint64(limit) {
		r.fail(start, what+": count over limit", ErrTooLarge)
		return 0
	}
	return int(u)
}

// frame reads an absolute frame: a uvarint in 0..MaxFrame.
func (r *reader) frame(what string) core.Frame {
	start := r.off
	u := r.uvarint(what)
	if r.err == nil && u > MaxFrame {
		r.fail(start, what+": frame out of range", ErrMalformed)
		return 0
	}
	return core.Frame(u)
}

// seqFrame reads an Input packet's frame, sent as the zigzag difference
// seq - frame (modulo 2^64) from the packet's sequence number: both grow by
// about one a frame, so it is usually one byte. The result must be in
// 0..MaxFrame.
func (r *reader) seqFrame(seq uint64, what string) core.Frame {
	start := r.off
	f := seq - uint64(r.varint(what))
	if r.err == nil && f > MaxFrame {
		r.fail(start, what+": frame out of range", ErrMalformed)
		return 0
	}
	return core.Frame(f)
}

// relFrame reads a frame as a zigzag delta from base; the result must be in
// 0..MaxFrame.
func (r *reader) relFrame(base core.Frame, what string) core.Frame {
	start := r.off
	d := r.varint(what)
	f := int64(base) + d
	if r.err == nil && (d < -MaxFrame-1 || d > MaxFrame || f < 0 || f > MaxFrame) {
		r.fail(start, what+": frame out of range", ErrMalformed)
		return 0
	}
	return core.Frame(f)
}

// dur reads a non-negative duration in whole microseconds as a uvarint.
func (r *reader) dur(what string) time.Duration {
	start := r.off
	v := r.uvarint(what)
	if r.err == nil && v > uint64(maxMicros) {
		r.fail(start, what+": duration out of range", ErrMalformed)
		return 0
	}
	return time.Duration(v) * time.Microsecond
}

// maxMicros is the largest magnitude, in microseconds, of a duration on the
// wire: the microseconds of the longest time.Duration.
const maxMicros = math.MaxInt64 / int64(time.Microsecond)

// MaxFrame is the largest frame number the wire carries (core.Frame is an
// int32; negative frames have no encoding).
const MaxFrame = math.MaxInt32

// appendVarint appends v zigzag-encoded.
func appendVarint(b []byte, v int64) []byte {
	return binary.AppendUvarint(b, uint64(v<<1)^uint64(v>>63))
}

// appendDur appends d >= 0 truncated to whole microseconds.
func appendDur(b []byte, d time.Duration) []byte {
	return binary.AppendUvarint(b, uint64(d/time.Microsecond))
}

// appendU64 appends v little-endian.
func appendU64(b []byte, v uint64) []byte { return binary.LittleEndian.AppendUint64(b, v) }
