package wire

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"reflect"

	"github.com/rollstep/rollstep/internal/arena"
	"github.com/rollstep/rollstep/internal/engine"
)

// Per-packet bounds on what an Input packet carries. Decoders reject
// packets over them with ErrTooLarge; the encoder never exceeds them.
const (
	// MaxRunValues is the most values one input run carries; it equals
	// the largest core.Config.MaxRunLength.
	MaxRunValues = 1024
	// MaxValues is the most input values one packet carries, over all
	// runs. Zero deltas cost no bytes, so without it a 1200-byte packet
	// could make the decoder materialise millions of values.
	MaxValues = 4096
	// MaxChecksums is the most checksum reports one packet carries; the
	// encoder sends the first MaxChecksums (the oldest, in core's order).
	MaxChecksums = 16
	// MaxBlocks is the most block hashes one packet carries; core sends at
	// most 64.
	MaxBlocks = 64
)

// Codec encodes and decodes Input packets for input type I. It keeps
// scratch buffers, so it allocates nothing after creation and is not safe
// for concurrent use: use one per goroutine. Control packets need no Codec.
// The zero Codec is invalid; make one with NewCodec.
type Codec[I comparable] struct {
	size   int          // state.Size[I]()
	masked bool         // literals carry a byte mask (size > 2)
	mlen   int          // mask bytes per literal: ceil(size/8)
	prev   []byte       // the previous value's bytes (size bytes)
	cur    []byte       // the current value's bytes (size bytes, capacity a multiple of 8)
	raw    arena.Raw[I] // I's byte view, its layout looked up once
	// slot: I is a core.Slot, whose first slotControl bytes are the
	// control word; masked and mlen then describe its value's literal.
	slot bool
	// fast: the quick paths take the codec's packets (quick).
	fast bool
}

// slotControl is the size of a core.Slot's control word, its first bytes.
const slotControl = 8

// isSlot reports whether I is a core.Slot: a struct of a core.Control,
// first, and the game's input.
func isSlot[I any]() bool {
	t := reflect.TypeFor[I]()
	return t.Kind() == reflect.Struct && t.NumField() == 2 && t.Field(0).Offset == 0 &&
		t.Field(0).Type == reflect.TypeFor[engine.Control]() && t.Field(0).Type.Size() == slotControl
}

// NewCodec returns a Codec for I. It returns the *state.ValidationError if
// I is not arena-serializable, and an error matching ErrInvalidConfig if
// state.Size[I]() is over MaxInputSize.
func NewCodec[I comparable]() (*Codec[I], error) {
	if err := arena.Validate[I](); err != nil {
		return nil, err
	}
	raw, err := arena.RawOf[I]()
	if err != nil {
		return nil, err
	}
	n := arena.Size[I]()
	if n > MaxInputSize {
		return nil, fmt.Errorf("%w: input size %d is over %d", ErrInvalidConfig, n, MaxInputSize)
	}
	c := &Codec[I]{
		size:   n,
		masked: n > 2,
		mlen:   (n + 7) / 8,
		prev:   make([]byte, 0, (n+7)/8*8), // room for a word past its last word boundary
		cur:    make([]byte, 0, (n+7)/8*8), // zero past n: see appendLiteral
		slot:   isSlot[I](),
		raw:    raw,
	}
	if c.slot {
		v := n - slotControl
		c.masked, c.mlen = v > 2, (v+7)/8
		c.fast = v <= 8
	}
	return c, nil
}

// InputSize returns the size of one input value in bytes.
func (c *Codec[I]) InputSize() int { return c.size }

// appendRun appends the values of one run: XOR deltas against the previous
// value of the run (the first against all zeros), run-length encoded as
// gap, literal, gap, literal, ..., [gap], where a gap counts zero deltas and
// a literal is one nonzero delta. See doc.go. It never makes dst longer
// than limit: it returns false instead, with dst cut short.
func (c *Codec[I]) appendRun(dst []byte, vals []I, limit int) ([]byte, bool) {
	prev := c.prev[:c.size]
	clear(prev)
	gap := uint64(0)
	var zero I
	for i := range vals {
		// Values that compare equal have equal bytes (NewCodec accepted
		// I: no padding, no floats), so an unchanged value is a zero
		// delta, and prev already holds its bytes. Most values of a
		// steady match are unchanged.
		if i == 0 && vals[0] == zero || i > 0 && vals[i] == vals[i-1] {
			gap++
			continue
		}
		cur := c.raw.Append(c.cur[:0], &vals[i])
		nz := xorDelta(cur, prev)
		if nz == 0 {
			gap++
			continue
		}
		if c.slot {
			var ok bool
			if dst, ok = c.appendSlotLiteral(dst, gap, cur, nz, limit); !ok {
				return dst, false
			}
			gap = 0
			continue
		}
		lit := c.size
		if c.masked {
			lit = c.mlen + nz
		}
		if len(dst)+uvarintLen(gap)+lit > limit {
			return dst, false
		}
		dst = binary.AppendUvarint(dst, gap)
		gap = 0
		dst = c.appendLiteral(dst, cur)
	}
	if gap > 0 {
		if c.slot {
			gap <<= 1 // no control literal
		}
		if len(dst)+uvarintLen(gap) > limit {
			return dst, false
		}
		dst = binary.AppendUvarint(dst, gap)
	}
	return dst, true
}

