package wire

import (
	"encoding/binary"
	"strconv"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
)

// Fit reports what AppendInput put in a packet. Inputs are cut, never the
// datagram: when a message does not fit in MaxDatagram bytes the encoder
// sends the oldest inputs (all values for frames below a cut-off frame,
// over every run), so the receiver can progress, and the rest follows in
// later packets once those are acknowledged.
type Fit struct {
	// Values is the number of input values in the packet.
	Values int
	// Omitted is the number of input values of the message left out.
	Omitted int
	// ChecksumsOmitted is the number of checksum reports past MaxChecksums
	// left out (the newest).
	ChecksumsOmitted int
	// BlocksOmitted reports that the desync search's query (block hashes)
	// or answers were left out, either because the inputs did not all fit
	// (then all are) or because the query had more than MaxBlocks hashes.
	// They are diagnostics that core repeats.
	BlocksOmitted bool
}

// Complete reports whether the whole message is in the packet.
func (f Fit) Complete() bool { return f.Omitted == 0 && f.ChecksumsOmitted == 0 && !f.BlocksOmitted }

// StampEvery: one Input packet in StampEvery carries its message's
// round-trip timing (see StampDue).
const StampEvery = 8

// StampDue reports whether the Input packet with sequence number seq
// carries its message's timing: Stamp, Echo and EchoDelay (10 bytes in a
// long match). They are only needed for round-trip samples, so after the
// first 4·StampEvery packets, which all carry them so the first samples
// come at once, only one packet in StampEvery does: 7.5 samples a second
// each way at 60 packets a second, and the others are 10 bytes smaller.
// (One in 16 halves that again, but then the round trip a front end's
// delay control sees lags a change of the link by several seconds more.) Core echoes the newest Stamp it received with how long it held
// it, so a sample is exact however long the echo waits for a stamped
// packet. The due packets are picked by Fibonacci hashing of seq, not by
// seq modulo StampEvery: the sequence numbers of a peer's Input packets
// may form any arithmetic progression (a front end that sends one other
// packet after each Input uses every other number), and the hash picks
// one in StampEvery of every such progression with bounded gaps (at most
// 13 packets apart for consecutive or every-other numbers). The decoder
// rejects timing in a packet where it is not due, so the encoding stays
// canonical.
func StampDue(seq uint64) bool {
	return seq < 4*StampEvery || (seq*0x9e3779b97f4a7c15)>>61 == 0 // one in StampEvery = 2^3
}

// noCut is a cut-off past every frame.
const noCut = int64(1) << 40

// AppendInput appends m as one Input packet of at most MaxDatagram bytes
// to dst, with sequence number seq (its low 16 bits on the wire, all 64
// under the tag) and authenticated with key, and returns the extended
// slice and what it fitted. The timing (Stamp, and Echo and EchoDelay when
// HasEcho) is sent only when StampDue(seq) and not NoStamp, truncated to
// whole microseconds; ChecksumAck only when it is not zero (0
// acknowledges nothing, so a sender may zero an unchanged ack to save its
// byte); a BlockReport only when it has hashes; of Answers, only the
// entries whose Length is not zero, in order (decoded into the first
// entries). On error it returns dst unchanged and an *EncodeError
// (ErrInvalidMessage) naming the field: a negative frame, Stamp or
// EchoDelay, HasEcho with NoStamp, a player outside 0..15, more than
// MaxPlayers runs. It never writes more than
// MaxDatagram bytes past len(dst), so it allocates only when dst has less
// spare capacity than that (a few bytes of that spare capacity past the
// packet may be overwritten too), and it does not retain m.
func (c *Codec[I]) AppendInput(dst []byte, key Key, seq uint64, m *engine.Message[I]) ([]byte, Fit, error) {
	if out, fit, ok := c.quickAppend(dst, key, seq, m); ok { // only what checkMessage accepts
		return out, fit, nil
	}
	if err := checkMessage(m); err != nil {
		return dst, Fit{}, err
	}
	out, fit := c.appendInput(dst, key, seq, m)
	return out, fit, nil
}

