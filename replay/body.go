package replay

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"io"
	"slices"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/arena"
)

// body is the content of a replay, shared by Recorder (which builds it) and
// Replay (which decodes it). Invariants: rows holds players inputs per
// record, each record differing from the previous one; ends is ascending,
// one per record, and ends[i] is the first frame after record i's run, so
// the last is hdr.Frames; sums holds hdr.Frames/N checksums; keys holds
// hdr.Frames/K stored keyframe records and initial the stored initial
// state (see encodeSnapshot).
type body[I comparable] struct {
	hdr     Header
	rows    []core.Input[I]
	ends    []core.Frame
	sums    []uint64
	initial []byte
	keys    [][]byte
}

// Snapshot record methods: the first byte of a stored snapshot.
const (
	methodRaw     = 0 // the state.Encode bytes XOR the base follow
	methodDeflate = 1 // a raw DEFLATE stream of the state.Encode bytes XOR the base follows
)

// Input statuses on disk: the core.InputStatus values.
const (
	diskConfirmed    = uint8(core.InputConfirmed)
	diskDisconnected = uint8(core.InputDisconnected)
	diskFilled       = uint8(core.InputFilled)
)

// encode returns the replay file of b. It sets b.hdr's offsets, size and
// CRC.
func (b *body[I]) encode() []byte {
	players := b.hdr.Players
	out := make([]byte, headerSize, headerSize+len(b.initial)+len(b.rows)*4+len(b.sums)*8)
	out = append(out, b.initial...)
	b.hdr.inputsOff = int64(len(out))
	var v [binary.MaxVarintLen64]byte
	start := core.Frame(0)
	for i, end := range b.ends {
		out = append(out, v[:binary.PutUvarint(v[:], uint64(end-start))]...)
		start = end
		row := b.rows[i*players : (i+1)*players]
		var mask uint16
		for p := range row {
			if i == 0 || row[p] != b.rows[(i-1)*players+p] {
				mask |= 1 << p
			}
		}
		out = binary.LittleEndian.AppendUint16(out, mask)
		for p := range row {
			if mask&(1<<p) == 0 {
				continue
			}
			out = append(out, uint8(row[p].Status))
			if row[p].Status != core.InputDisconnected {
				out = arena.AppendRaw(out, &row[p].Value)
			}
		}
	}
	b.hdr.sumsOff = int64(len(out))
	for _, s := range b.sums {
		out = binary.LittleEndian.AppendUint64(out, s)
	}
	b.hdr.indexOff = int64(len(out))
	off := int64(len(out) + 8*len(b.keys))
	for _, k := range b.keys {
		out = binary.LittleEndian.AppendUint64(out, uint64(off))
		off += int64(len(k))
	}
	for _, k := range b.keys {
		out = append(out, k...)
	}
	b.hdr.Size = int64(len(out))
	b.hdr.bodyCRC = crc32.Checksum(out[headerSize:], castagnoli)
	appendHeader(out[:0], &b.hdr)
	return out
}

// compressor stores snapshots; its zero value is ready to use.
type compressor struct {
	w   *flate.Writer
	buf bytes.Buffer
	x   []byte
}

// store returns the stored record of the encoded snapshot enc: the
// DEFLATE stream of enc XOR base (base is nil or as long as enc).
func (c *compressor) store(enc, base []byte) []byte {
	c.x = append(c.x[:0], enc...)
	for i := range base {
		c.x[i] ^= base[i]
	}
	c.buf.Reset()
	c.buf.WriteByte(methodDeflate)
	if c.w == nil {
		c.w, _ = flate.NewWriter(&c.buf, flate.BestCompression) // the level is valid
	} else {
		c.w.Reset(&c.buf)
	}
	_, _ = c.w.Write(c.x) // writes to a bytes.Buffer cannot fail
	_ = c.w.Close()
	return bytes.Clone(c.buf.Bytes())
}

// expander loads stored snapshots; its zero value is ready to use.
type expander struct {
	r  io.ReadCloser
	br bytes.Reader
}

// load writes the encoded snapshot of stored record rec into dst (which
// has the encoded length) and XORs it with base (nil or as long as dst).
// The error matches ErrCorrupt, with offset off, the record's position.
func (x *expander) load(dst, rec, base []byte, off int64) error {
	if len(rec) == 0 {
		return corrupt(off, "empty snapshot record", nil)
	}
	switch rec[0] {
	case methodRaw:
		if len(rec)-1 != len(dst) {
			return corrupt(off, "raw snapshot has the wrong length", nil)
		}
		copy(dst, rec[1:])
	case methodDeflate:
		x.br.Reset(rec[1:])
		if x.r == nil {
			x.r = flate.NewReader(&x.br)
		} else if err := x.r.(flate.Resetter).Reset(&x.br, nil); err != nil {
			return corrupt(off, "snapshot", err)
		}
		if _, err := io.ReadFull(x.r, dst); err != nil {
			return corrupt(off, "snapshot stream", err)
		}
		var one [1]byte
		if n, err := x.r.Read(one[:]); n != 0 || err != io.EOF {
			return corrupt(off, "snapshot stream is longer than the state", nil)
		}
		if x.br.Len() != 0 {
			return corrupt(off, "bytes after the snapshot stream", nil)
		}
	default:
		return corrupt(off, "unknown snapshot method", nil)
	}
	for i := range base {
		dst[i] ^= base[i]
	}
	return nil
}

// rowAt returns the index of the record that holds frame f: the first
// whose end is above f (len(ends) when f is past the last frame).
func rowAt(ends []core.Frame, f core.Frame) int {
	i, _ := slices.BinarySearch(ends, f+1)
	return i
}