// appendSlotLiteral appends the gap before a core.Slot's nonzero delta d
// (nz nonzero bytes) and the delta: the gap doubled, plus 1 when the
// control word changed; then the control word's literal if it changed (a
// byte mask and its nonzero bytes), then the value's literal, as for the
// value's own type (it may be all zeros when only the control changed).
// An unchanged control word, as between most frames, costs nothing.
func (c *Codec[I]) appendSlotLiteral(dst []byte, gap uint64, d []byte, nz, limit int) ([]byte, bool) {
	ctl := nonzeroBytes(binary.LittleEndian.Uint64(d))
	cnz := bits.OnesCount64(ctl)
	tok, lit := gap<<1, c.size-slotControl
	if cnz > 0 {
		tok, lit = tok|1, 1+cnz+lit
	}
	if c.masked {
		lit += c.mlen + nz - cnz - (c.size - slotControl)
	}
	if len(dst)+uvarintLen(tok)+lit > limit {
		return dst, false
	}
	dst = binary.AppendUvarint(dst, tok)
	if cnz > 0 {
		dst = append(dst, byte(ctl*0x0102040810204080>>56))
		for ; ctl != 0; ctl &= ctl - 1 {
			dst = append(dst, d[bits.TrailingZeros64(ctl)/8])
		}
	}
	v := d[slotControl:]
	if !c.masked {
		return append(dst, v...), true
	}
	if nz == cnz { // only the control changed: a zero mask
		return append(dst, zeros[:c.mlen]...), true
	}
	return c.appendLiteral(dst, v), true
}

// uvarintLen returns the length of x as a uvarint.
func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// appendLiteral appends a nonzero delta: raw for inputs of up to 2 bytes,
// else a little-endian bitmask of the nonzero bytes followed by them. d is
// a slice of c.cur from a word boundary, so the bytes past it up to the
// end of the mask's last word are zero (see NewCodec), and it reads whole
// words: a mask byte and its bytes per word, without a branch per byte.
func (c *Codec[I]) appendLiteral(dst, d []byte) []byte {
	if !c.masked {
		return append(dst, d...)
	}
	w := d[:c.mlen*8]
	m := len(dst)
	dst = append(dst, zeros[:c.mlen]...)
	for k := 0; k < len(w); k += 8 {
		f := nonzeroBytes(binary.LittleEndian.Uint64(w[k:]))
		// Gather bit 8j of f into bit j of the mask byte.
		dst[m+k/8] = byte(f * 0x0102040810204080 >> 56)
		for ; f != 0; f &= f - 1 {
			dst = append(dst, w[k+bits.TrailingZeros64(f)/8])
		}
	}
	return dst
}

// zeros is MaxInputSize/8 zero bytes: the longest mask.
var zeros [(MaxInputSize + 7) / 8]byte

// xorDelta replaces cur with cur XOR prev and prev with the old cur, and
// returns the number of nonzero bytes of the delta. It works a word at a
// time: the 64-byte inputs of a 16-player match go through it thousands of
// times when the encoder searches for a cut-off.
func xorDelta(cur, prev []byte) int {
	nz, j := 0, 0
	for ; j+8 <= len(cur); j += 8 {
		a := binary.LittleEndian.Uint64(cur[j:])
		d := a ^ binary.LittleEndian.Uint64(prev[j:])
		binary.LittleEndian.PutUint64(prev[j:], a)
		binary.LittleEndian.PutUint64(cur[j:], d)
		nz += bits.OnesCount64(nonzeroBytes(d))
	}
	if j+4 <= len(cur) {
		a := binary.LittleEndian.Uint32(cur[j:])
		d := a ^ binary.LittleEndian.Uint32(prev[j:])
		binary.LittleEndian.PutUint32(prev[j:], a)
		binary.LittleEndian.PutUint32(cur[j:], d)
		nz += bits.OnesCount64(nonzeroBytes(uint64(d)))
		j += 4
	}
	if j+2 <= len(cur) {
		a := binary.LittleEndian.Uint16(cur[j:])
		d := a ^ binary.LittleEndian.Uint16(prev[j:])
		binary.LittleEndian.PutUint16(prev[j:], a)
		binary.LittleEndian.PutUint16(cur[j:], d)
		nz += bits.OnesCount64(nonzeroBytes(uint64(d)))
		j += 2
	}
	if j < len(cur) {
		d := cur[j] ^ prev[j]
		prev[j] = cur[j]
		cur[j] = d
		if d != 0 {
			nz++
		}
	}
	return nz
}