// appendInput is AppendInput after checkMessage, for every message.
func (c *Codec[I]) appendInput(dst []byte, key Key, seq uint64, m *engine.Message[I]) ([]byte, Fit) {
	var fit Fit
	start := len(dst)
	nsum := min(len(m.Checksums), MaxChecksums)
	fit.ChecksumsOmitted = len(m.Checksums) - nsum
	nblk := len(m.Blocks.Hashes)
	if nblk > MaxBlocks {
		nblk, fit.BlocksOmitted = 0, true
	}
	var parts byte
	if nblk > 0 {
		parts |= partQuery
	}
	na := byte(0) // answers
	for i := range m.Answers {
		if a := &m.Answers[i]; a.Length != 0 {
			if a.Unavailable {
				parts |= partUnavailable << na
			}
			na++
		}
	}
	parts |= na << partAnswerShift
	total, whole := 0, 0
	for i := range m.Inputs {
		total += len(m.Inputs[i].Values)
		whole += included(&m.Inputs[i], noCut)
	}
	dst, shape := appendInputHead(dst, seq, m, nsum, nblk, parts)
	out, n, ok := c.appendRuns(dst, start, shape, m, noCut, core.MaxPlayers)
	if !ok && parts != 0 {
		// Inputs are progress, the desync search diagnostics: when the
		// inputs do not all fit, its query and answer go first.
		fit.BlocksOmitted = true
		dst, shape = appendInputHead(dst[:start], seq, m, nsum, 0, 0)
		if whole <= MaxValues {
			out, n, ok = c.appendRuns(dst, start, shape, m, noCut, core.MaxPlayers)
		}
	}
	if !ok {
		out, n = c.cutRuns(dst, start, shape, m)
	}
	fit.Values, fit.Omitted = n, total-n
	return appendTag(out, key, seq, start), fit
}

// appendInputHead appends everything of an Input packet before its runs:
// the header, the extension flags, Frame, shape (its run count patched
// later by appendRuns), Held, Gone, ChecksumAck, the timing, nsum checksum
// reports and the desync section (with nblk hashes) when parts is not zero.
// It returns the
// extended slice and the offset of the shape byte.
func appendInputHead[I comparable](dst []byte, seq uint64, m *engine.Message[I], nsum, nblk int, parts byte) ([]byte, int) {
	timed := !m.NoStamp && StampDue(seq)
	var fl, ext byte
	if timed {
		fl |= flagTiming
	}
	if m.Gone != 0 {
		ext |= extGone
	}
	if nsum > 0 {
		ext |= extSums
	}
	if parts != 0 {
		ext |= extBlocks
	}
	if m.ChecksumAck != 0 {
		ext |= extAck
	}
	if ext != 0 {
		fl |= flagExt
	}
	dst = appendHeader(dst, TypeInput, fl, seq)
	if ext != 0 {
		dst = append(dst, ext)
	}
	dst = appendVarint(dst, int64(seq-uint64(m.Frame)))
	shape := len(dst)
	h := heldLen(&m.Held)
	dst = append(dst, byte(h))
	for p := range h {
		dst = appendVarint(dst, int64(m.Held[p])-int64(m.Frame))
	}
	if m.Gone != 0 {
		dst = binary.LittleEndian.AppendUint16(dst, m.Gone)
	}
	if m.ChecksumAck != 0 {
		dst = appendVarint(dst, int64(m.ChecksumAck)-int64(m.Frame))
	}
	if timed {
		dst = appendTiming(dst, m.Stamp, m.Echo, m.EchoDelay, m.HasEcho)
	}
	if nsum > 0 {
		dst = binary.AppendUvarint(dst, uint64(nsum))
		last := m.Frame
		for _, s := range m.Checksums[:nsum] {
			dst = appendVarint(dst, int64(s.Frame)-int64(last))
			dst = appendU64(dst, s.Sum)
			last = s.Frame
		}
	}
	if parts != 0 {
		dst = append(dst, parts)
	}
	if nblk > 0 {
		b := &m.Blocks
		dst = appendVarint(dst, int64(b.Frame)-int64(m.Frame))
		dst = binary.AppendUvarint(dst, uint64(b.Offset))
		dst = binary.AppendUvarint(dst, uint64(b.Length))
		dst = binary.AppendUvarint(dst, uint64(b.BlockSize))
		dst = binary.AppendUvarint(dst, uint64(nblk))
		for _, x := range b.Hashes {
			dst = appendU64(dst, x)
		}
	}
	if parts&partAnswers != 0 {
		last := m.Frame
		for i := range m.Answers {
			a := &m.Answers[i]
			if a.Length == 0 {
				continue
			}
			dst = appendVarint(dst, int64(a.Frame)-int64(last))
			dst = binary.AppendUvarint(dst, uint64(a.Offset))
			dst = binary.AppendUvarint(dst, uint64(a.Length))
			if !a.Unavailable {
				dst = appendU64(dst, a.Differ)
			}
			last = a.Frame
		}
	}
	return dst, shape
}

// cutRuns appends the oldest inputs that fit: the largest cut-off frame
// such that every value of a frame below it fits, or, if even the oldest
// frame does not fit for every run that has it, the oldest frame of as many
// such runs as fit, in message order.
func (c *Codec[I]) cutRuns(dst []byte, start, shape int, m *engine.Message[I]) ([]byte, int) {
	lo, hi := noCut, int64(0)
	for i := range m.Inputs {
		r := &m.Inputs[i]
		if len(r.Values) > 0 {
			lo = min(lo, int64(r.Start))
			hi = max(hi, int64(r.Start)+int64(len(r.Values)))
		}
	}
	runs := len(dst)
	if lo == noCut {
		out, n, _ := c.appendRuns(dst, start, shape, m, 0, 0)
		return out, n
	}
	if _, _, ok := c.appendRuns(dst[:runs], start, shape, m, lo+1, core.MaxPlayers); !ok {
		// Not even one frame of every oldest run fits: take as many runs
		// as fit. One always does (MaxInputSize bounds a literal).
		k := 0
		for k < core.MaxPlayers {
			if _, _, ok := c.appendRuns(dst[:runs], start, shape, m, lo+1, k+1); !ok {
				break
			}
			k++
		}
		out, n, _ := c.appendRuns(dst[:runs], start, shape, m, lo+1, k)
		return out, n
	}
	// Invariant: cut good fits, cut bad does not. Gallop up from the
	// oldest frame, then bisect: the answer is usually a few frames past
	// lo, and each try costs in proportion to the values below its cut.
	good, bad := lo+1, hi+1
	for step := int64(1); good+step < bad; step *= 2 {
		if _, _, ok := c.appendRuns(dst[:runs], start, shape, m, good+step, core.MaxPlayers); !ok {
			bad = good + step
			break
		}
		good += step
	}
	for bad-good > 1 {
		mid := good + (bad-good)/2
		if _, _, ok := c.appendRuns(dst[:runs], start, shape, m, mid, core.MaxPlayers); ok {
			good = mid
		} else {
			bad = mid
		}
	}
	out, n, _ := c.appendRuns(dst[:runs], start, shape, m, good, core.MaxPlayers)
	return out, n
}

// included returns how many values of r go in a packet with cut-off frame
// cut: those for frames below cut, at most MaxRunValues.
func included[I comparable](r *engine.InputRun[I], cut int64) int {
	n := min(len(r.Values), MaxRunValues)
	if cut != noCut {
		n = int(max(0, min(int64(n), cut-int64(r.Start))))
	}
	return n
}

// appendRuns appends the runs section for cut-off frame cut, keeping at
// most maxRuns runs, and patches the shape byte and the runs-end-at-held
// flag in the header byte at start. With noCut every run is written, even
// an empty one; otherwise runs with no value below cut are left out. It
// returns the values written and whether the packet fits: at most
// MaxDatagram bytes from start with the tag, and MaxValues values. It never
// makes dst longer than start+MaxDatagram-TagSize, so a caller's buffer of
// MaxDatagram bytes never grows.
func (c *Codec[I]) appendRuns(dst []byte, start, shape int, m *engine.Message[I], cut int64, maxRuns int) ([]byte, int, bool) {
	nr, atHeld := 0, true
	for i := range m.Inputs {
		r := &m.Inputs[i]
		n := included(r, cut)
		if nr < maxRuns && (cut == noCut || n > 0) {
			nr++
			atHeld = atHeld && endsAtHeld(&m.Held, r.Player, r.Start, n)
		}
	}
	atHeld = atHeld && nr > 0
	dst[shape] = dst[shape]&31 | byte(min(nr, 7))<<5
	dst[start] &^= flagAtHeld
	if atHeld {
		dst[start] |= flagAtHeld
	}
	limit := start + MaxDatagram - TagSize
	if nr >= 7 {
		if len(dst)+1 > limit {
			return dst, 0, false
		}
		dst = binary.AppendUvarint(dst, uint64(nr-7))
	}
	vals, kept := 0, 0
	for i := range m.Inputs {
		r := &m.Inputs[i]
		n := included(r, cut)
		if kept == nr || (cut != noCut && n == 0) {
			continue
		}
		kept++
		vals += n
		delta := int64(r.Start) - int64(m.Frame)
		need := 1 + uvarintLen(uint64(n))
		if !atHeld {
			need += uvarintLen(uint64(delta<<1) ^ uint64(delta>>63))
		}
		if len(dst)+need > limit {
			return dst, vals, false
		}
		if n >= 1 && n <= 15 {
			dst = append(dst, byte(r.Player)|byte(n)<<4)
		} else {
			dst = append(dst, byte(r.Player))
			dst = binary.AppendUvarint(dst, uint64(n))
		}
		if !atHeld {
			dst = appendVarint(dst, delta)
		}
		var ok bool
		if dst, ok = c.appendRun(dst, r.Values[:n], limit); !ok {
			return dst, vals, false
		}
	}
	return dst, vals, vals <= MaxValues
}