// nonzeroBytes returns a word with bit 8k set exactly when byte k of w is
// nonzero.
func nonzeroBytes(w uint64) uint64 {
	w |= w >> 4
	w |= w >> 2
	w |= w >> 1
	return w & 0x0101010101010101
}

// readRun decodes n values written by appendRun into vals[:n].
func (c *Codec[I]) readRun(r *reader, vals []I) {
	n := len(vals)
	prev := c.prev[:c.size]
	clear(prev)
	var zero I
	pos := 0
	for pos < n && r.ok() {
		tokAt := r.off
		gap, ctl := 0, false
		if c.slot {
			tok := r.uvarint("gap")
			if r.ok() && tok>>1 > uint64(n-pos) {
				r.fail(tokAt, "gap: count over limit", ErrTooLarge)
			}
			if !r.ok() {
				return
			}
			gap, ctl = int(tok>>1), tok&1 != 0
		} else {
			gap = r.count(n-pos, "gap")
		}
		for k := pos; k < pos+gap; k++ {
			if pos == 0 {
				vals[k] = zero
			} else {
				vals[k] = vals[pos-1]
			}
		}
		pos += gap
		if pos == n && ctl {
			r.fail(tokAt, "gap: a control word change after the run's last value", ErrMalformed)
		}
		if pos == n || !r.ok() {
			return
		}
		at := r.off
		if c.slot {
			if ctl && !c.readControl(r, prev[:slotControl]) {
				return
			}
			if !c.readLiteral(r, prev[slotControl:], ctl) {
				return
			}
		} else if !c.readLiteral(r, prev, false) {
			return
		}
		if err := c.raw.Decode(prev, &vals[pos]); err != nil {
			r.fail(at, "input value: "+err.Error(), ErrMalformed)
			return
		}
		pos++
	}
}

// readControl reads the literal of a core.Slot's changed control word (a
// nonzero byte mask and its nonzero bytes) and XORs it into prev, the
// control word's bytes.
func (c *Codec[I]) readControl(r *reader, prev []byte) bool {
	at := r.off
	m := r.byte1("control delta mask")
	if r.ok() && m == 0 {
		r.fail(at, "control delta mask is zero", ErrMalformed)
	}
	for j := 0; j < slotControl && r.ok(); j++ {
		if m>>j&1 == 0 {
			continue
		}
		bat := r.off
		if x := r.byte1("control delta byte"); r.ok() && x == 0 {
			r.fail(bat, "control delta byte is zero", ErrMalformed)
		} else {
			prev[j] ^= x
		}
	}
	return r.ok()
}

// readLiteral reads a delta of len(prev) bytes and XORs it into prev. It
// must be nonzero unless zeroOK (a core.Slot whose control word changed).
func (c *Codec[I]) readLiteral(r *reader, prev []byte, zeroOK bool) bool {
	at := r.off
	if !c.masked {
		d := r.bytes(len(prev), "input delta")
		nz := false
		for j, x := range d {
			prev[j] ^= x
			nz = nz || x != 0
		}
		if r.ok() && !nz && !zeroOK {
			r.fail(at, "input delta is zero", ErrMalformed)
		}
		return r.ok()
	}
	mask := r.bytes(c.mlen, "input delta mask")
	if mask == nil {
		return false
	}
	seen := false
	for k, b := range mask {
		for ; b != 0; b &= b - 1 { // the set bits, lowest first
			j := k*8 + bits.TrailingZeros8(b)
			if j >= len(prev) {
				r.fail(at, "input delta mask names a byte past the input", ErrMalformed)
				return false
			}
			bat := r.off
			x := r.byte1("input delta byte")
			if !r.ok() {
				return false
			}
			if x == 0 {
				r.fail(bat, "input delta byte is zero", ErrMalformed)
				return false
			}
			prev[j] ^= x
			seen = true
		}
	}
	if !seen && !zeroOK {
		r.fail(at, "input delta mask is zero", ErrMalformed)
	}
	return r.ok()
}

// runValues returns a slice of n values for the run about to be appended
// to runs, reusing the Values array of the element of runs[:cap(runs)] it
// will overwrite.
func runValues[I comparable](runs []engine.InputRun[I], n int) []I {
	var vals []I
	if len(runs) < cap(runs) {
		vals = runs[:len(runs)+1][len(runs)].Values
	}
	if cap(vals) < n {
		return make([]I, n, max(n, 16))
	}
	return vals[:n]
}