// heldLen returns the number of entries of held up to its last nonzero
// one: the entries an Input packet carries (a match of n players fills
// only the first n).
func heldLen(held *[core.MaxPlayers]core.Frame) int {
	// The OR of the upper entries, a half and then a quarter, skips most
	// of the zero tail without a branch per entry (most matches have at
	// most four players).
	h, x := held, 0
	switch {
	case h[8]|h[9]|h[10]|h[11]|h[12]|h[13]|h[14]|h[15] != 0:
		x = 16
	case h[4]|h[5]|h[6]|h[7] != 0:
		x = 8
	default:
		x = 4
	}
	for x > 0 && held[x-1] == 0 {
		x--
	}
	return x
}

// anyNegative reports whether a frame of held is negative: a sign bit in
// the OR of all of them, without a branch per entry.
func anyNegative(held *[core.MaxPlayers]core.Frame) bool {
	h := held
	return h[0]|h[1]|h[2]|h[3]|h[4]|h[5]|h[6]|h[7]|h[8]|h[9]|h[10]|h[11]|h[12]|h[13]|h[14]|h[15] < 0
}

// anyNegative and heldLen read the 16 entries of a Held array.
var _ [core.MaxPlayers - 16]struct{}
var _ [16 - core.MaxPlayers]struct{}

// endsAtHeld reports whether a run of player p's n values from start ends
// exactly at the message's Held entry for p, which is not zero: then the
// packet can leave its start out (flag 0x4).
func endsAtHeld(held *[core.MaxPlayers]core.Frame, p core.PlayerHandle, start core.Frame, n int) bool {
	h := held[p&(core.MaxPlayers-1)]
	return h != 0 && int64(start)+int64(n) == int64(h)
}

// checkMessage returns an *EncodeError if m has no encoding.
func checkMessage[I comparable](m *engine.Message[I]) error {
	bad := func(field, reason string) error { return &EncodeError{Field: field, Reason: reason} }
	if m.Frame < 0 {
		return bad("Frame", "negative frame")
	}
	if anyNegative(&m.Held) {
		for p, f := range m.Held {
			if f < 0 {
				return bad("Held["+strconv.Itoa(p)+"]", "negative frame")
			}
		}
	}
	if m.ChecksumAck < 0 {
		return bad("ChecksumAck", "negative frame")
	}
	if m.NoStamp {
		if m.HasEcho {
			return bad("HasEcho", "an echo in a message without a stamp")
		}
	} else if err := checkStamps(m.Stamp, m.EchoDelay, m.HasEcho); err != nil {
		return err
	}
	for i, s := range m.Checksums[:min(len(m.Checksums), MaxChecksums)] {
		if s.Frame < 0 {
			return bad("Checksums["+strconv.Itoa(i)+"].Frame", "negative frame")
		}
	}
	if b := &m.Blocks; len(b.Hashes) > 0 && len(b.Hashes) <= MaxBlocks {
		if b.Frame < 0 {
			return bad("Blocks.Frame", "negative frame")
		}
		for _, f := range [...]struct {
			name string
			v    int
		}{{"Blocks.Offset", b.Offset}, {"Blocks.Length", b.Length}, {"Blocks.BlockSize", b.BlockSize}} {
			if f.v < 0 || int64(f.v) > MaxFrame {
				return bad(f.name, strconv.Itoa(f.v)+" is outside 0..2^31-1")
			}
		}
	}
	for i := range m.Answers {
		a := &m.Answers[i]
		if a.Length == 0 {
			continue
		}
		field := "Answers[" + strconv.Itoa(i) + "]."
		switch {
		case a.Frame < 0:
			return bad(field+"Frame", "negative frame")
		case a.Offset < 0 || int64(a.Offset) > MaxFrame:
			return bad(field+"Offset", strconv.Itoa(a.Offset)+" is outside 0..2^31-1")
		case a.Length < 0 || int64(a.Length) > MaxFrame:
			return bad(field+"Length", strconv.Itoa(a.Length)+" is outside 0..2^31-1")
		case a.Unavailable && a.Differ != 0:
			return bad(field+"Differ", "nonzero in an Unavailable answer")
		}
	}
	if len(m.Inputs) > core.MaxPlayers {
		return bad("Inputs", strconv.Itoa(len(m.Inputs))+" runs, more than MaxPlayers")
	}
	for i := range m.Inputs {
		r := &m.Inputs[i]
		if r.Player < 0 || r.Player >= core.MaxPlayers {
			return bad("Inputs["+strconv.Itoa(i)+"].Player", "player "+strconv.Itoa(int(r.Player))+" is outside 0..15")
		}
		if r.Start < 0 || int64(r.Start)+int64(len(r.Values))-1 > MaxFrame {
			return bad("Inputs["+strconv.Itoa(i)+"].Start", "frames outside 0..2^31-1")
		}
	}
	return nil
}
